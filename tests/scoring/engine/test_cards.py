"""Cards, ranks, points and seats."""

import pytest

from scoring.engine import (
    DECK,
    Card,
    InvalidEntry,
    Rank,
    Suit,
    card_points,
    format_cards,
    left_of,
    parse_card,
    parse_cards,
    partner_of,
    team_of,
)
from scoring.engine.cards import plain_strength, trump_strength


def test_deck_has_36_distinct_cards_6_to_ace_in_four_suits():
    assert len(DECK) == 36
    assert len(set(DECK)) == 36
    assert {c.rank for c in DECK} == set(Rank)
    assert [DECK[c.index] for c in DECK] == list(DECK)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10♥", "10H"),
        ("J♠", "JS"),
        ("q♦", "QD"),
        ("A♣", "AC"),
        ("6c", "6C"),
        (" KD ", "KD"),
    ],
)
def test_parse_accepts_t_and_symbols_and_prints_canonical(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["5H", "1H", "10X", "", "H10", "JJ", "11H", "10", 7])
def test_parse_rejects_non_cards_naming_the_field(text):
    with pytest.raises(InvalidEntry) as info:
        parse_card(text, field="tricks.1.0")
    assert info.value.code == "bad_card"
    assert info.value.field == "tricks.1.0"


def test_parse_cards_list_and_string():
    assert format_cards(parse_cards("JH, 9H  AH")) == "JH 9H AH"
    assert parse_cards(["JH", "9H"]) == (Card(Rank.JACK, Suit.HEARTS), Card(Rank.NINE, Suit.HEARTS))
    with pytest.raises(InvalidEntry) as info:
        parse_cards(["JH", "ZZ"], field="hand")
    assert info.value.field == "hand.1"


def test_card_is_ordered_hashable_and_immutable():
    a, b = parse_card("AC"), parse_card("6D")
    assert a < b
    assert b > a
    assert a <= b
    assert b >= a
    assert {a, Card(Rank.ACE, Suit.CLUBS)} == {a}
    with pytest.raises(AttributeError):
        a.rank = Rank.SIX  # type: ignore[misc]


def test_suit_letters_and_symbols():
    assert [s.value for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [r.text for r in Rank] == ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_trump_order_and_points_table():
    # RULES.md table: trump J 9 A 10 K Q 8 7 6 scoring 20 14 11 10 4 3 0 0 0
    order = sorted(Rank, key=trump_strength, reverse=True)
    assert [r.text for r in order] == ["J", "9", "A", "10", "K", "Q", "8", "7", "6"]
    pts = [card_points(Card(r, Suit.SPADES), Suit.SPADES) for r in order]
    assert pts == [20, 14, 11, 10, 4, 3, 0, 0, 0]


def test_plain_order_and_points_table():
    order = sorted(Rank, key=plain_strength, reverse=True)
    assert [r.text for r in order] == ["A", "10", "K", "Q", "J", "9", "8", "7", "6"]
    pts = [card_points(Card(r, Suit.SPADES), Suit.HEARTS) for r in order]
    assert pts == [11, 10, 4, 3, 2, 0, 0, 0, 0]


def test_162_card_points_per_hand_and_130_with_no_trump():
    for trump in Suit:
        assert sum(card_points(c, trump) for c in DECK if c.suit is trump) == 62
        assert sum(card_points(c, trump) for c in DECK if c.suit is not trump) == 90
        assert sum(card_points(c, trump) for c in DECK) + 10 == 162
    assert sum(card_points(c, None) for c in DECK) + 10 == 130


# Test vectors from KenMacD/tarabish server/src/deck.erl (scorer_test_, score_cards_test_),
# re-expressed with our card type.
@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("JC", 20),
        ("JS", 2),
        ("9C", 14),
        ("9D", 0),
        ("AC", 11),
        ("AH", 11),
        ("10C", 10),
        ("10D", 10),
        ("KC", 4),
        ("QC", 3),
        ("8C", 0),
        ("7H", 0),
        ("6D", 0),
    ],
)
def test_kenmacd_scorer_with_clubs_trump(card, points):
    assert card_points(parse_card(card), Suit.CLUBS) == points


@pytest.mark.parametrize(
    ("trump", "total"),
    [
        (Suit.CLUBS, 20 + 14 + 2),
        (Suit.HEARTS, 14 + 2 + 2),
        (Suit.SPADES, 20 + 2),
        (Suit.DIAMONDS, 2 + 2),
    ],
)
def test_kenmacd_score_cards(trump, total):
    hand = parse_cards("JC 9C JS 9H")
    assert sum(card_points(c, trump) for c in hand) == total


# KenMacD/tarabish deck.erl high_trump_test_ and high_nontrump_test_.
@pytest.mark.parametrize(
    ("higher", "lower"), [("J", "8"), ("J", "9"), ("9", "A"), ("A", "10"), ("10", "K"), ("8", "7")]
)
def test_kenmacd_trump_higher(higher, lower):
    h, low = parse_card(higher + "H").rank, parse_card(lower + "H").rank
    assert trump_strength(h) > trump_strength(low)
    assert not trump_strength(low) > trump_strength(h)


@pytest.mark.parametrize(("higher", "lower"), [("A", "10"), ("10", "K"), ("K", "J"), ("9", "8")])
def test_kenmacd_nontrump_higher(higher, lower):
    assert plain_strength(parse_card(higher + "S").rank) > plain_strength(
        parse_card(lower + "S").rank
    )


def test_seats():
    assert [left_of(s) for s in range(4)] == [1, 2, 3, 0]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
