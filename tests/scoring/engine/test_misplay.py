"""Misplay verdicts from trick records, and the score of a misplay."""

from typing import Any

import pytest

from scoring.engine import (
    Accusation,
    ImpossibleRecord,
    InvalidEntry,
    MisplayCall,
    MisplayRule,
    Outcome,
    Rank,
    Ruleset,
    RunKind,
    RunShown,
    Suit,
    TrickRecord,
    Verdict,
    adjudicate,
    find_misplays,
    parse_card,
    parse_cards,
    score_misplay,
    score_tricks,
)

H = Suit.HEARTS
STD = Ruleset()


def rec(
    *tricks: str,
    hands: tuple[str, ...] | None = None,
    trump: Suit | None = H,
    **kw: Any,
) -> TrickRecord:
    # dealer 3: seat 0 (eldest) leads the first trick
    return TrickRecord(
        dealer=3,
        caller=0,
        trump=trump,
        tricks=tuple(parse_cards(t) for t in tricks),
        hands=None if hands is None else tuple(parse_cards(h) for h in hands),
        **kw,
    )


def judge(
    record: TrickRecord,
    accused: int,
    trick: int,
    proof: str | None = None,
    called_by: int | None = None,
) -> Verdict:
    # by default the misplay is called by the opponent on the accused's left
    return adjudicate(
        record,
        Accusation(
            accused=accused,
            trick=trick,
            called_by=(accused + 1) % 4 if called_by is None else called_by,
            proof_card=None if proof is None else parse_card(proof),
        ),
    )


def test_seed_example_did_not_play_to_beat_the_king():
    # king of trump led, the second player plays the 6 of trump, later plays the 9 of trump
    r = rec("KH 6H 7H 8H", "AS 9H 10S 6S")
    v = judge(r, accused=1, trick=0)
    assert v.proven
    assert v.rule is MisplayRule.BEAT_TRUMP
    assert (str(v.offending_card), str(v.proof_card), v.proof_trick) == ("6H", "9H", 1)
    assert "did not beat the king of hearts" in v.reason
    assert find_misplays(r) == (
        Verdict(
            True, 1, 0, parse_card("6H"), MisplayRule.BEAT_TRUMP, parse_card("9H"), 1, v.reason
        ),
    )


def test_did_not_follow_suit():
    r = rec("AS 6C 7S 8S", "KD 9S 8D 7D")
    v = judge(r, 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.FOLLOW_SUIT,
        "9S",
        1,
    )
    assert v.reason == (
        "seat 1 played the 6 of clubs at trick 1 but did not follow suit (spades "
        "were led): seat 1 held the 9 of spades, played at trick 2"
    )


def test_did_not_trump():
    r = rec("AS 6C 7S 8S", "KD 7H 8D 7D")
    v = judge(r, 1, 0)
    assert (v.proven, v.rule, str(v.proof_card)) == (True, MisplayRule.TRUMP, "7H")


def test_trumping_in_must_beat():
    # seat 2 trumps in with the 7 of trump over the 10 of trump, later plays the ace of trump
    r = rec("AS 10H 7H 8S", "QH KD 6D AH")
    # trick 1: seat 1 wins with the 10H and leads trick 2: QH (1), KD (2), 6D (3), AH (0)
    v = judge(r, 2, 0)
    assert not v.proven  # seat 2 played KD at trick 2, AH was played by seat 0
    r = rec("AS 10H 7H 8S", "QH AH 6D 8D")
    v = judge(r, 2, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.BEAT_TRUMP,
        "AH",
        1,
    )


def test_no_exemption_when_partner_is_winning():
    # seat 0 leads the 10 of trump; its partner, seat 2, plays the 7 while holding the ace
    r = rec("10H 6H 7H 8H", "AS 6S AH 7S")
    v = judge(r, 2, 0)
    assert v.proven
    assert v.rule is MisplayRule.BEAT_TRUMP


def test_no_duty_to_beat_a_plain_card():
    r = rec("AS 6S 7S 8S", "QD KS 8D 7D")
    v = judge(r, 1, 0)
    assert not v.proven
    assert v.rule is None
    assert "legal play" in v.reason


