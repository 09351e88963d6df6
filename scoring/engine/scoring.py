"""Scoring a hand: outcomes, the score-sheet entry, and the result of a hand.

Each team's take is its card points (the last trick's 10 included) + counted runs + bella.
The hand's total is 162 (130 with no trump) + counted runs + bella. The calling team must take
more than half of the total:

* more than half: both teams score what they took (**made**);
* exactly half: **half-bait**: the calling team scores 0, the other team its own half
  (switch ``half_bait_is_whole_bait``: a bait);
* less than half: **bait**: the calling team scores 0, the other team the hand's total.

A misplay gives the whole hand (every card point, played or not, + the runs counted from those
shown so far + bella if called) to the team that called it when proven, to the other team when
not proven.

**Thrown in** (decision of this project, the texts are silent): the team opposite the player who
threw in takes every card point not yet won, the last trick's 10 included; runs and bella
already counted stay with their team. The usual made / half-bait / bait test is then applied to
those totals (the outcome is ``THROWN_IN``, the test's result is kept in ``call_outcome``). So a
calling team that throws in when going bait is still bait, and a defending team that concedes
hands the caller the points it conceded. On a score sheet, the card points of a thrown-in hand
are the points each team had won when the hand was thrown in; the engine adds the rest.

>>> r = score_summary(Ruleset(), HandSummary(dealer=3, caller=0, trump=Suit.HEARTS,
...                                        card_points=(92, 70)))
>>> r.outcome, r.points
(<Outcome.MADE: 'made'>, (92, 70))
>>> score_summary(Ruleset(), HandSummary(dealer=3, caller=1, trump=Suit.HEARTS,
...                                    card_points=(81, 81))).points
(81, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from scoring.engine import _parse
from scoring.engine._values import maker
from scoring.engine.cards import Rank, Suit, team_of
from scoring.engine.errors import EngineError, InvalidEntry
from scoring.engine.ruleset import Ruleset
from scoring.engine.runs import (
    Run,
    RunCount,
    RunKind,
    RunShown,
    check_run_count,
    run_counts_counted,
    runs_counted,
    validate_runs_shown,
)

__all__ = [
    "SUMMARY_KEYS",
    "HandResult",
    "HandSummary",
    "MisplayCall",
    "Outcome",
    "card_total",
    "derive_card_points",
    "score_summary",
]


class Outcome(enum.StrEnum):
    """How a hand ended for scoring."""

    MADE = "made"
    HALF_BAIT = "half_bait"
    BAIT = "bait"
    VOID = "void"
    MISPLAY_PROVEN = "misplay_proven"
    MISPLAY_NOT_PROVEN = "misplay_not_proven"
    THROWN_IN = "thrown_in"

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]


_OUTCOME_LABELS = {
    Outcome.MADE: "made",
    Outcome.HALF_BAIT: "half-bait",
    Outcome.BAIT: "bait",
    Outcome.VOID: "void hand (all passed)",
    Outcome.MISPLAY_PROVEN: "misplay proven",
    Outcome.MISPLAY_NOT_PROVEN: "misplay not proven",
    Outcome.THROWN_IN: "thrown in",
}


def card_total(trump: Suit | None) -> int:
    """Card points in a hand: 162, or 130 with no trump.

    >>> card_total(Suit.CLUBS), card_total(None)
    (162, 130)
    """
    return 130 if trump is None else 162


def _check_card_points(points: int, total: int, field: str) -> None:
    if not _parse.is_int(points) or not 0 <= points <= total:
        raise InvalidEntry(
            f"card points {points!r} are impossible: a team takes 0 to {total}",
            code="card_points_impossible",
            field=field,
        )
    if points in (1, total - 1):
        raise InvalidEntry(
            f"card points {points} are impossible: no card is worth 1",
            code="card_points_impossible",
            field=field,
        )


def derive_card_points(team: int, points: int, trump_is_none: bool = False) -> tuple[int, int]:
    """Both teams' card points from one team's count.

    >>> derive_card_points(1, 70)
    (92, 70)
    >>> derive_card_points(0, 161)
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: card points 161 are impossible: no card is worth 1
    """
    if team not in (0, 1):
        raise InvalidEntry(f"team must be 0 or 1, not {team!r}", code="bad_team", field="team")
    total = 130 if trump_is_none else 162
    _check_card_points(points, total, "card_points")
    return (points, total - points) if team == 0 else (total - points, points)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The scored result of one hand."""

    outcome: Outcome
    dealer: int
    caller: int | None
    calling_team: int | None
    trump: Suit | None
    #: Card points per team (last trick included), after any throw-in or misplay transfer.
    card_points: tuple[int, int]
    run_points: tuple[int, int]
    bella_points: tuple[int, int]
    #: What each team took: cards + runs + bella.
    taken: tuple[int, int]
    hand_total: int
    #: What each team scores for the hand.
    points: tuple[int, int]
    runs_counted_by: int | None = None
    runs_counted: tuple[Run, ...] = ()
    bella_seat: int | None = None
    #: The seat that called the misplay.
    misplay_by: int | None = None
    #: The seat accused of the misplay, when known.
    misplay_accused: int | None = None
    thrown_in_by: int | None = None
    #: The made / half-bait / bait test of the calling team (also for thrown-in hands).
    call_outcome: Outcome | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "dealer": self.dealer,
            "caller": self.caller,
            "calling_team": self.calling_team,
            "trump": _parse.suit_text(self.trump),
            "card_points": list(self.card_points),
            "run_points": list(self.run_points),
            "bella_points": list(self.bella_points),
            "taken": list(self.taken),
            "hand_total": self.hand_total,
            "points": list(self.points),
            "runs_counted_by": self.runs_counted_by,
            "runs_counted": [r.to_json() for r in self.runs_counted],
            "bella_seat": self.bella_seat,
            "misplay_by": self.misplay_by,
            "misplay_accused": self.misplay_accused,
            "thrown_in_by": self.thrown_in_by,
            "call_outcome": None if self.call_outcome is None else self.call_outcome.value,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        d = _parse.obj(data, "a hand result")
        counted = d.get("runs_counted") or []
        if not isinstance(counted, list | tuple):
            raise InvalidEntry(
                "runs_counted must be a list of runs", code="bad_json", field="runs_counted"
            )
        try:
            call = d.get("call_outcome")
            return cls(
                outcome=Outcome(d["outcome"]),
                dealer=_parse.seat(d["dealer"], "dealer"),
                caller=_parse.seat(d["caller"], "caller", optional=True),
                calling_team=d["calling_team"],
                trump=_parse.trump(d["trump"], "trump"),
                card_points=_parse.int_pair(d["card_points"], "card_points"),
                run_points=_parse.int_pair(d["run_points"], "run_points"),
                bella_points=_parse.int_pair(d["bella_points"], "bella_points"),
                taken=_parse.int_pair(d["taken"], "taken"),
                hand_total=d["hand_total"],
                points=_parse.int_pair(d["points"], "points"),
                runs_counted_by=_parse.seat(
                    d.get("runs_counted_by"), "runs_counted_by", optional=True
                ),
                runs_counted=tuple(Run.from_json(r) for r in counted),
                bella_seat=_parse.seat(d.get("bella_seat"), "bella_seat", optional=True),
                misplay_by=_parse.seat(d.get("misplay_by"), "misplay_by", optional=True),
                misplay_accused=_parse.seat(
                    d.get("misplay_accused"), "misplay_accused", optional=True
                ),
                thrown_in_by=_parse.seat(d.get("thrown_in_by"), "thrown_in_by", optional=True),
                call_outcome=None if call is None else Outcome(call),
            )
        except KeyError as exc:
            raise InvalidEntry(
                f"{exc.args[0]} is missing", code="missing_field", field=str(exc.args[0])
            ) from None
        except ValueError as exc:
            if isinstance(exc, EngineError):
                raise
            raise InvalidEntry(str(exc), code="bad_json") from None


