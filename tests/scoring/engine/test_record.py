"""Trick records: leaders, scoring, impossible records, JSON."""

import dataclasses
import random

import pytest

from scoring.engine import (
    Accusation,
    CallTrump,
    Deal,
    HandState,
    ImpossibleRecord,
    InvalidEntry,
    MisplayCall,
    Outcome,
    Play,
    Rank,
    Ruleset,
    RunKind,
    RunShown,
    Suit,
    TrickRecord,
    adjudicate,
    find_misplays,
    parse_cards,
    score_misplay,
    score_summary,
    score_tricks,
    simulate_hand,
    trick_leaders,
)

H = Suit.HEARTS


def full_record(seed: int = 3, **kw: object) -> TrickRecord:
    rec = simulate_hand(Ruleset(), random.Random(seed), dealer=seed % 4).record
    if kw:
        data = rec.to_json() | kw
        return TrickRecord.from_json(data)
    return rec


def test_leaders_eldest_then_winner():
    rec = TrickRecord(
        dealer=3,
        caller=0,
        trump=H,
        tricks=(
            parse_cards("KS AS 10S QS"),  # seat 0 leads, seat 1 wins with the ace
            parse_cards("6C 7C AH 8C"),  # seat 1 leads, seat 3 trumps
            parse_cards("7D"),
        ),
    )
    assert trick_leaders(rec) == (0, 1, 3)


def test_score_tricks_counts_cards_and_last_trick():
    rec = full_record()
    res = score_tricks(Ruleset(), rec)
    assert sum(res.card_points) == 162
    assert res.outcome in (Outcome.MADE, Outcome.HALF_BAIT, Outcome.BAIT)


def test_incomplete_record_cannot_be_scored_unless_thrown_in():
    rec = full_record()
    stopped = TrickRecord(rec.dealer, rec.caller, rec.trump, rec.tricks[:4])
    with pytest.raises(ImpossibleRecord) as info:
        score_tricks(Ruleset(), stopped)
    assert info.value.code == "record_incomplete"
    thrown = TrickRecord(
        rec.dealer, rec.caller, rec.trump, (*rec.tricks[:4], rec.tricks[4][:2]), thrown_in_by=1
    )
    res = score_tricks(Ruleset(), thrown)
    assert res.outcome is Outcome.THROWN_IN
    assert sum(res.card_points) == 162
    assert res.thrown_in_by == 1


def test_a_played_out_hand_cannot_have_been_thrown_in():
    rec = full_record()
    assert rec.complete
    thrown = dataclasses.replace(rec, thrown_in_by=1)
    with pytest.raises(ImpossibleRecord) as info:
        score_tricks(Ruleset(), thrown)
    assert (info.value.field, info.value.code) == ("thrown_in_by", "thrown_in_played_out")
    assert str(info.value) == (
        "seat 1 cannot have thrown in the hand: it was played out, all nine tricks were played"
    )
    # the record is impossible in itself, as the same hand's score-sheet line already is
    with pytest.raises(ImpossibleRecord):
        thrown.check()
    with pytest.raises(ImpossibleRecord):
        TrickRecord.from_json(thrown.to_json()).check()
    sim = simulate_hand(Ruleset(), random.Random(3), dealer=3)
    assert sim.record == rec
    with pytest.raises(InvalidEntry, match="the last trick's 10 was not yet won"):
        score_summary(Ruleset(), dataclasses.replace(sim.summary, thrown_in_by=1))


def test_a_played_out_thrown_in_record_is_not_judged_for_a_misplay_either():
    thrown = dataclasses.replace(full_record(), thrown_in_by=2)
    calls = (
        lambda: adjudicate(thrown, Accusation(accused=1, trick=0, called_by=0)),
        lambda: find_misplays(thrown),
        lambda: score_misplay(Ruleset(), thrown, MisplayCall(called_by=0, proven=True)),
        lambda: trick_leaders(thrown),
    )
    for call in calls:
        with pytest.raises(ImpossibleRecord) as info:
            call()
        assert (info.value.field, info.value.code) == ("thrown_in_by", "thrown_in_played_out")


def test_thrown_in_during_the_last_trick_is_still_a_throw_in():
    rec = full_record()
    # three cards of the ninth trick on the table: its 10 is not yet won
    thrown = dataclasses.replace(rec, tricks=(*rec.tricks[:8], rec.tricks[8][:3]), thrown_in_by=0)
    res = score_tricks(Ruleset(), thrown)
    assert res.outcome is Outcome.THROWN_IN
    assert sum(res.card_points) == 162
    assert res.card_points[1] >= 10  # the other team takes the last trick's 10