def test_under_trump_is_legal_when_only_lower_trumps():
    r = rec("AS 9H 6H 8S", "QD 7H 8D 7D")
    assert not judge(r, 2, 0).proven  # seat 2 held only 6H and 7H: lower than the 9


def test_not_proven_when_the_later_tricks_do_not_show_it():
    r = rec("AS 6C 7S 8S", "KD 9D 8D 7D")
    v = judge(r, 1, 0)
    assert not v.proven


def test_known_deal_is_evidence_even_if_the_card_was_not_played():
    hands = (
        "KH AS KD QD JD 10D 9D 8D 7D",
        "6H 9H 6C 7C 8C 9C 10C JC QC",
        "7H 7S 6D AD 10S JS QS KS AC",
        "8H 8S 9S 6S JH QH 10H AH KC",
    )
    stopped = rec("KH 6H 7H 8H", hands=hands)
    v = judge(stopped, 1, 0)
    assert v.proven
    assert (str(v.proof_card), v.proof_trick) == ("9H", None)
    assert "dealt to them" in v.reason
    # without the deal, the same stopped record proves nothing
    assert not judge(rec("KH 6H 7H 8H"), 1, 0).proven


def test_named_proof_card_must_prove_it():
    r = rec("KH 6H 7H 8H", "AS 9H 10S 6S", "JD 10D 6C QD")
    assert judge(r, 1, 0, proof="9H").proven
    v = judge(r, 1, 0, proof="10D")
    assert not v.proven
    assert "the 10 of diamonds does not prove" in v.reason
    assert "the 9 of hearts would have" in v.reason


def test_accused_did_not_play_that_trick():
    r = rec("KH 6H 7H 8H", "AS 9H")
    v = judge(r, 3, 1)
    assert not v.proven
    assert v.reason == "seat 3 did not play to trick 2"
    assert not judge(r, 0, 4).proven


def test_leader_cannot_misplay():
    assert not judge(rec("KH 6H 7H 8H", "AS 9H 10S 6S"), 0, 0).proven


def test_impossible_record_is_rejected_not_judged():
    with pytest.raises(ImpossibleRecord):
        judge(rec("KH 6H 7H 8H", "AS KH"), 1, 0)


def test_bad_accusation():
    with pytest.raises(InvalidEntry) as info:
        judge(rec("KH 6H 7H 8H"), 1, 9)
    assert info.value.field == "accusation.trick"
    with pytest.raises(InvalidEntry):
        judge(rec("KH 6H 7H 8H"), 4, 0)


def test_find_every_misplay_in_play_order():
    r = rec("AS 6C 7S 8S", "KH 6H 7H 8H", "KD 9S 9H 7D")
    found = find_misplays(r)
    assert [(v.accused, v.trick, v.rule) for v in found] == [
        (1, 0, MisplayRule.FOLLOW_SUIT),  # held the 9S (played at trick 3)
        (2, 1, MisplayRule.BEAT_TRUMP),  # held the 9H (played at trick 3)
    ]


def test_score_misplay_proven_gives_the_whole_hand_to_the_accusers():
    r = rec(
        "KH 6H 7H 8H",
        "AS 9H 10S 6S",
        runs=(RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.ACE),),
        bella_seat=2,
        trump=Suit.SPADES,
    )
    r = TrickRecord(r.dealer, r.caller, H, r.tricks, runs=r.runs)
    v = judge(r, 1, 0, called_by=2)
    res = score_misplay(STD, r, v)
    assert res.outcome is Outcome.MISPLAY_PROVEN
    assert res.points == (162 + 20, 0)
    assert (res.misplay_by, res.misplay_accused) == (2, 1)
    # not proven: the other team scores the whole hand
    v2 = judge(r, 1, 1, called_by=2)
    assert not v2.proven
    res2 = score_misplay(STD, r, v2)
    assert res2.outcome is Outcome.MISPLAY_NOT_PROVEN
    assert res2.points == (0, 182)


def test_score_misplay_from_a_call():
    r = rec("KH 6H 7H 8H", bella_seat=0)
    res = score_misplay(STD, r, MisplayCall(called_by=3, proven=True))
    assert res.points == (0, 182)
    with pytest.raises(InvalidEntry):
        score_misplay(STD, r, adjudicate(r, Accusation(accused=1, trick=0)))