#: A :class:`HandResult` from every one of its fields (see :mod:`scoring.engine._values`).
_make_result = maker(HandResult)
#: The run of a run shown (a map of it makes no function of its own, as a comprehension does).
_RUN_OF_SHOWN = attrgetter("run")


@dataclass(frozen=True, slots=True)
class MisplayCall:
    """A misplay called at the table: who called it, whether it was proven, and (when the
    score-sheet notes it) the seat accused of it, so directors still see who made it."""

    called_by: int
    proven: bool
    accused: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"called_by": self.called_by, "proven": self.proven, "accused": self.accused}

    @classmethod
    def from_json(cls, data: Any, field: str = "misplay") -> MisplayCall:
        d = _parse.obj(data, "a misplay", field)
        return cls(
            called_by=_parse.seat(d.get("called_by"), f"{field}.called_by"),
            proven=_parse.boolean(d.get("proven"), f"{field}.proven"),
            accused=_parse.seat(d.get("accused"), f"{field}.accused", optional=True),
        )

    def validate(self, prefix: str = "misplay.") -> None:
        """Seats in range, and the accused an opponent of the seat calling the misplay.

        >>> MisplayCall(called_by=0, proven=True, accused=2).validate()
        Traceback (most recent call last):
        ...
        scoring.engine.errors.InvalidEntry: seat 0 cannot call a misplay on seat 2: they are partners, and a misplay is called on an opponent
        """  # noqa: E501
        _parse.seat(self.called_by, f"{prefix}called_by")
        _parse.seat(self.accused, f"{prefix}accused", optional=True)
        if self.accused is not None and self.accused % 2 == self.called_by % 2:
            whom = (
                "themselves"
                if self.accused == self.called_by
                else f"seat {self.accused}: they are partners"
            )
            raise InvalidEntry(
                f"seat {self.called_by} cannot call a misplay on {whom}, and a misplay is "
                "called on an opponent",
                code="accused_partner",
                field=f"{prefix}accused",
            )


