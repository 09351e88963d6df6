"""Trick records: leaders, scoring, impossible records, JSON."""

import random

import pytest

from scoring.engine import (
    ImpossibleRecord,
    InvalidEntry,
    Outcome,
    Rank,
    Ruleset,
    RunKind,
    RunShown,
    Suit,
    TrickRecord,
    parse_cards,
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
