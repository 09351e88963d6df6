"""Runs (twenties and fifties): finding them, ranking them, deciding who counts them.

A run is 3 or more cards of one suit in natural order 6 7 8 9 10 J Q K A. A longer sequence is
cut from its top card into blocks of four (fifties); a remaining block of three is a twenty.

>>> [str(r) for r in find_runs(parse_cards("6H 7H 8H 9H 10H JH AS KS QS"))]
['fifty in hearts to the jack', 'twenty in spades to the ace']
>>> [str(r) for r in find_runs(parse_cards("6C 7C 8C 9C 10C JC QC KC AC"))]
['fifty in clubs to the ace', 'fifty in clubs to the 10']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import _bits
from scoring.engine.cards import (
    DECK,
    SEATS,
    Card,
    Rank,
    Suit,
    parse_cards,  # noqa: F401  (used by the doctests)
    parse_suit,
    team_of,
)
from scoring.engine.errors import InvalidEntry

__all__ = [
    "Run",
    "RunKind",
    "RunShown",
    "best_run",
    "check_claims",
    "find_runs",
    "run_from_cards",
    "runs_counted",
    "validate_runs_shown",
]


class RunKind(enum.Enum):
    """A twenty (three in a row, 20 points) or a fifty (four in a row, 50 points)."""

    TWENTY = "twenty"
    FIFTY = "fifty"

    @property
    def points(self) -> int:
        return 20 if self is RunKind.TWENTY else 50

    @property
    def length(self) -> int:
        return 3 if self is RunKind.TWENTY else 4

    def __repr__(self) -> str:
        return f"RunKind.{self.name}"


def _rank_field(value: object, field: str) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, str):
        for r in Rank:
            if value.strip().upper() in (r.text, "T" if r is Rank.TEN else r.text):
                return r
    raise InvalidEntry(
        f"{value!r} is not a rank: use 6 7 8 9 10 J Q K A", code="bad_rank", field=field
    )


def _kind_field(value: object, field: str) -> RunKind:
    if isinstance(value, RunKind):
        return value
    try:
        return RunKind(value)
    except ValueError:
        raise InvalidEntry(
            f'{value!r} is not a run: use "twenty" or "fifty"', code="bad_run", field=field
        ) from None


def _check_top(kind: RunKind, top: Rank, field: str | None) -> None:
    if int(top) - kind.length + 1 < int(Rank.SIX):
        raise InvalidEntry(
            f"a {kind.value} cannot have the {top.label} as its top card: a {kind.value} is "
            f"{kind.length} cards in a row and the lowest card is the 6",
            code="run_impossible",
            field=field,
        )


@dataclass(frozen=True, slots=True)
class Run:
    """One run: its kind, suit and top card."""

    kind: RunKind
    suit: Suit
    top: Rank

    def __post_init__(self) -> None:
        _check_top(self.kind, self.top, "top")

    @property
    def points(self) -> int:
        return self.kind.points

    @property
    def cards(self) -> tuple[Card, ...]:
        """The run's cards, top first."""
        base = self.suit.index * 9 + int(self.top) - 6
        return tuple(DECK[base - k] for k in range(self.kind.length))

    def key(self, trump: Suit | None) -> tuple[int, int, int]:
        """Ranking: a fifty beats a twenty, then the higher top, then trump beats plain."""
        return (self.kind.length, int(self.top), int(self.suit is trump))

    def __str__(self) -> str:
        return f"{self.kind.value} in {self.suit.label} to the {self.top.label}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "suit": self.suit.value, "top": self.top.text}

    @classmethod
    def from_json(cls, data: Any) -> Run:
        if not isinstance(data, dict):
            raise InvalidEntry("a run must be an object with kind, suit and top", code="bad_run")
        kind = _kind_field(data.get("kind"), "kind")
        suit = parse_suit(data.get("suit", ""), field="suit")
        top = _rank_field(data.get("top"), "top")
        return cls(kind, suit, top)


@dataclass(frozen=True, slots=True)
class RunShown:
    """A run shown by a player during a hand."""

    seat: int
    kind: RunKind
    suit: Suit
    top: Rank

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise InvalidEntry(
                f"seat {self.seat!r} does not exist: seats are 0 to 3",
                code="bad_seat",
                field="seat",
            )
        _check_top(self.kind, self.top, "top")

    @property
    def run(self) -> Run:
        return Run(self.kind, self.suit, self.top)

    @property
    def points(self) -> int:
        return self.kind.points

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.run.cards

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.run}"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, **self.run.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> RunShown:
        if not isinstance(data, dict):
            raise InvalidEntry(
                "a run must be an object with seat, kind, suit and top", code="bad_run"
            )
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise InvalidEntry(
                f"seat {seat!r} does not exist: seats are 0 to 3", code="bad_seat", field="seat"
            )
        run = Run.from_json(data)
        return cls(seat, run.kind, run.suit, run.top)

    @classmethod
    def of(cls, seat: int, run: Run) -> RunShown:
        return cls(seat, run.kind, run.suit, run.top)