#: The keys of a score-sheet line as :meth:`HandSummary.from_json` reads it; any other is
#: refused.
SUMMARY_KEYS = frozenset(
    {
        "dealer",
        "caller",
        "trump",
        "card_points",
        "runs",
        "run_points",
        "run_counts",
        "bella_seat",
        "misplay",
        "thrown_in_by",
    }
)


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of a paper score-sheet.

    ``caller`` None is a void hand (all passed). ``trump`` None with a caller is "no trump".
    The runs are given one of three ways, never two: ``runs`` (each run shown, with its suit
    and top card), ``run_counts`` (how many twenties and fifties each player showed, seat 0
    first: the engine works out who counts, and refuses counts that cannot tell) or
    ``run_points`` (the run points each team counted).
    ``card_points`` may be None for void and misplay hands; on a misplay they are what was
    counted when the hand stopped (any part of the hand), and do not change the result.
    """

    dealer: int
    caller: int | None
    trump: Suit | None
    card_points: tuple[int, int] | None
    runs: tuple[RunShown, ...] = ()
    run_points: tuple[int, int] | None = None
    bella_seat: int | None = None
    misplay: MisplayCall | None = None
    thrown_in_by: int | None = None
    #: (twenties, fifties) shown by each seat, seat 0 first.
    run_counts: tuple[RunCount, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "dealer": self.dealer,
            "caller": self.caller,
            "trump": _parse.suit_text(self.trump),
            "card_points": None if self.card_points is None else list(self.card_points),
            "runs": [r.to_json() for r in self.runs],
            "run_points": None if self.run_points is None else list(self.run_points),
            "bella_seat": self.bella_seat,
            "misplay": None if self.misplay is None else self.misplay.to_json(),
            "thrown_in_by": self.thrown_in_by,
        }
        if self.run_counts is not None:
            data["run_counts"] = [{"twenties": t, "fifties": f} for t, f in self.run_counts]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandSummary:
        """Read a score-sheet line; errors name the field.

        >>> HandSummary.from_json({"dealer": 0, "caller": 1, "trump": "X", "card_points": [81, 81]})
        Traceback (most recent call last):
        ...
        scoring.engine.errors.InvalidEntry: 'X' is not a suit: use C, D, H or S
        """
        d = _parse.obj(data, "a hand summary")
        _parse.no_extra(d, SUMMARY_KEYS)
        runs_data = d.get("runs") or []
        if not isinstance(runs_data, list | tuple):
            raise InvalidEntry("runs must be a list", code="bad_json", field="runs")
        runs: list[RunShown] = []
        for i, r in enumerate(runs_data):
            try:
                runs.append(RunShown.from_json(r))
            except EngineError as exc:
                raise exc.nested(f"runs.{i}") from None
        cp = d.get("card_points")
        rp = d.get("run_points")
        rc = d.get("run_counts")
        mp = d.get("misplay")
        return cls(
            dealer=_parse.seat(d.get("dealer"), "dealer"),
            caller=_parse.seat(d.get("caller"), "caller", optional=True),
            trump=_parse.trump(d.get("trump"), "trump"),
            card_points=None if cp is None else _parse.int_pair(cp, "card_points"),
            runs=tuple(runs),
            run_points=None if rp is None else _parse.int_pair(rp, "run_points"),
            bella_seat=_parse.seat(d.get("bella_seat"), "bella_seat", optional=True),
            misplay=None if mp is None else MisplayCall.from_json(mp),
            thrown_in_by=_parse.seat(d.get("thrown_in_by"), "thrown_in_by", optional=True),
            run_counts=None if rc is None else _run_counts_of(rc),
        )

    def validate(self, ruleset: Ruleset) -> None:
        """Raise :class:`InvalidEntry` naming the field if this line cannot be right."""
        _parse.seat(self.dealer, "dealer")
        _parse.seat(self.caller, "caller", optional=True)
        if self.caller is None:
            self._validate_void(ruleset)
            return
        if self.misplay is not None:
            self.misplay.validate()
            if self.thrown_in_by is not None:
                raise InvalidEntry(
                    "a hand cannot be both thrown in and stopped for a misplay",
                    code="misplay_and_thrown_in",
                    field="thrown_in_by",
                )
        if self.trump is None and not ruleset.no_trump_allowed:
            raise InvalidEntry(
                "a trump suit is needed: no trump is not allowed under this ruleset",
                code="no_trump_not_allowed",
                field="trump",
            )
        self._validate_card_points()
        self._validate_runs(ruleset)
        if self.bella_seat is not None:
            self._validate_bella()
        _parse.seat(self.thrown_in_by, "thrown_in_by", optional=True)

    def _validate_void(self, ruleset: Ruleset) -> None:
        """A void hand (all passed) is allowed by the ruleset and has nothing else."""
        if not ruleset.dealer_may_pass:
            raise InvalidEntry(
                "every hand needs a caller: under this ruleset the dealer cannot pass",
                code="caller_required",
                field="caller",
            )
        extra = (
            ("trump", "trump", self.trump is not None),
            ("card_points", "card points", self.card_points not in (None, (0, 0))),
            ("runs", "runs", bool(self.runs)),
            ("run_points", "run points", self.run_points not in (None, (0, 0))),
            ("run_counts", "runs", any(any(c) for c in self.run_counts or ())),
            ("bella_seat", "bella", self.bella_seat is not None),
            ("misplay", "misplay", self.misplay is not None),
            ("thrown_in_by", "throw-in", self.thrown_in_by is not None),
        )
        for name, words, bad in extra:
            if bad:
                raise InvalidEntry(
                    f"a void hand (all passed) has no {words}", code="void_hand", field=name
                )

    def _validate_card_points(self) -> None:
        """Each team's card points are possible, and together they make the hand: all of it
        when played out, less than it by the last trick's 10 or more when thrown in, anything
        up to it when stopped for a misplay (which needs none)."""
        total = card_total(self.trump)
        if self.card_points is None:
            if self.misplay is None:
                raise InvalidEntry(
                    "card points are needed", code="missing_field", field="card_points"
                )
            return
        for i, p in enumerate(self.card_points):
            _check_card_points(p, total, f"card_points.{i}")
        if self.thrown_in_by is not None:
            _check_thrown_in_card_points(self.card_points, total)
            return
        counted = sum(self.card_points)
        # A misplay stops the hand: its card points are as counted then (any part of the
        # hand), and the whole hand goes to one team whatever they are.
        if counted > total or (counted != total and self.misplay is None):
            raise InvalidEntry(
                f"card points {self.card_points[0]} and {self.card_points[1]} add up to "
                f"{counted}: a hand has {'only ' if counted > total else ''}{total}"
                + (" with no trump" if self.trump is None else ""),
                code="card_points_sum",
                field="card_points",
            )

    def _validate_runs(self, ruleset: Ruleset) -> None:
        """The runs are given one way, and that way is possible."""
        if self.runs and self.run_points is not None:
            raise InvalidEntry(
                "give either the runs shown or the run points, not both",
                code="runs_twice",
                field="run_points",
            )
        if self.run_counts is not None and (self.runs or self.run_points is not None):
            raise InvalidEntry(
                "give the runs one way: the runs shown, the runs each player showed or the run "
                "points, not two of them",
                code="runs_twice",
                field="run_counts",
            )
        validate_runs_shown(self.runs)
        if self.run_points is not None:
            _check_run_points(self.run_points, ruleset)
        if self.run_counts is not None:
            _check_run_counts(self.run_counts, ruleset)

    def _validate_bella(self) -> None:
        """Bella by a seat, in a hand with a trump, and no other seat showed the king or
        queen of trump in a run."""
        _parse.seat(self.bella_seat, "bella_seat")
        if self.trump is None:
            raise InvalidEntry(
                "there is no bella in a no-trump hand", code="no_bella", field="bella_seat"
            )
        for r in self.runs:
            ranks = {c.rank for c in r.cards}
            if (
                r.seat != self.bella_seat
                and r.suit is self.trump
                and (Rank.KING in ranks or Rank.QUEEN in ranks)
            ):
                raise InvalidEntry(
                    f"seat {self.bella_seat} cannot have bella: seat {r.seat} showed a run "
                    f"with the king or queen of trump",
                    code="bella_impossible",
                    field="bella_seat",
                )


def _check_thrown_in_card_points(card_points: tuple[int, int], total: int) -> None:
    """A thrown-in hand leaves the last trick's 10 and more not yet won, and no card worth 1."""
    rest = total - sum(card_points)
    if rest < 10:
        raise InvalidEntry(
            f"card points {card_points[0]} and {card_points[1]} leave {rest} for a thrown-in "
            "hand: the last trick's 10 was not yet won",
            code="card_points_impossible",
            field="card_points",
        )
    if rest == 11:
        raise InvalidEntry(
            f"card points {card_points[0]} and {card_points[1]} leave cards worth 1 unplayed: "
            "no card is worth 1",
            code="card_points_impossible",
            field="card_points",
        )


