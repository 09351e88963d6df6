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
from typing import Any, NamedTuple

from scoring.engine import _bits
from scoring.engine.cards import (
    DECK,
    SEATS,
    Card,
    Rank,
    Suit,
    parse_card,
    parse_cards,  # noqa: F401  (used by the doctests)
    parse_suit,
    team_of,
)
from scoring.engine.errors import InvalidEntry

__all__ = [
    "Run",
    "RunCount",
    "RunKind",
    "RunShown",
    "RunsCounted",
    "best_run",
    "check_claims",
    "check_run_count",
    "find_runs",
    "run_counts_counted",
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


def _top_field(value: object, suit: Suit, field: str) -> Rank:
    """The rank of a run's top card, given as the card (``"KH"``) or its rank (``"K"``)."""
    if isinstance(value, str) and len(value.strip()) > 1 and not value.strip().isdigit():
        text = value.strip()
        try:
            card = parse_card(text)
        except InvalidEntry:
            return _rank_field(value, field)
        if card.suit is not suit:
            raise InvalidEntry(
                f"the top card {card} is not of the run's suit, {suit.label}",
                code="bad_run",
                field=field,
            )
        return card.rank
    return _rank_field(value, field)


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

    @property
    def top_card(self) -> Card:
        """The run's top card: the king of hearts of a twenty in hearts to the king."""
        return DECK[self.suit.index * 9 + int(self.top) - 6]

    def to_json(self) -> dict[str, Any]:
        """The run as plain data, its top card written as every card is.

        >>> Run(RunKind.TWENTY, Suit.HEARTS, Rank.KING).to_json()
        {'kind': 'twenty', 'suit': 'H', 'top': 'KH'}
        >>> Run.from_json({"kind": "twenty", "suit": "H", "top": "K"}) == Run.from_json(
        ...     {"kind": "twenty", "suit": "H", "top": "KH"})
        True
        """
        return {"kind": self.kind.value, "suit": self.suit.value, "top": str(self.top_card)}

    @classmethod
    def from_json(cls, data: Any) -> Run:
        """Read a run; ``top`` is its top card (``"KH"``) or, as written before, that card's
        rank alone (``"K"``)."""
        if not isinstance(data, dict):
            raise InvalidEntry("a run must be an object with kind, suit and top", code="bad_run")
        kind = _kind_field(data.get("kind"), "kind")
        suit = parse_suit(data.get("suit", ""), field="suit")
        top = _top_field(data.get("top"), suit, "top")
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
        fifty = self.kind is RunKind.FIFTY
        return _RUN_OF[fifty][self.suit.index][int(self.top) - (9 if fifty else 8)]

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


#: ``_RUN_OF[kind is FIFTY][suit index][top - lowest top of the kind]``: every run there is,
#: made once (a run is a value).
_RUN_OF: tuple[tuple[tuple[Run, ...], ...], ...] = tuple(
    tuple(tuple(Run(kind, suit, Rank(top)) for top in range(5 + kind.length, 15)) for suit in Suit)
    for kind in (RunKind.TWENTY, RunKind.FIFTY)
)


def _run_of(length: int, top: int, suit: int) -> Run:
    """The run of ``length`` cards in suit index ``suit`` to rank ``top`` (0 six .. 8 ace)."""
    return _RUN_OF[length == 4][suit][top + 1 - length]


def find_runs(cards: Iterable[Card]) -> tuple[Run, ...]:
    """Every run in a holding, each suit cut from the top; best first.

    >>> [str(r) for r in find_runs(parse_cards("8D 7D 6D 9S 10S JS QS KS"))]
    ['fifty in spades to the king', 'twenty in diamonds to the 8']
    """
    return runs_of_mask(_bits.mask_of(cards))


def _ranking(run: Run) -> tuple[int, int, int]:
    return run.key(None)


#: ``_SUIT_RUNS[s][m]``: the runs in suit ``s`` of a hand whose cards of that suit are the
#: 9-bit mask ``m`` (runs are values: made once here rather than for every hand).
_SUIT_RUNS: tuple[tuple[tuple[Run, ...], ...], ...] = tuple(
    tuple(tuple(_run_of(n, t, s) for n, t in _bits.RUNS9[m]) for m in range(512)) for s in range(4)
)


def runs_of_mask(mask: int) -> tuple[Run, ...]:
    """:func:`find_runs` of the cards in a bit set (bit ``card.index`` for each card)."""
    runs = (
        _SUIT_RUNS[0][mask & 511]
        + _SUIT_RUNS[1][(mask >> 9) & 511]
        + _SUIT_RUNS[2][(mask >> 18) & 511]
        + _SUIT_RUNS[3][(mask >> 27) & 511]
    )
    if len(runs) > 1:
        return tuple(sorted(runs, key=_ranking, reverse=True))
    return runs


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


class RunsCounted(NamedTuple):
    """Who counts runs this hand (``seat``, None when nobody does), the shown runs that count,
    and the points they give each team (team 0 first)."""

    seat: int | None
    runs: tuple[RunShown, ...]

    @property
    def points(self) -> tuple[int, int]:
        total = sum(r.points for r in self.runs)
        if self.seat is None or not total:
            return (0, 0)
        return (total, 0) if team_of(self.seat) == 0 else (0, total)


def runs_counted(
    shown: Sequence[RunShown], trump: Suit | None, *, for_team: bool = False
) -> RunsCounted:
    """Who counts runs this hand, which of the shown runs count and their points.

    Only the player with the best run counts (all of their shown runs; with ``for_team`` the
    partner's too). Two equal best plain runs cancel: nobody counts runs.

    >>> a = RunShown(1, RunKind.FIFTY, Suit.CLUBS, Rank.TEN)
    >>> b = RunShown(2, RunKind.FIFTY, Suit.SPADES, Rank.TEN)
    >>> runs_counted((a, b), Suit.HEARTS)
    RunsCounted(seat=None, runs=())
    >>> counted = runs_counted((a, b), Suit.SPADES)
    >>> counted.seat, counted.points
    (2, (50, 0))
    >>> seat, runs = counted  # a pair, as it always was
    """
    if not shown:
        return RunsCounted(None, ())
    if len(shown) == 1:  # one run shown: its player has the best run, and counts it alone
        return RunsCounted(shown[0].seat, (shown[0],))
    # Each seat's best run as one number ordered as Run.key: length, then top, then trump.
    best_by_seat = [-1, -1, -1, -1]
    for r in shown:
        k = (4 if r.kind is RunKind.FIFTY else 3) * 64 + int(r.top) * 2 + (r.suit is trump)
        best_by_seat[r.seat] = max(best_by_seat[r.seat], k)
    top = max(best_by_seat)
    leaders = [s for s in SEATS if best_by_seat[s] == top]
    if len(leaders) > 1:
        return RunsCounted(None, ())
    seat = leaders[0]
    counted = tuple(
        [r for r in shown if r.seat == seat or (for_team and team_of(r.seat) == team_of(seat))]
    )
    return RunsCounted(seat, counted)


#: How many runs one player showed: (twenties, fifties).
RunCount = tuple[int, int]

_MOST = {"twenties": 3, "fifties": 2}


def _how_many(n: int, kind: RunKind) -> str:
    if n == 1:
        return f"a {kind.value}"
    return f"{n} {'twenties' if kind is RunKind.TWENTY else 'fifties'}"


def check_run_count(twenties: int, fifties: int, *, who: str, field: str) -> None:
    """Refuse twenties and fifties that one player's nine cards cannot hold.

    A twenty is three cards and a fifty four, all of them different cards: at most three
    twenties, two fifties, or a fifty and a twenty. ``field`` is the path of the player's
    count (its ``twenties`` and ``fifties`` are named below it).

    >>> check_run_count(1, 1, who="seat 0", field="run_counts.0")
    >>> check_run_count(4, 0, who="Shirley", field="run_counts.0")
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: Shirley cannot show 4 twenties: nine cards hold at most 3
    >>> check_run_count(2, 1, who="seat 2", field="run_counts.2")
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: seat 2 cannot show 2 twenties and a fifty: that is 10 cards in runs, and a player holds nine
    """  # noqa: E501
    for value, words in ((twenties, "twenties"), (fifties, "fifties")):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidEntry(
                f"{who}'s {words} must be a whole number, 0 or more, not {value!r}",
                code="bad_run_count",
                field=f"{field}.{words}",
            )
        if value > _MOST[words]:
            raise InvalidEntry(
                f"{who} cannot show {value} {words}: nine cards hold at most {_MOST[words]}",
                code="run_impossible",
                field=f"{field}.{words}",
            )
    cards = 3 * twenties + 4 * fifties
    if cards > 9:
        raise InvalidEntry(
            f"{who} cannot show {_how_many(twenties, RunKind.TWENTY)} and "
            f"{_how_many(fifties, RunKind.FIFTY)}: that is {cards} cards in runs, and a player "
            "holds nine",
            code="run_impossible",
            field=field,
        )


def _seats_words(seats: Sequence[int], names: Sequence[str] | None) -> str:
    said = [f"seat {s}" if names is None else names[s] for s in seats]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def run_counts_counted(
    counts: Sequence[RunCount],
    *,
    for_team: bool = False,
    field: str = "run_counts",
    names: Sequence[str] | None = None,
) -> tuple[int | None, tuple[int, int]]:
    """Who counts runs, and the run points per team, from how many twenties and fifties each
    player showed (``counts[seat]``, valid counts assumed: see :func:`check_run_count`).
    A refusal names the players by ``names[seat]`` when given, else by seat.

    A fifty beats any twenty, so the player whose best run is the only one of the best kind
    holds the best run: they count all their runs (with ``for_team``, their partner's too).
    When two players' best runs are of the same kind, the top card and trump decide and two
    equal plain runs cancel (between partners too): counts cannot tell, and they are refused.

    >>> run_counts_counted([(0, 1), (0, 0), (1, 0), (2, 0)])
    (0, (50, 0))
    >>> run_counts_counted([(0, 1), (0, 0), (1, 0), (2, 0)], for_team=True)
    (0, (70, 0))
    >>> run_counts_counted([(0, 0)] * 4)
    (None, (0, 0))
    >>> run_counts_counted([(1, 0), (0, 0), (0, 0), (1, 0)])
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: seat 0 and seat 3 each show a twenty as their best run, and counts alone cannot say whose is best (the higher top card wins, then trump; equal plain runs cancel): give the runs with their suits and top cards, or only the runs that count (the run points the team counted)
    """  # noqa: E501

    def kind(count: RunCount) -> int:
        return 2 if count[1] else 1 if count[0] else 0

    best = max((kind(c) for c in counts), default=0)
    if best == 0:
        return None, (0, 0)
    leaders = [s for s, c in enumerate(counts) if kind(c) == best]
    if len(leaders) > 1:
        words = "a fifty" if best == 2 else "a twenty"
        partners = len({team_of(s) for s in leaders}) == 1
        raise InvalidEntry(
            f"{_seats_words(leaders, names)} each show {words} as their best run, and counts alone "
            "cannot say whose is best (the higher top card wins, then trump; equal plain runs "
            f"cancel{', even between partners' if partners else ''}): give the runs with their "
            "suits and top cards, or only the runs that count (the run points the team counted)",
            code="runs_undecided",
            field=field,
        )
    seat = leaders[0]
    team = team_of(seat)
    points = [0, 0]
    for s, (twenties, fifties) in enumerate(counts):
        if s == seat or (for_team and team_of(s) == team):
            points[team] += 20 * twenties + 50 * fifties
    return seat, (points[0], points[1])


def _simple_runs(shown: Sequence[RunShown]) -> bool:
    """Fast check: no shared card, one run per player and suit, at most nine cards each."""
    acc = 0
    groups = 0  # bit seat * 4 + suit index: a player already showed a run in that suit
    per = [0, 0, 0, 0]
    for r in shown:
        n = 4 if r.kind is RunKind.FIFTY else 3
        s = r.suit.index
        top = s * 9 + int(r.top) - 6
        m = ((1 << n) - 1) << (top - n + 1)
        key = 1 << (r.seat * 4 + s)
        if acc & m or groups & key:
            return False
        per[r.seat] += n
        if per[r.seat] > 9:
            return False
        acc |= m
        groups |= key
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
