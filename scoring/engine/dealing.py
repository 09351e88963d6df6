"""Shuffling, cutting and dealing, and choosing the first dealer.

The dealer deals packets of three, clockwise from the player on their left, until all 36
cards are out: each player's first two packets (6 cards) are seen at once, the third packet
is the kitty, face down until trump is named.

>>> d = deal(DECK, dealer=3)
>>> format_cards(d.hands[0])
'6C 7C 8C 9D 10D JD QH KH AH'
>>> format_cards(d.kitty(0)), format_cards(d.seen(1)[:3])
('QH KH AH', '9C 10C JC')
>>> cut(DECK, 3)
Traceback (most recent call last):
...
scoring.engine.errors.InvalidEntry: a cut must leave at least 4 cards in each part: cut after card 4 to 32, not 3
"""  # noqa: E501

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from scoring.engine import _bits, _parse
from scoring.engine.cards import (
    DECK,
    SEATS,
    Card,
    Rank,
    format_cards,
    left_of,
    parse_cards,  # noqa: F401  (used by the doctests)
    trump_strength,
)
from scoring.engine.errors import InvalidEntry
from scoring.engine.ruleset import Ruleset

__all__ = [
    "Deal",
    "FirstDealer",
    "check_deck",
    "choose_first_dealer",
    "cut",
    "deal",
    "flip_for_jacks",
    "high_card_draw",
    "shuffled_deck",
]


def check_deck(cards: Sequence[Card], field: str = "deck") -> tuple[Card, ...]:
    """An explicit deck order: exactly the 36 cards, each once."""
    cards = tuple(cards)
    if len(cards) == 36:
        bit = _bits.BIT
        m = 0
        for c in cards:
            if not isinstance(c, Card):
                break
            m |= bit[c.index]
        if m == _bits.ALL:
            return cards
    if len(cards) != 36:
        raise InvalidEntry(f"a deck has 36 cards, not {len(cards)}", code="bad_deck", field=field)
    seen: set[Card] = set()
    for i, c in enumerate(cards):
        if c in seen:
            raise InvalidEntry(
                f"the {c.label} is in the deck twice", code="bad_deck", field=f"{field}.{i}"
            )
        seen.add(c)
    return cards


def shuffled_deck(rng: random.Random | int) -> tuple[Card, ...]:
    """The deck shuffled by ``rng`` (a :class:`random.Random`, or a seed for a new one).

    >>> shuffled_deck(7) == shuffled_deck(random.Random(7))
    True
    >>> sorted(shuffled_deck(7)) == list(DECK)
    True
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)  # noqa: S311 - card games, not secrets
    order = list(DECK)
    if type(rng) is random.Random and _FISHER_YATES_IS_STDLIB:
        _fisher_yates(order, rng.getrandbits)
    else:
        rng.shuffle(order)
    return tuple(order)


_BIT_LENGTH = tuple(n.bit_length() for n in range(37))


def _fisher_yates(order: list[Card], getrandbits: Callable[[int], int]) -> None:
    """Shuffle in place by the steps and draws of :meth:`random.Random.shuffle` (so the same
    deck for the same seed), without a Python call for every card."""
    for i in range(len(order) - 1, 0, -1):
        k = _BIT_LENGTH[i + 1]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]


def _same_as_stdlib() -> bool:
    """Whether :func:`_fisher_yates` shuffles as this Python's :mod:`random` does."""
    for seed in range(8):
        ours, theirs = list(DECK), list(DECK)
        _fisher_yates(ours, random.Random(seed).getrandbits)  # noqa: S311
        random.Random(seed).shuffle(theirs)  # noqa: S311
        if ours != theirs:
            return False
    return True


_FISHER_YATES_IS_STDLIB = _same_as_stdlib()


def cut(deck: Sequence[Card], at: int) -> tuple[Card, ...]:
    """Cut after card ``at``: the bottom part goes on top. Each part keeps at least 4 cards.

    >>> format_cards(cut(DECK, 32)[:4])
    'JS QS KS AS'
    """
    if not _parse.is_int(at) or not 4 <= at <= len(deck) - 4:
        raise InvalidEntry(
            f"a cut must leave at least 4 cards in each part: cut after card 4 to "
            f"{len(deck) - 4}, not {at}",
            code="bad_cut",
            field="cut",
        )
    return tuple(deck[at:]) + tuple(deck[:at])


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands as dealt, per seat: six seen cards then the three-card kitty."""

    hands: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        if len(self.hands) != 4 or any(len(h) != 9 for h in self.hands):
            raise InvalidEntry("a deal is four hands of nine cards", code="bad_deal", field="deal")
        check_deck([c for h in self.hands for c in h], "deal")

    def seen(self, seat: int) -> tuple[Card, ...]:
        """The six cards a player sees at once."""
        return self.hands[seat][:6]

    def kitty(self, seat: int) -> tuple[Card, ...]:
        """The player's three face-down cards."""
        return self.hands[seat][6:]

    def holder(self, card: Card) -> int:
        """The seat dealt this card."""
        for seat, h in enumerate(self.hands):
            if card in h:
                return seat
        raise AssertionError(card)  # pragma: no cover - every card is dealt

    def to_json(self) -> list[list[str]]:
        return [[str(c) for c in h] for h in self.hands]

    @classmethod
    def from_json(cls, data: Any, field: str = "deal") -> Deal:
        if not isinstance(data, list | tuple) or len(data) != 4:
            raise InvalidEntry("a deal is four hands of nine cards", code="bad_deal", field=field)
        return cls(tuple(_parse.cards(h, f"{field}.{i}") for i, h in enumerate(data)))

    def __str__(self) -> str:
        return " / ".join(format_cards(h) for h in self.hands)