@pytest.mark.parametrize(
    ("tricks", "field", "code"),
    [
        (("KS AS 10S QS", "KS"), "tricks.1.0", "card_twice"),
        (("KS AS 10S QS 9S",), "tricks.0", "bad_trick"),
        (("KS AS", "6C 7C 8C 9C"), "tricks.0", "bad_trick"),
        (("KS AS 10S QS", ""), "tricks.1", "bad_trick"),
    ],
)
def test_impossible_records(tricks, field, code):
    rec = TrickRecord(dealer=0, caller=1, trump=H, tricks=tuple(parse_cards(t) for t in tricks))
    with pytest.raises(ImpossibleRecord) as info:
        rec.check()
    assert (info.value.field, info.value.code) == (field, code)


def test_card_twice_message():
    rec = TrickRecord(
        dealer=0, caller=1, trump=H, tricks=(parse_cards("KS AS 10S QS"), parse_cards("6D KS"))
    )
    with pytest.raises(
        ImpossibleRecord, match="the king of spades is played twice: at trick 1 and at trick 2"
    ):
        rec.check()


def test_too_many_tricks():
    rec = full_record()
    with pytest.raises(ImpossibleRecord) as info:
        TrickRecord(rec.dealer, rec.caller, rec.trump, (*rec.tricks, rec.tricks[0])).check()
    assert info.value.code == "too_many_tricks"


def test_card_not_in_the_known_hand():
    rec = full_record()
    assert rec.hands is not None
    hands = list(rec.hands)
    # swap one card between two players' dealt hands: the record no longer fits the deal
    a, b = list(hands[0]), list(hands[1])
    a[0], b[0] = b[0], a[0]
    hands[0], hands[1] = tuple(a), tuple(b)
    bad = TrickRecord(rec.dealer, rec.caller, rec.trump, rec.tricks, tuple(hands))
    with pytest.raises(ImpossibleRecord) as info:
        bad.check()
    assert info.value.code == "card_not_held"
    assert "was not dealt it" in str(info.value)


def test_wrong_leader_out_of_turn():
    rec = TrickRecord(
        dealer=3,
        caller=0,
        trump=H,
        tricks=(parse_cards("KS AS 10S QS"), parse_cards("6C")),
        leaders=(0, 0),
    )
    with pytest.raises(ImpossibleRecord) as info:
        rec.check()
    assert info.value.field == "leaders.1"
    assert str(info.value) == (
        "trick 2 was led by seat 0 out of turn: seat 1 won trick 1 and leads trick 2"
    )


def test_runs_and_bella_against_the_record():
    tricks = (parse_cards("KS AS 10S QS"),)
    with pytest.raises(ImpossibleRecord) as info:
        TrickRecord(
            0, 1, H, tricks, runs=(RunShown(2, RunKind.TWENTY, Suit.SPADES, Rank.KING),)
        ).check()
    assert info.value.code == "run_not_held"  # seat 1 played the KS, seat 2 cannot show it
    with pytest.raises(ImpossibleRecord) as info:
        TrickRecord(0, 1, Suit.SPADES, tricks, bella_seat=2).check()
    assert info.value.code == "bella_not_held"
    with pytest.raises(ImpossibleRecord):
        TrickRecord(0, 1, None, tricks, bella_seat=2).check()


def test_bella_against_a_run_holding_the_king_before_it_was_played():
    """A record stopped early (thrown in): the king of trump is in seat 1's shown run, not
    yet played, so seat 0 cannot have bella, as a score-sheet line already says."""
    twenty = RunShown(1, RunKind.TWENTY, H, Rank.KING)
    stopped = TrickRecord(
        3, 0, H, (parse_cards("AS 6C 7S"),), runs=(twenty,), bella_seat=0, thrown_in_by=1
    )
    with pytest.raises(ImpossibleRecord) as info:
        score_tricks(Ruleset(), stopped)
    assert (info.value.field, info.value.code) == ("bella_seat", "bella_not_held")
    assert str(info.value) == "seat 0 calls bella but seat 1 showed the king of hearts in a run"
    own = score_tricks(Ruleset(), dataclasses.replace(stopped, bella_seat=1))
    assert own.bella_points == (0, 20)  # the run's own player holds both


def test_no_trump_needs_the_switch():
    rec = simulate_hand(Ruleset(no_trump_allowed=True), random.Random(0), 0).record
    nt = TrickRecord(rec.dealer, rec.caller, None, rec.tricks)
    with pytest.raises(ImpossibleRecord):
        score_tricks(Ruleset(), nt)
    assert sum(score_tricks(Ruleset(no_trump_allowed=True), nt).card_points) == 130


