"""Cards, suits, ranks, the 36-card deck, card points and seats.

A card's text form is its rank then its suit letter: ``6H 7H 8H 9H 10H JH QH KH AH``.
Parsers also accept ``T`` for ten and the suit symbols; output is always canonical.

>>> parse_card("T♥")
Card(rank=Rank.TEN, suit=Suit.HEARTS)
>>> str(parse_card("jd"))
'JD'
>>> format_cards(parse_cards("JH 9H AH"))
'JH 9H AH'
>>> card_points(parse_card("JH"), Suit.HEARTS), card_points(parse_card("JH"), Suit.SPADES)
(20, 2)
>>> sum(card_points(c, Suit.CLUBS) for c in DECK), sum(card_points(c, None) for c in DECK)
(152, 120)

Seats are numbered 0..3 clockwise; partners sit opposite, so the team of a seat is ``seat % 2``.

>>> left_of(3), partner_of(1), team_of(2)
(0, 3, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.errors import InvalidEntry

__all__ = [
    "DECK",
    "SEATS",
    "Card",
    "Rank",
    "Suit",
    "card_points",
    "format_cards",
    "left_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "partner_of",
    "plain_strength",
    "team_of",
    "trump_strength",
]

SEATS: tuple[int, int, int, int] = (0, 1, 2, 3)


class Suit(enum.Enum):
    """The four suits; ``.value`` is the suit letter used in every text form."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    #: 0..3 in the order clubs, diamonds, hearts, spades (a plain attribute: the rules read
    #: it for every card).
    index: int

    def __init__(self, letter: str) -> None:
        self.index = "CDHS".index(letter)

    @property
    def symbol(self) -> str:
        """The suit symbol, e.g. ``♥``."""
        return _SYMBOLS[self]

    @property
    def label(self) -> str:
        """Plain word: ``"hearts"``."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS: tuple[Suit, ...] = tuple(Suit)


class Rank(enum.IntEnum):
    """Ranks in their natural order (the order of runs): 6 7 8 9 10 J Q K A."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def text(self) -> str:
        """``"6"`` .. ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return _RANK_TEXT[self]

    @property
    def label(self) -> str:
        """Plain word: ``"king"``, ``"10"``."""
        return self.name.lower() if self >= Rank.JACK else str(int(self))

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_TEXT = {r: (str(int(r)) if r <= Rank.TEN else r.name[0]) for r in Rank}

#: Strength in the trump suit, high to low J 9 A 10 K Q 8 7 6 (8 = jack .. 0 = six).
_TRUMP_STRENGTH = {
    Rank.JACK: 8,
    Rank.NINE: 7,
    Rank.ACE: 6,
    Rank.TEN: 5,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.EIGHT: 2,
    Rank.SEVEN: 1,
    Rank.SIX: 0,
}
#: Strength in a plain suit, high to low A 10 K Q J 9 8 7 6.
_PLAIN_STRENGTH = {
    Rank.ACE: 8,
    Rank.TEN: 7,
    Rank.KING: 6,
    Rank.QUEEN: 5,
    Rank.JACK: 4,
    Rank.NINE: 3,
    Rank.EIGHT: 2,
    Rank.SEVEN: 1,
    Rank.SIX: 0,
}
_TRUMP_POINTS = {
    Rank.JACK: 20,
    Rank.NINE: 14,
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
}
_PLAIN_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}


def trump_strength(rank: Rank) -> int:
    """Strength of a rank in the trump suit: jack 8, nine 7, ace 6, ... six 0.

    >>> [r.text for r in sorted(Rank, key=trump_strength, reverse=True)]
    ['J', '9', 'A', '10', 'K', 'Q', '8', '7', '6']
    """
    return _TRUMP_STRENGTH[rank]


def plain_strength(rank: Rank) -> int:
    """Strength of a rank in a plain suit: ace 8, ten 7, king 6, ... six 0.

    >>> [r.text for r in sorted(Rank, key=plain_strength, reverse=True)]
    ['A', '10', 'K', 'Q', 'J', '9', '8', '7', '6']
    """
    return _PLAIN_STRENGTH[rank]


#: The one card of each index, made when first asked for (see :class:`Card`).
_CARDS: list[Card | None] = [None] * 36


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """One card. Ordered by suit (clubs, diamonds, hearts, spades) then natural rank.

    There is one card of each rank and suit: ``Card(rank, suit)`` answers the card of
    :data:`DECK`, so equal cards are the same object, and comparing them or finding one in a
    list runs no Python code.

    >>> Card(Rank.KING, Suit.SPADES) == parse_card("KS"), Card(Rank.KING, Suit.SPADES) is DECK[34]
    (True, True)
    >>> sorted(parse_cards("AS 6C 10H"))
    [Card(rank=Rank.SIX, suit=Suit.CLUBS), Card(rank=Rank.TEN, suit=Suit.HEARTS), Card(rank=Rank.ACE, suit=Suit.SPADES)]
    """  # noqa: E501

    rank: Rank
    suit: Suit
    #: 0..35: suit index * 9 + (rank - 6); the position in :data:`DECK`.
    index: int = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise InvalidEntry(
                f"a card needs a rank and a suit, not {rank!r} and {suit!r}",
                code="bad_card",
            )
        index = suit.index * 9 + int(rank) - 6
        card = _CARDS[index]
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "index", index)
            _CARDS[index] = card
        return card

    def __str__(self) -> str:
        letter: str = self.suit.value
        return _RANK_TEXT[self.rank] + letter

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    @property
    def text(self) -> str:
        """The canonical text form, same as ``str(card)``."""
        return str(self)

    @property
    def label(self) -> str:
        """Plain words: ``"king of hearts"``."""
        return _LABELS[self.index]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))


#: The 36 cards, clubs 6..A, diamonds 6..A, hearts 6..A, spades 6..A (``DECK[c.index] == c``).
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)

_LABELS: tuple[str, ...] = tuple(f"{c.rank.label} of {c.suit.label}" for c in DECK)
_RANK_WORDS = {r.text: r for r in Rank} | {"T": Rank.TEN}
_SUIT_WORDS = (
    {s.value: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {
        "\u2663\ufe0f": Suit.CLUBS,
        "\u2666\ufe0f": Suit.DIAMONDS,
        "\u2665\ufe0f": Suit.HEARTS,
        "\u2660\ufe0f": Suit.SPADES,
        "\u2661": Suit.HEARTS,
        "\u2662": Suit.DIAMONDS,
        "\u2664": Suit.SPADES,
        "\u2667": Suit.CLUBS,
    }
)
_PARSED: dict[str, Card] = {}


def parse_suit(text: str, *, field: str | None = None) -> Suit:
    """Read a suit letter or symbol.

    >>> parse_suit("h"), parse_suit("♠")
    (Suit.HEARTS, Suit.SPADES)
    """
    suit = _SUIT_WORDS.get(text.strip().upper()) if isinstance(text, str) else None
    if suit is None:
        raise InvalidEntry(
            f"{text!r} is not a suit: use C, D, H or S", code="bad_suit", field=field
        )
    return suit


def parse_card(text: str, *, field: str | None = None) -> Card:
    """Read one card: ``"10H"``, ``"TH"``, ``"10♥"``, ``"qs"``.

    >>> parse_card("10♦"), parse_card("as")
    (Card(rank=Rank.TEN, suit=Suit.DIAMONDS), Card(rank=Rank.ACE, suit=Suit.SPADES))
    >>> parse_card("5H")
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: '5H' is not a card: a card is a rank 6 7 8 9 10 J Q K A then a suit C D H S, like 10H or JS
    """  # noqa: E501
    if isinstance(text, Card):
        return text
    card = _PARSED.get(text) if isinstance(text, str) else None
    if card is not None:
        return card
    if isinstance(text, str):
        cleaned = text.strip().upper()
        for cut in (len(cleaned) - 2, len(cleaned) - 1):
            if cut < 1:
                continue
            rank = _RANK_WORDS.get(cleaned[:cut])
            suit = _SUIT_WORDS.get(cleaned[cut:])
            if rank is not None and suit is not None:
                return DECK[suit.index * 9 + int(rank) - 6]
    raise InvalidEntry(
        f"{text!r} is not a card: a card is a rank 6 7 8 9 10 J Q K A then a suit C D H S,"
        " like 10H or JS",
        code="bad_card",
        field=field,
    )


for _card in DECK:
    _PARSED[str(_card)] = _card


def parse_cards(text: str | Iterable[str | Card], *, field: str | None = None) -> tuple[Card, ...]:
    """Read several cards separated by spaces or commas (or given as a list of texts).

    >>> parse_cards("JH, 9H AH")
    (Card(rank=Rank.JACK, suit=Suit.HEARTS), Card(rank=Rank.NINE, suit=Suit.HEARTS), Card(rank=Rank.ACE, suit=Suit.HEARTS))
    """  # noqa: E501
    parts: Iterable[str | Card]
    parts = text.replace(",", " ").split() if isinstance(text, str) else text
    out: list[Card] = []
    for i, part in enumerate(parts):
        sub = None if field is None else f"{field}.{i}"
        out.append(part if isinstance(part, Card) else parse_card(part, field=sub))
    return tuple(out)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text separated by single spaces.

    >>> format_cards(parse_cards("th js"))
    '10H JS'
    """
    return " ".join(str(c) for c in cards)


def card_points(card: Card, trump: Suit | None) -> int:
    """Points of a card for the given trump (``None`` = a no-trump hand).

    >>> [card_points(c, Suit.HEARTS) for c in parse_cards("JH 9H AH 10H KH QH 8H")]
    [20, 14, 11, 10, 4, 3, 0]
    >>> [card_points(c, Suit.HEARTS) for c in parse_cards("AS 10S KS QS JS 9S")]
    [11, 10, 4, 3, 2, 0]
    """
    if trump is not None and card.suit is trump:
        return _TRUMP_POINTS.get(card.rank, 0)
    return _PLAIN_POINTS.get(card.rank, 0)


def left_of(seat: int) -> int:
    """The next seat clockwise.

    >>> left_of(3)
    0
    """
    return (seat + 1) % 4


def partner_of(seat: int) -> int:
    """The seat opposite.

    >>> partner_of(1)
    3
    """
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 is seats 1 and 3.

    >>> team_of(3)
    1
    """
    return seat % 2


def cards_field(cards: Sequence[Card]) -> list[str]:
    """Cards as a JSON list of texts."""
    return [str(c) for c in cards]