_RUN_COUNTS_SHAPE = (
    'run counts are four entries, one per seat from seat 0: {"twenties": 0, "fifties": 1}'
)


def _run_counts_of(value: object, field: str = "run_counts") -> tuple[RunCount, ...]:
    """Read ``[{"twenties": 0, "fifties": 1}, ...]`` (one per seat, seat 0 first; a count
    left out is 0)."""
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise InvalidEntry(f"{_RUN_COUNTS_SHAPE}, not {value!r}", code="bad_json", field=field)
    counts: list[RunCount] = []
    for seat, item in enumerate(value):
        where = f"{field}.{seat}"
        d = _parse.obj(item, f"the runs of seat {seat}", where)
        _parse.no_extra(d, {"twenties", "fifties"}, f"{where}.")
        pair = []
        for words in ("twenties", "fifties"):
            n = d.get(words, 0)
            if not _parse.is_int(n) or n < 0:
                raise InvalidEntry(
                    f"seat {seat}'s {words} must be a whole number, 0 or more, not {n!r}",
                    code="bad_run_count",
                    field=f"{where}.{words}",
                )
            pair.append(n)
        counts.append((pair[0], pair[1]))
    return tuple(counts)


def _check_run_counts(counts: tuple[RunCount, ...], ruleset: Ruleset) -> None:
    if len(counts) != 4:
        raise InvalidEntry(
            f"{_RUN_COUNTS_SHAPE}, not {len(counts)} entries", code="bad_json", field="run_counts"
        )
    for seat, (twenties, fifties) in enumerate(counts):
        check_run_count(twenties, fifties, who=f"seat {seat}", field=f"run_counts.{seat}")
    run_counts_counted(counts, for_team=ruleset.runs_count_for_team)


