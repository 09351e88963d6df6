"""Shuffling, cutting, dealing in packets of three, first dealer."""

import random

import pytest

from scoring.engine import (
    DECK,
    Deal,
    FirstDealer,
    InvalidEntry,
    Rank,
    Ruleset,
    choose_first_dealer,
    cut,
    deal,
    flip_for_jacks,
    high_card_draw,
    parse_cards,
    shuffled_deck,
)
from scoring.engine.cards import trump_strength


def test_shuffle_is_reproducible_from_a_seed():
    assert shuffled_deck(42) == shuffled_deck(42)
    assert shuffled_deck(42) != shuffled_deck(43)
    assert sorted(shuffled_deck(1)) == list(DECK)


@pytest.mark.parametrize("at", [4, 10, 32])
def test_cut_keeps_at_least_four_cards_each_part(at):
    deck = shuffled_deck(3)
    out = cut(deck, at)
    assert out == deck[at:] + deck[:at]


@pytest.mark.parametrize("at", [0, 3, 33, 36])
def test_cut_too_close_to_an_end_is_an_error(at):
    with pytest.raises(InvalidEntry) as info:
        cut(DECK, at)
    assert info.value.field == "cut"


def test_deal_in_packets_of_three_from_dealers_left():
    d = deal(DECK, dealer=1)
    # seat 2 (left of dealer 1) gets packets 0, 4, 8: cards 0-2, 12-14, 24-26
    assert d.hands[2] == DECK[0:3] + DECK[12:15] + DECK[24:27]
    assert d.hands[1] == DECK[9:12] + DECK[21:24] + DECK[33:36]
    assert d.seen(2) == DECK[0:3] + DECK[12:15]
    assert d.kitty(2) == DECK[24:27]
    assert Deal.from_json(d.to_json()) == d


def test_deal_rejects_bad_decks():
    with pytest.raises(InvalidEntry):
        deal(DECK[:35], 0)
    with pytest.raises(InvalidEntry) as info:
        deal(DECK[:35] + DECK[:1], 0)
    assert info.value.field == "deck.35"
    with pytest.raises(InvalidEntry):
        Deal((DECK[:9], DECK[9:18], DECK[18:27], DECK[18:27]))


def test_flip_for_jacks_first_jack_deals():
    deck = parse_cards("6H 7H 8H 9H 10H AS JC JD")
    fd = flip_for_jacks(random.Random(0), deck=deck + tuple(c for c in DECK if c not in deck))
    assert fd.dealer == 2  # 8 cards: seats 0 1 2 3 0 1 2 3 -> JC is the 7th card, seat 2
    assert [s for s, _ in fd.flips] == [0, 1, 2, 3, 0, 1, 2]
    assert fd.flips[-1][1].rank is Rank.JACK


def test_flip_for_jacks_random():
    for seed in range(20):
        fd = flip_for_jacks(random.Random(seed))
        assert fd.flips[-1][0] == fd.dealer
        assert [c.rank for _, c in fd.flips].count(Rank.JACK) == 1


def test_high_card_draw_highest_in_trump_order_ties_cut_again():
    for seed in range(40):
        fd = high_card_draw(random.Random(seed))
        last_round = fd.flips[-4:] if len(fd.flips) == 4 else None
        if last_round:
            best = max(trump_strength(c.rank) for _, c in last_round)
            assert [s for s, c in last_round if trump_strength(c.rank) == best] == [fd.dealer]
    # some seed produces a tie and a second cut
    assert any(len(high_card_draw(random.Random(s)).flips) > 4 for s in range(200))


# KenMacD/tarabish deck.erl high_card_test: J beats 9 A 10; equal jacks tie.
def test_kenmacd_high_card_order():
    def winners(ranks: list[Rank]) -> list[int]:
        vals = [trump_strength(r) for r in ranks]
        return [i for i, v in enumerate(vals) if v == max(vals)]

    j, n, a, t = Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN
    assert winners([j, n, a, t]) == [0]
    assert winners([j, j, n, a]) == [0, 1]
    assert winners([n, j, n, j]) == [1, 3]


def test_choose_first_dealer_follows_the_ruleset():
    r1 = choose_first_dealer(Ruleset(), random.Random(5))
    assert r1.flips[-1][1].rank is Rank.JACK
    r2 = choose_first_dealer(Ruleset(first_dealer="high_card"), random.Random(5))
    assert len(r2.flips) >= 4


@pytest.mark.parametrize("flips", [5, [[0]], [["JH", 0, 1]], "JH"])
def test_a_first_dealer_draw_with_unreadable_flips_names_them(flips: object) -> None:
    with pytest.raises(InvalidEntry) as info:
        FirstDealer.from_json({"dealer": 0, "flips": flips})
    assert info.value.field == "flips"


def test_a_first_dealer_draw_reads_back_what_it_wrote() -> None:
    draw = flip_for_jacks(random.Random(3))
    assert FirstDealer.from_json(draw.to_json()) == draw