def _run_of(length: int, top: int, suit: int) -> Run:
    kind = RunKind.FIFTY if length == 4 else RunKind.TWENTY
    return Run(kind, DECK[suit * 9].suit, Rank(top + 6))


def find_runs(cards: Iterable[Card]) -> tuple[Run, ...]:
    """Every run in a holding, each suit cut from the top; best first.

    >>> [str(r) for r in find_runs(parse_cards("8D 7D 6D 9S 10S JS QS KS"))]
    ['fifty in spades to the king', 'twenty in diamonds to the 8']
    """
    mask = _bits.mask_of(cards)
    runs = [_run_of(n, t, s) for s in range(4) for n, t in _bits.RUNS9[(mask >> (9 * s)) & 511]]
    runs.sort(key=lambda r: r.key(None), reverse=True)
    return tuple(runs)


def run_from_cards(cards: Sequence[Card]) -> Run:
    """The run made by exactly these cards (3 or 4 in a row of one suit), in any order.

    >>> str(run_from_cards(parse_cards("QH KH JH")))
    'twenty in hearts to the king'
    >>> run_from_cards(parse_cards("JH 9H AH"))
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: JH 9H AH are not a run: a run is 3 or 4 cards of one suit in the order 6 7 8 9 10 J Q K A
    """  # noqa: E501
    ranks = sorted(int(c.rank) for c in cards)
    suits = {c.suit for c in cards}
    ok = (
        len(cards) in (3, 4)
        and len(suits) == 1
        and ranks == list(range(ranks[0], ranks[0] + len(cards)))
    )
    if not ok:
        text = " ".join(str(c) for c in cards)
        raise InvalidEntry(
            f"{text} are not a run: a run is 3 or 4 cards of one suit in the order "
            "6 7 8 9 10 J Q K A",
            code="not_a_run",
            field="cards",
        )
    kind = RunKind.FIFTY if len(cards) == 4 else RunKind.TWENTY
    return Run(kind, next(iter(suits)), Rank(ranks[-1]))


def best_run(runs: Iterable[Run | RunShown], trump: Suit | None) -> Run | None:
    """The best of some runs (fifty over twenty, then higher top card, then trump over plain).

    >>> str(best_run(find_runs(parse_cards("6H 7H 8H QS KS AS")), Suit.HEARTS))
    'twenty in spades to the ace'
    """
    best: Run | None = None
    for r in runs:
        run = r.run if isinstance(r, RunShown) else r
        if best is None or run.key(trump) > best.key(trump):
            best = run
    return best


def runs_counted(
    shown: Sequence[RunShown], trump: Suit | None, *, for_team: bool = False
) -> tuple[int | None, tuple[RunShown, ...]]:
    """Who counts runs this hand and which of the shown runs count.

    Only the player with the best run counts (all of their shown runs; with ``for_team`` the
    partner's too). Two equal best plain runs cancel: nobody counts runs.

    >>> a = RunShown(1, RunKind.FIFTY, Suit.CLUBS, Rank.TEN)
    >>> b = RunShown(2, RunKind.FIFTY, Suit.SPADES, Rank.TEN)
    >>> runs_counted((a, b), Suit.HEARTS)
    (None, ())
    >>> runs_counted((a, b), Suit.SPADES)[0]
    2
    """
    if not shown:
        return None, ()
    best_by_seat: dict[int, tuple[int, int, int]] = {}
    for r in shown:
        k = r.run.key(trump)
        if r.seat not in best_by_seat or k > best_by_seat[r.seat]:
            best_by_seat[r.seat] = k
    top = max(best_by_seat.values())
    leaders = [s for s, k in best_by_seat.items() if k == top]
    if len(leaders) > 1:
        return None, ()
    seat = leaders[0]
    counted = tuple(
        r for r in shown if r.seat == seat or (for_team and team_of(r.seat) == team_of(seat))
    )
    return seat, counted


