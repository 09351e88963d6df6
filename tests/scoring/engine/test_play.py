"""Legal plays, the reason a card is illegal, and trick winners."""

import pytest

from scoring.engine import (
    MisplayRule,
    Suit,
    broken_rule,
    legal_plays,
    parse_card,
    parse_cards,
    trick_winner,
    why_illegal_play,
)

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS


def legal(hand: str, trick: str, trump: Suit | None) -> list[str]:
    return [str(c) for c in legal_plays(parse_cards(hand), parse_cards(trick), trump)]


def test_leading_any_card():
    assert legal("6S 9H AD", "", H) == ["6S", "9H", "AD"]


def test_must_follow_suit_without_beating_a_plain_card():
    # no duty to beat a plain-suit card: any spade will do
    assert legal("6S QS 9H AD", "AS", H) == ["6S", "QS"]


def test_must_follow_suit_even_when_an_opponent_trumped():
    # seed 002: "Follow suit ... even if an opponent has already played trump on the trick"
    assert legal("6S JH AD", "AS 7H", H) == ["6S"]


def test_void_in_suit_must_trump():
    assert legal("JH 6H AD", "AS", H) == ["JH", "6H"]


def test_trumping_in_must_beat_trumps_on_the_trick():
    assert legal("JH 6H AD", "AS 9H", H) == ["JH"]


def test_under_trump_when_only_lower_trumps():
    # void in the suit led, holding only lower trumps: still must play one
    assert legal("7H 6H AD", "AS 9H", H) == ["7H", "6H"]


def test_trump_led_must_beat_when_possible():
    # seed example: king of trump led, second player holding the 9 must play to beat
    assert legal("6H 9H AD", "KH", H) == ["9H"]
    assert legal("6H 7H AD", "KH", H) == ["6H", "7H"]  # cannot beat: any trump


def test_no_exemption_when_partner_is_winning():
    # partner (first card) leads the jack of trump, second player trumps low... third player
    # follows and must still beat the best trump if able.
    assert legal("AH 6H", "KH 6S 10H", H) == ["AH"]  # 10H best so far, AH beats it
    # partner's jack wins already and nothing beats it: any trump
    assert legal("AH 6H", "JH 7H", H) == ["AH", "6H"]


def test_no_trumps_no_suit_any_card():
    assert legal("6S 7C AD", "AH", H) == ["6S", "7C", "AD"]


def test_no_trump_hand_only_follow_suit():
    assert legal("6S 7C AD", "AH", None) == ["6S", "7C", "AD"]
    assert legal("6S 7C AD", "KD", None) == ["AD"]


# KenMacD/tarabish server/src/rules.erl in_suit_test_, re-expressed: (card, led, trump,
# legal?) for the hand 6S 7S 8S 9S 6C 7C 8C 9C 6D.
KEN_HAND = "6S 7S 8S 9S 6C 7C 8C 9C 6D"


@pytest.mark.parametrize(
    ("card", "trick", "trump", "ok"),
    [
        ("6S", "AS", D, True),  # follow suit
        ("6C", "AS", D, False),
        ("6D", "AH", D, True),  # or trump
        ("6S", "AH", D, False),
        ("6S", "10S", S, False),  # but beat the trump (10) when you can (9)
        ("9S", "10S", S, True),
        ("6S", "AH", H, True),  # no good cards: anything you hold
        ("9S", "AH", H, True),
        ("9C", "AH", H, True),
        ("6D", "AH", H, True),
        ("6H", "AH", H, False),  # not held
        ("JH", "AH", H, False),
    ],
)
def test_kenmacd_valid_play(card, trick, trump, ok):
    hand = parse_cards(KEN_HAND)
    c = parse_card(card)
    assert (c in legal_plays(hand, parse_cards(trick), trump)) is ok
    assert (why_illegal_play(c, hand, parse_cards(trick), trump) is None) is ok


def test_why_illegal_in_plain_words():
    hand = parse_cards("6S 9H AD")
    assert why_illegal_play(parse_card("AD"), hand, parse_cards("KS"), H) == (
        "the ace of diamonds does not follow suit: spades were led and the hand holds the 6 of "
        "spades"
    )
    assert why_illegal_play(parse_card("AD"), parse_cards("9H AD"), parse_cards("KS"), H) == (
        "the ace of diamonds is not a trump: the hand holds no spades but the 9 of hearts, a trump"
    )
    assert why_illegal_play(parse_card("7H"), parse_cards("7H 9H"), parse_cards("KH"), H) == (
        "the 7 of hearts does not beat the king of hearts on the trick: the 9 of hearts does"
    )
    assert (
        why_illegal_play(parse_card("JH"), hand, (), H) == "the jack of hearts is not in the hand"
    )


def test_broken_rule():
    assert broken_rule(parse_card("AD"), parse_cards("6S AD"), parse_cards("KS"), H) == (
        MisplayRule.FOLLOW_SUIT,
        parse_cards("6S"),
    )
    assert broken_rule(parse_card("AD"), parse_cards("6H AD"), parse_cards("KS"), H)[0] is (
        MisplayRule.TRUMP
    )
    assert broken_rule(parse_card("7H"), parse_cards("7H JH"), parse_cards("KS 9H"), H)[0] is (
        MisplayRule.BEAT_TRUMP
    )
    assert broken_rule(parse_card("6S"), parse_cards("6S AS"), parse_cards("KS"), H) == (None, ())


@pytest.mark.parametrize(
    ("trump", "cards", "leader", "winner"),
    [
        (H, "KS AS 10S QS", 0, 1),  # highest of the suit led
        (H, "KS AS 6H QS", 0, 2),  # a trump wins
        (H, "KS 6H 7H 9H", 1, 0),  # the highest trump (9) wins; leader 1 -> seat 0
        (H, "JH 9H AH 10H", 2, 2),  # jack of trump is highest
        (H, "9S AD AC AH", 0, 3),  # the ace of trump wins
        (C, "9S AD AH 10S", 3, 2),  # off-suit aces do not win; the 10S (seat 2) beats the 9S
        (None, "KD AD 6C AS", 0, 1),  # no trump: highest of the suit led
    ],
)
def test_trick_winner(trump, cards, leader, winner):
    assert trick_winner(parse_cards(cards), trump, leader=leader) == winner