def deal(deck: Sequence[Card], dealer: int) -> Deal:
    """Deal a deck (top card first) in packets of three from the dealer's left.

    >>> d = deal(shuffled_deck(5), dealer=0)
    >>> [len(h) for h in d.hands], len(d.kitty(1))
    ([9, 9, 9, 9], 3)
    """
    deck = check_deck(deck)
    _parse.seat(dealer, "dealer")
    g0, g1, g2, g3 = DEALT_AT[dealer]
    hands = (g0(deck), g1(deck), g2(deck), g3(deck))
    # The deck was checked: the deal is the same 36 cards, so it is not checked again.
    checked = object.__new__(Deal)
    object.__setattr__(checked, "hands", hands)
    return checked


def _packets(first: int) -> itemgetter[tuple[Any, ...]]:
    """The positions in a deck of packets ``first``, ``first + 4`` and ``first + 8`` (three
    cards each): the cards of the seat dealt them, in the order dealt."""
    b = 3 * first
    return itemgetter(*range(b, b + 3), *range(b + 12, b + 15), *range(b + 24, b + 27))


#: ``DEALT_AT[dealer][seat]``: the positions in the deck of the cards dealt to ``seat`` (its
#: first packet is ``(seat - dealer - 1) % 4``), read from a deck or a deck's card indices.
DEALT_AT = tuple(tuple(_packets((seat - dealer - 1) % 4) for seat in SEATS) for dealer in SEATS)


@dataclass(frozen=True, slots=True)
class FirstDealer:
    """Who deals the first hand, and the cards turned over to decide it."""

    dealer: int
    flips: tuple[tuple[int, Card], ...]

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "flips": [[s, str(c)] for s, c in self.flips]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FirstDealer:
        d = _parse.obj(data, "a first-dealer draw")
        raw = d.get("flips", ())
        if not isinstance(raw, list | tuple) or not all(
            isinstance(f, list | tuple) and len(f) == 2 for f in raw
        ):
            raise InvalidEntry(
                "flips must be a list of [seat, card] pairs", code="bad_json", field="flips"
            )
        flips = tuple(
            (_parse.seat(s, f"flips.{i}.0"), _parse.card(c, f"flips.{i}.1"))
            for i, (s, c) in enumerate(raw)
        )
        return cls(_parse.seat(d.get("dealer"), "dealer"), flips)


def flip_for_jacks(
    rng: random.Random, deck: Sequence[Card] | None = None, start: int = 0
) -> FirstDealer:
    """Deal face up one card at a time clockwise from ``start``; the first jack deals.

    >>> fd = flip_for_jacks(random.Random(1), deck=parse_cards("6H 7H AS JC") + DECK)
    >>> fd.dealer, [(s, str(c)) for s, c in fd.flips]
    (3, [(0, '6H'), (1, '7H'), (2, 'AS'), (3, 'JC')])
    """
    cards = tuple(deck) if deck is not None else shuffled_deck(rng)
    flips: list[tuple[int, Card]] = []
    seat = start
    for c in cards:
        flips.append((seat, c))
        if c.rank is Rank.JACK:
            return FirstDealer(seat, tuple(flips))
        seat = left_of(seat)
    raise InvalidEntry("there is no jack in those cards", code="bad_deck", field="deck")


def high_card_draw(rng: random.Random) -> FirstDealer:
    """Each player cuts a card; the highest in trump order (J 9 A 10 K Q 8 7 6) deals.

    Players who tie for highest cut again from a fresh deck.

    >>> high_card_draw(random.Random(3)).dealer in SEATS
    True
    """
    players = list(SEATS)
    flips: list[tuple[int, Card]] = []
    while True:
        deck = shuffled_deck(rng)
        drawn = list(zip(players, deck, strict=False))
        flips.extend(drawn)
        best = max(trump_strength(c.rank) for _, c in drawn)
        players = [s for s, c in drawn if trump_strength(c.rank) == best]
        if len(players) == 1:
            return FirstDealer(players[0], tuple(flips))


def choose_first_dealer(ruleset: Ruleset, rng: random.Random) -> FirstDealer:
    """The first dealer by the ruleset's ``first_dealer`` rule.

    >>> fd = choose_first_dealer(Ruleset(first_dealer="high_card"), random.Random(8))
    >>> fd.dealer in SEATS
    True
    """
    if ruleset.first_dealer == "high_card":
        return high_card_draw(rng)
    return flip_for_jacks(rng)