def _simple_runs(shown: Sequence[RunShown]) -> bool:
    """Fast check: no shared card, one run per player and suit, at most nine cards each."""
    acc = 0
    groups: set[tuple[int, Suit]] = set()
    per = [0, 0, 0, 0]
    for r in shown:
        n = 4 if r.kind is RunKind.FIFTY else 3
        top = r.suit.index * 9 + int(r.top) - 6
        m = ((1 << n) - 1) << (top - n + 1)
        key = (r.seat, r.suit)
        if acc & m or key in groups:
            return False
        per[r.seat] += n
        if per[r.seat] > 9:
            return False
        acc |= m
        groups.add(key)
    return True


def validate_runs_shown(shown: Sequence[RunShown], *, field: str = "runs") -> None:
    """Reject runs that nobody could have shown together.

    Each card belongs to one player and one run; a player's runs in a suit must be exactly the
    blocks cut from the top of what they show (6 in a row is one fifty, not two twenties).

    >>> validate_runs_shown((RunShown(2, RunKind.TWENTY, Suit.HEARTS, Rank.KING),
    ...                      RunShown(2, RunKind.FIFTY, Suit.HEARTS, Rank.KING)))
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: seat 2 cannot show a fifty in hearts to the king: it is already counted as a twenty in hearts to the king
    """  # noqa: E501
    if _simple_runs(shown):
        return
    owner: dict[int, tuple[int, RunShown]] = {}
    per_seat = [0, 0, 0, 0]
    for n, r in enumerate(shown):
        for c in r.cards:
            if c.index in owner:
                _, other = owner[c.index]
                if other.seat == r.seat:
                    msg = (
                        f"seat {r.seat} cannot show a {r.run}: it is already counted as a "
                        f"{other.run}"
                    )
                else:
                    msg = (
                        f"seat {r.seat} cannot show a {r.run}: the {c.label} is in the "
                        f"{other.run} shown by seat {other.seat}"
                    )
                raise InvalidEntry(msg, code="run_impossible", field=f"{field}.{n}")
            owner[c.index] = (n, r)
        per_seat[r.seat] += r.kind.length
        if per_seat[r.seat] > 9:
            raise InvalidEntry(
                f"seat {r.seat} cannot show that many runs: a player holds only nine cards",
                code="run_impossible",
                field=f"{field}.{n}",
            )
    for seat in SEATS:
        for suit in Suit:
            mine = [(n, r) for n, r in enumerate(shown) if r.seat == seat and r.suit is suit]
            if len(mine) < 2:
                continue
            cards = [c for _, r in mine for c in r.cards]
            expected = sorted(find_runs(cards), key=lambda x: x.top)
            got = sorted((r.run for _, r in mine), key=lambda x: x.top)
            if expected != got:
                words = " and ".join(str(r) for r in got)
                should = " and ".join(str(r) for r in expected)
                raise InvalidEntry(
                    f"seat {seat} cannot show {words}: those cards in a row are cut from the top "
                    f"into {should}",
                    code="run_impossible",
                    field=f"{field}.{mine[-1][0]}",
                )


def check_claims(
    cards: Sequence[Card],
    runs: Sequence[Run] = (),
    *,
    bella: bool = False,
    trump: Suit | None = None,
    who: str = "the player",
) -> None:
    """Check claimed runs and bella against a player's nine cards (raises InvalidEntry).

    A claimed run must be one of the blocks cut from the top of the holding; bella needs the
    king and queen of trump.

    >>> from scoring.engine.cards import parse_cards
    >>> hand = parse_cards("6H 7H 8H 9H 10H KS QS 6C 7D")
    >>> check_claims(hand, [Run(RunKind.FIFTY, Suit.HEARTS, Rank.TEN)], bella=True,
    ...              trump=Suit.SPADES)
    >>> check_claims(hand, [Run(RunKind.FIFTY, Suit.HEARTS, Rank.NINE)], who="seat 2")
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: seat 2 cannot show a fifty in hearts to the 9: its runs are the fifty in hearts to the 10
    """  # noqa: E501
    held = find_runs(cards)
    for n, run in enumerate(runs):
        if run not in held:
            have = ", ".join(f"the {r}" for r in held) or "none"
            raise InvalidEntry(
                f"{who} cannot show a {run}: its runs are {have}",
                code="run_not_held",
                field=f"runs.{n}",
            )
    if bella:
        if trump is None:
            raise InvalidEntry(
                "there is no bella in a no-trump hand", code="no_bella", field="bella"
            )
        need = {Card(Rank.KING, trump), Card(Rank.QUEEN, trump)}
        if not need <= set(cards):
            raise InvalidEntry(
                f"{who} cannot call bella: bella is the king and queen of "
                f"{trump.label} in one hand",
                code="bella_not_held",
                field="bella",
            )