def _player_run_values() -> frozenset[int]:
    return frozenset(20 * a + 50 * b for a in range(4) for b in range(3) if 3 * a + 4 * b <= 9)


_ONE_PLAYER = _player_run_values()
_TWO_PLAYERS = frozenset(x + y for x in _ONE_PLAYER for y in _ONE_PLAYER)


def _check_run_points(run_points: tuple[int, int], ruleset: Ruleset) -> None:
    allowed = _TWO_PLAYERS if ruleset.runs_count_for_team else _ONE_PLAYER
    source = (
        "a team's runs come from its two players' cards"
        if ruleset.runs_count_for_team
        else "a player's runs come from nine cards"
    )
    for i, p in enumerate(run_points):
        if not _parse.is_int(p) or p not in allowed:
            raise InvalidEntry(
                f"run points {p!r} are impossible: runs are twenties and fifties, and {source}",
                code="run_points_impossible",
                field=f"run_points.{i}",
            )
    if run_points[0] and run_points[1]:
        raise InvalidEntry(
            "only one team can count runs in a hand",
            code="run_points_impossible",
            field="run_points",
        )


# ---------------------------------------------------------------- the one settlement


def settle(
    ruleset: Ruleset,
    *,
    dealer: int,
    caller: int | None,
    trump: Suit | None,
    card_points: tuple[int, int],
    runs: Sequence[RunShown] = (),
    run_points: tuple[int, int] | None = None,
    bella_seat: int | None = None,
    thrown_in_by: int | None = None,
    misplay: MisplayCall | None = None,
    misplay_accused: int | None = None,
    run_counts: Sequence[RunCount] | None = None,
) -> HandResult:
    """Score a hand from its parts (inputs assumed valid; see :func:`score_summary`)."""
    if caller is None:
        return HandResult(
            Outcome.VOID, dealer, None, None, None, (0, 0), (0, 0), (0, 0), (0, 0), 0, (0, 0)
        )
    calling_team = team_of(caller)
    total_cards = card_total(trump)
    counted_by: int | None = None
    counted: tuple[RunShown, ...] = ()
    if run_counts is not None:
        counted_by, runs_pts = run_counts_counted(run_counts, for_team=ruleset.runs_count_for_team)
    elif run_points is None:
        counted_by, counted = runs_counted(runs, trump, for_team=ruleset.runs_count_for_team)
        rp = [0, 0]
        for r in counted:
            rp[r.seat & 1] += 50 if r.kind is RunKind.FIFTY else 20  # the team of the seat
        runs_pts = (rp[0], rp[1])
    else:
        runs_pts = run_points
    bella = [0, 0]
    if bella_seat is not None and trump is not None:
        bella[team_of(bella_seat)] = 20
    bella_pts = (bella[0], bella[1])
    hand_total = total_cards + sum(runs_pts) + sum(bella_pts)
    counted_runs = tuple(map(_RUN_OF_SHOWN, counted))
    if misplay is not None:
        if misplay_accused is None:
            misplay_accused = misplay.accused
        winner = team_of(misplay.called_by) if misplay.proven else 1 - team_of(misplay.called_by)
        cards = (total_cards, 0) if winner == 0 else (0, total_cards)
        rpts = (sum(runs_pts), 0) if winner == 0 else (0, sum(runs_pts))
        bpts = (sum(bella_pts), 0) if winner == 0 else (0, sum(bella_pts))
        whole = (hand_total, 0) if winner == 0 else (0, hand_total)
        return HandResult(
            Outcome.MISPLAY_PROVEN if misplay.proven else Outcome.MISPLAY_NOT_PROVEN,
            dealer,
            caller,
            calling_team,
            trump,
            cards,
            rpts,
            bpts,
            whole,
            hand_total,
            whole,
            counted_by,
            counted_runs,
            bella_seat,
            misplay.called_by,
            misplay_accused,
        )
    cp = list(card_points)
    if thrown_in_by is not None:
        cp[1 - team_of(thrown_in_by)] += total_cards - sum(card_points)
    taken = [cp[0] + runs_pts[0] + bella_pts[0], cp[1] + runs_pts[1] + bella_pts[1]]
    other = 1 - calling_team
    points = list(taken)
    if 2 * taken[calling_team] > hand_total:
        test = Outcome.MADE
    elif 2 * taken[calling_team] == hand_total and not ruleset.half_bait_is_whole_bait:
        test = Outcome.HALF_BAIT
        points[calling_team] = 0
    else:
        test = Outcome.BAIT
        points[calling_team] = 0
        points[other] = hand_total
    return _make_result(  # every field, in order
        Outcome.THROWN_IN if thrown_in_by is not None else test,
        dealer,
        caller,
        calling_team,
        trump,
        (cp[0], cp[1]),
        runs_pts,
        bella_pts,
        (taken[0], taken[1]),
        hand_total,
        (points[0], points[1]),
        counted_by,
        counted_runs,
        bella_seat,
        None,
        None,
        thrown_in_by,
        test,
    )


def score_summary(ruleset: Ruleset, summary: HandSummary) -> HandResult:
    """Score one score-sheet line; raises :class:`InvalidEntry` naming the field.

    >>> s = HandSummary(dealer=0, caller=1, trump=Suit.SPADES, card_points=(100, 62),
    ...                 runs=(RunShown(3, RunKind.FIFTY, Suit.CLUBS, Rank.ACE),))
    >>> r = score_summary(Ruleset(), s)
    >>> r.outcome.value, r.hand_total, r.taken, r.points
    ('made', 212, (100, 112), (100, 112))
    """
    summary.validate(ruleset)
    return settle(
        ruleset,
        dealer=summary.dealer,
        caller=summary.caller,
        trump=summary.trump,
        card_points=summary.card_points or (0, 0),
        runs=summary.runs,
        run_points=summary.run_points,
        bella_seat=summary.bella_seat,
        thrown_in_by=summary.thrown_in_by,
        misplay=summary.misplay,
        run_counts=summary.run_counts,
    )