def test_verdict_and_accusation_json():
    v = judge(rec("KH 6H 7H 8H", "AS 9H 10S 6S"), 1, 0)
    assert Verdict.from_json(v.to_json()) == v
    # a trick is its position in Python, its number (1 to 9) in the JSON people read and stored
    assert (v.trick, v.proof_trick) == (0, 1)
    assert (v.to_json()["trick"], v.to_json()["proof_trick"]) == (1, 2)
    a = Accusation(accused=1, trick=1, proof_card=parse_card("9H"), called_by=0)
    assert Accusation.from_json(a.to_json()) == a
    assert a.to_json()["trick"] == 2
    assert Accusation.from_json({"accused": 1, "trick": 9}).trick == 8
    with pytest.raises(InvalidEntry) as info:
        Accusation.from_json({"accused": 1, "trick": "two"})
    assert info.value.field == "trick"
    with pytest.raises(InvalidEntry) as info:
        Accusation.from_json({"accused": 1, "trick": 12})
    assert str(info.value) == "trick must be a trick number 1 to 9, not 12"
    with pytest.raises(InvalidEntry) as info:
        Verdict.from_json(v.to_json() | {"rule": "cheating"})
    assert (info.value.code, info.value.field) == ("bad_rule", "rule")
    assert '"follow_suit", "trump", "beat_trump"' in str(info.value)
    with pytest.raises(InvalidEntry) as info:
        Verdict.from_json(v.to_json() | {"rule": ["trump"]})
    assert (info.value.code, info.value.field) == ("bad_rule", "rule")


def test_a_misplay_is_called_on_an_opponent():
    r = rec("KH 6H 7H 8H", "AS 9H 10S 6S")
    assert judge(r, 1, 0, called_by=0).proven
    for by, words in ((3, "on seat 1: they are partners"), (1, "on themselves")):
        with pytest.raises(InvalidEntry) as info:
            judge(r, 1, 0, called_by=by)
        assert info.value.code == "accused_partner"
        assert info.value.field == "accusation.called_by"
        assert words in str(info.value)
    # who called it is not needed to judge
    assert adjudicate(r, Accusation(accused=1, trick=0)).proven


def test_a_named_proof_card_that_proves_nothing_is_explained():
    r = rec("KH 6H 7H 8H", "AS 9H 10S 6S", "JD 10D 6C QD")
    assert judge(r, 1, 0, proof="6H").reason == (
        "the 6 of hearts does not prove a misplay at trick 1: it is the card seat 1 played "
        "there; the 9 of hearts would have"
    )
    assert judge(r, 1, 0, proof="JH").reason == (
        "the jack of hearts does not prove a misplay at trick 1: seat 1 is not known to have "
        "held it at trick 1; the 9 of hearts would have"
    )
    assert judge(r, 3, 0, proof="6S").reason == (
        "seat 3 played the 8 of hearts at trick 1, a legal play as far as the later tricks show"
    )
    hands = (
        "KH AS KD QD JD 10D 9D 8D 7D",
        "6H 9H 6C 7C 8C 9C 10C JC QC",
        "7H 7S 6D AD 10S JS QS KS AC",
        "8H 8S 9S 6S JH QH 10H AH KC",
    )
    assert judge(rec("KH 6H 7H 8H", hands=hands), 2, 0).reason == (
        "seat 2 played the 7 of hearts at trick 1, a legal play as far as the deal shows"
    )


# Spades led, seat 1 plays the 6 of clubs; at trick 2 (KD led by seat 0) seat 1 plays the 9 of
# trump. Whether seat 1 held a spade decides which rule the 6 of clubs broke.
SPADE_LED = ("AS 6C 7S 8S", "KD 9H 8D 7D")


def test_a_void_in_the_suit_led_is_claimed_only_when_the_record_shows_it():
    v = judge(rec(*SPADE_LED), 1, 0)
    # a trump held proves the misplay either way: with a spade seat 1 had to follow suit,
    # without one they had to trump
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.TRUMP,
        "9H",
        1,
    )
    assert "void" not in v.reason
    assert v.reason == (
        "seat 1 played the 6 of clubs at trick 1 but did not trump (spades were led; the "
        "record does not show whether seat 1 held any, and with one they had to follow suit "
        "instead): seat 1 held the 9 of hearts, played at trick 2"
    )
    assert find_misplays(rec(*SPADE_LED))[0].reason == v.reason