def test_json_round_trip_and_errors():
    rec = full_record()
    assert TrickRecord.from_json(rec.to_json()) == rec
    data = rec.to_json()
    data["tricks"][2][1] = "XX"
    with pytest.raises(InvalidEntry) as info:
        TrickRecord.from_json(data)
    assert info.value.field == "tricks.2.1"
    for field, bad in (("leaders", 5), ("runs", "a fifty")):
        with pytest.raises(InvalidEntry) as info:
            TrickRecord.from_json(rec.to_json() | {field: bad})
        assert (info.value.code, info.value.field) == ("bad_json", field)


FIVE_HEARTS = tuple(
    parse_cards(x)
    for x in (
        "6H 7H 8H 9H 10H AS KS QS JS",
        "6C 7C 8C 9C 10C JC QC KC AC",
        "6D 7D 8D 9D 10D JD QD KD AD",
        "JH QH KH AH 6S 7S 8S 9S 10S",
    )
)


def test_a_run_shown_from_a_known_deal_is_cut_from_the_top():
    # RULES.md: a longer sequence is cut from its top card; 6 to 10 of hearts is the fifty to 10
    low = RunShown(0, RunKind.FIFTY, H, Rank.NINE)
    with pytest.raises(ImpossibleRecord) as info:
        TrickRecord(3, 0, Suit.CLUBS, (), hands=FIVE_HEARTS, runs=(low,)).check()
    assert info.value.code == "run_not_held"
    assert info.value.field == "runs.0"
    assert str(info.value) == (
        "seat 0 cannot show a fifty in hearts to the 9: its runs are the fifty in spades "
        "to the ace, the fifty in hearts to the 10"
    )
    top = RunShown(0, RunKind.FIFTY, H, Rank.TEN)
    TrickRecord(3, 0, Suit.CLUBS, (), hands=FIVE_HEARTS, runs=(top,)).check()


def test_a_run_shown_is_checked_against_all_nine_cards_played():
    # without the deal, a complete record still shows each player's nine cards
    s = HandState.start(Ruleset(), 3, Deal(FIVE_HEARTS), (0, 0)).apply(CallTrump(0, Suit.CLUBS))
    while not s.done:
        s = s.apply(Play(s.turn, s.legal_plays()[0]))
    rec = TrickRecord(3, 0, Suit.CLUBS, s.record().tricks)
    assert rec.hands is None
    with pytest.raises(ImpossibleRecord) as info:
        TrickRecord(
            3, 0, Suit.CLUBS, rec.tricks, runs=(RunShown(0, RunKind.FIFTY, H, Rank.NINE),)
        ).check()
    assert info.value.field == "runs.0"
    ok = TrickRecord(3, 0, Suit.CLUBS, rec.tricks, runs=(RunShown(0, RunKind.FIFTY, H, Rank.TEN),))
    assert score_tricks(Ruleset(), ok).runs_counted_by == 0
    # a stopped record does not show all nine cards: the claim cannot be judged from it
    TrickRecord(
        3, 0, Suit.CLUBS, rec.tricks[:2], runs=(RunShown(0, RunKind.FIFTY, H, Rank.NINE),)
    ).check()


def test_runs_and_bella_name_the_seat_that_played_or_was_dealt_the_card():
    # FIVE_HEARTS dealt by seat 3, clubs trump: seat 0 leads, seat 1 trumps and leads on
    first = (parse_cards("AS 6C 6D 6S"), parse_cards("7C 7D JH KS"), parse_cards("QC 8D QH 10H"))
    to_queen = RunShown(0, RunKind.TWENTY, H, Rank.QUEEN)
    cases = (
        (
            {"runs": (to_queen,)},
            first[:2],
            "seat 0 shows a twenty in hearts to the queen but seat 3 played the jack of hearts",
        ),
        (
            {"runs": (to_queen,), "hands": FIVE_HEARTS},
            first[:2],
            "seat 0 shows a twenty in hearts to the queen but was not dealt the queen of hearts",
        ),
        ({"bella_seat": 2}, first, "seat 2 calls bella but seat 1 played the queen of clubs"),
        (
            {"bella_seat": 0, "hands": FIVE_HEARTS},
            first,
            "seat 0 calls bella but was not dealt the king of clubs",
        ),
    )
    for kw, tricks, message in cases:
        with pytest.raises(ImpossibleRecord) as info:
            TrickRecord(3, 0, Suit.CLUBS, tricks, **kw).check()
        assert str(info.value) == message
    assert trick_leaders(TrickRecord(3, 0, Suit.CLUBS, first, hands=FIVE_HEARTS)) == (0, 1, 1)