def test_a_spade_played_later_makes_it_did_not_follow_suit():
    # trick 2 is won by seat 1's 9 of trump; seat 1 leads the 9 of spades to trick 3
    r = rec(*SPADE_LED, "9S 10D 6D JD")
    v = judge(r, 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.FOLLOW_SUIT,
        "9S",
        2,
    )
    assert v.reason == (
        "seat 1 played the 6 of clubs at trick 1 but did not follow suit (spades were led): "
        "seat 1 held the 9 of spades, played at trick 3"
    )
    assert judge(r, 1, 0, proof="9S") == v
    assert [(f.accused, f.trick, f.rule) for f in find_misplays(r)] == [
        (1, 0, MisplayRule.FOLLOW_SUIT)
    ]


def test_a_trump_played_later_proves_nothing_when_a_spade_was_played_later_too():
    # seat 1 plays the 9 of spades at trick 2 and the 9 of trump at trick 3
    r = rec("AS 6C 7S 8S", "KD 9S 8D 7D", "QD 9H 10D 6D")
    v = judge(r, 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.FOLLOW_SUIT,
        "9S",
        1,
    )
    named = judge(r, 1, 0, proof="9H")
    assert not named.proven
    assert named.rule is None
    assert named.reason == (
        "the 9 of hearts does not prove a misplay at trick 1: seat 1 held it, but it was not a "
        "card they had to play instead; the 9 of spades would have"
    )


def test_with_the_deal_known_the_rule_is_the_one_the_deal_shows():
    hands = [
        "AS KD 6D 9D 10D JD QD AD 6S",
        "6C 9H 10S 7C 8C 9C 10C JC QC",  # the 10 of spades is never played
        "7S 8D KC AC 6H 7H 8H 10H JH",
        "8S 7D QH KH AH 9S JS QS KS",
    ]
    v = judge(rec(*SPADE_LED, hands=tuple(hands)), 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.FOLLOW_SUIT,
        "10S",
        None,
    )
    assert v.reason == (
        "seat 1 played the 6 of clubs at trick 1 but did not follow suit (spades were led): "
        "seat 1 held the 10 of spades, dealt to them"
    )
    named = judge(rec(*SPADE_LED, hands=tuple(hands)), 1, 0, proof="9H")
    assert not named.proven
    assert "the 10 of spades would have" in named.reason
    # the same plays, seat 1 dealt no spade: now the deal shows the void
    hands[1] = hands[1].replace("10S", "6H")
    hands[2] = hands[2].replace("6H", "10S")
    v = judge(rec(*SPADE_LED, hands=tuple(hands)), 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.TRUMP,
        "9H",
        1,
    )
    assert v.reason == (
        "seat 1 played the 6 of clubs at trick 1 but did not trump (void in spades): seat 1 "
        "held the 9 of hearts, played at trick 2"
    )


def test_a_void_is_shown_when_every_card_of_the_suit_led_went_to_others():
    # all nine spades are played by seats 0, 2 and 3: seat 1 cannot have held one
    r = rec("AS 6C 7S 8S", "KS 9H 9S 10S", "7H 6S JS QS")
    v = judge(r, 1, 0)
    assert (v.proven, v.rule, str(v.proof_card), v.proof_trick) == (
        True,
        MisplayRule.TRUMP,
        "9H",
        1,
    )
    assert "did not trump (void in spades)" in v.reason


def test_judging_needs_no_caller_but_scoring_does():
    """A record whose caller was not noted is judged as any other; scoring it still needs the
    caller (with none, every player passed and no card was played)."""
    r = rec("KH 6H 7H 8H", "AS 9H 10S 6S")
    unnoted = TrickRecord(r.dealer, None, r.trump, r.tricks)
    assert adjudicate(unnoted, Accusation(accused=1, trick=0)) == adjudicate(
        r, Accusation(accused=1, trick=0)
    )
    assert find_misplays(unnoted) == find_misplays(r)
    with pytest.raises(ImpossibleRecord, match="no caller"):
        score_tricks(STD, unnoted)
