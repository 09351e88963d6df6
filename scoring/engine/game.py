"""The game: running totals, who deals next, who is forced to call, game over and winner.

The deal passes to the left every hand, void hands included: the dealer of hand n (1-based)
is ``(first_dealer + n - 1) % 4``. The game ends after the hand in which one or both teams
reach the target. Both over in the same hand: the higher total wins and an exact tie plays
another hand (switch ``both_over="caller"``: the calling team of that hand wins).

Under ``forced_at`` a team with more than that many points may not let the call reach an
opposing dealer: the player on the dealer's right must call. Both teams over: the team with
more points is forced. On an exact tie with both over, both teams are forced, and only the
team not dealing can be bound by it, so the player on the dealer's right is forced (a decision
of this project; the texts are silent).

>>> from scoring.engine.scoring import HandResult, Outcome
>>> def hand(dealer, points, caller=0):
...     return HandResult(Outcome.MADE, dealer, caller, caller % 2, None, points, (0, 0),
...                       (0, 0), points, sum(points), points)
>>> g = game_progress(Ruleset(forced_at=400), 0, [hand(0, (300, 0)), hand(1, (120, 42))])
>>> g.totals, g.next_dealer, g.forced_team, g.forced_seat, g.over
((420, 42), 2, 0, None, False)
>>> game_progress(Ruleset(), 0, [hand(0, (500, 0))]).winner
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import _parse
from scoring.engine.cards import team_of
from scoring.engine.errors import InvalidEntry
from scoring.engine.ruleset import Ruleset
from scoring.engine.scoring import HandResult

__all__ = [
    "FINAL_TOTAL_MAX",
    "GameProgress",
    "check_forced_call",
    "dealer_of_hand",
    "final_winner",
    "forced_call",
    "game_progress",
    "game_progress_after",
]


@dataclass(frozen=True, slots=True)
class GameProgress:
    """Where a game stands after some hands."""

    totals: tuple[int, int]
    #: Totals after each hand.
    running: tuple[tuple[int, int], ...]
    hands_played: int
    next_dealer: int
    #: The seat that must call if the call reaches it (under ``forced_at``), when it binds.
    forced_seat: int | None
    #: The team that is forced (over ``forced_at``), whether or not it binds this deal.
    forced_team: int | None
    over: bool
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "running": [list(t) for t in self.running],
            "hands_played": self.hands_played,
            "next_dealer": self.next_dealer,
            "forced_seat": self.forced_seat,
            "forced_team": self.forced_team,
            "over": self.over,
            "winner": self.winner,
        }


def dealer_of_hand(first_dealer: int, number: int) -> int:
    """The dealer of hand ``number`` (1-based).

    >>> [dealer_of_hand(2, n) for n in (1, 2, 3, 4, 5)]
    [2, 3, 0, 1, 2]
    """
    return (first_dealer + number - 1) % 4


def forced_call(
    ruleset: Ruleset, dealer: int, totals: tuple[int, int]
) -> tuple[int | None, int | None]:
    """(forced seat or None, forced team or None) for a hand dealt by ``dealer``.

    >>> forced_call(Ruleset(forced_at=400), 1, (410, 300))
    (0, 0)
    >>> forced_call(Ruleset(forced_at=400), 0, (410, 300))
    (None, 0)
    >>> forced_call(Ruleset(forced_at=400), 0, (450, 450))
    (3, 1)
    """
    if ruleset.forced_at is None:
        return None, None
    over = [t > ruleset.forced_at for t in totals]
    team: int | None
    if over[0] and over[1]:
        # an exact tie forces both teams; only the team not dealing can be bound by it
        higher = 0 if totals[0] > totals[1] else 1
        team = 1 - team_of(dealer) if totals[0] == totals[1] else higher
    elif over[0]:
        team = 0
    elif over[1]:
        team = 1
    else:
        return None, None
    seat = (dealer + 3) % 4 if team != team_of(dealer) else None
    return seat, team


def check_forced_call(
    ruleset: Ruleset, dealer: int, totals: tuple[int, int], caller: int | None
) -> None:
    """Refuse a hand the forced call rules out: under ``forced_at``, when the player on the
    dealer's right is forced (see :func:`forced_call`), the call never reaches the dealer, so
    the dealer cannot be the caller and the hand cannot be passed out. ``totals`` are the
    scores before the hand; ``caller`` None is a hand all passed.

    >>> check_forced_call(Ruleset(forced_at=400), 1, (410, 300), 1)
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: seat 0 must call when the call reaches them (their team has more than 400), so the call cannot reach the dealer, seat 1
    """  # noqa: E501
    seat, _ = forced_call(ruleset, dealer, totals)
    if seat is None or (caller is not None and caller != dealer):
        return
    why = (
        f"seat {seat} must call when the call reaches them "
        f"(their team has more than {ruleset.forced_at})"
    )
    if caller is None:
        message = f"{why}, so the hand cannot be passed out"
    else:
        message = f"{why}, so the call cannot reach the dealer, seat {dealer}"
    raise InvalidEntry(message, code="forced_call", field="caller")


def game_progress(
    ruleset: Ruleset, first_dealer: int, results: Sequence[HandResult]
) -> GameProgress:
    """Running totals, next dealer, forced call, game over and winner after these hands.

    >>> game_progress(Ruleset(), first_dealer=1, results=[]).next_dealer
    1
    """
    _parse.seat(first_dealer, "first_dealer")
    totals = [0, 0]
    running: list[tuple[int, int]] = []
    over = False
    winner: int | None = None
    for i, r in enumerate(results):
        if over:
            raise InvalidEntry(
                f"the game was already over after hand {i}", code="game_over", field=f"results.{i}"
            )
        expected = dealer_of_hand(first_dealer, i + 1)
        if r.dealer != expected:
            raise InvalidEntry(
                f"hand {i + 1} is dealt by seat {expected}, not seat {r.dealer}",
                code="wrong_dealer",
                field=f"results.{i}.dealer",
            )
        totals[0] += r.points[0]
        totals[1] += r.points[1]
        running.append((totals[0], totals[1]))
        reached = [t >= ruleset.target for t in totals]
        if reached[0] and reached[1]:
            if ruleset.both_over == "caller" and r.calling_team is not None:
                over, winner = True, r.calling_team
            elif totals[0] != totals[1]:
                over, winner = True, (0 if totals[0] > totals[1] else 1)
        elif reached[0] or reached[1]:
            over, winner = True, (0 if reached[0] else 1)
    next_dealer = dealer_of_hand(first_dealer, len(results) + 1)
    seat, team = forced_call(ruleset, next_dealer, (totals[0], totals[1]))
    return GameProgress(
        totals=(totals[0], totals[1]),
        running=tuple(running),
        hands_played=len(results),
        next_dealer=next_dealer,
        forced_seat=None if over else seat,
        forced_team=None if over else team,
        over=over,
        winner=winner,
    )


def game_progress_after(
    ruleset: Ruleset, progress: GameProgress, result: HandResult
) -> GameProgress:
    """Where the game stands after one more hand, from where it stood before it.

    When ``progress`` is ``game_progress(ruleset, first_dealer, results)``, the answer is
    ``game_progress(ruleset, first_dealer, [*results, result])`` (with the same errors), found
    without going over the earlier hands again: entering a hand costs the same at hand 40 as
    at hand 1. ``running`` is ``progress.running`` with the new totals added.

    >>> from scoring.engine.scoring import HandResult, Outcome
    >>> def hand(dealer, points, caller=0):
    ...     return HandResult(Outcome.MADE, dealer, caller, caller % 2, None, points, (0, 0),
    ...                       (0, 0), points, sum(points), points)
    >>> before = game_progress(Ruleset(forced_at=400), 0, [hand(0, (300, 0))])
    >>> g = game_progress_after(Ruleset(forced_at=400), before, hand(1, (120, 42)))
    >>> g == game_progress(Ruleset(forced_at=400), 0, [hand(0, (300, 0)), hand(1, (120, 42))])
    True
    """
    i = progress.hands_played
    if progress.over:
        raise InvalidEntry(
            f"the game was already over after hand {i}", code="game_over", field=f"results.{i}"
        )
    if result.dealer != progress.next_dealer:
        raise InvalidEntry(
            f"hand {i + 1} is dealt by seat {progress.next_dealer}, not seat {result.dealer}",
            code="wrong_dealer",
            field=f"results.{i}.dealer",
        )
    totals = (progress.totals[0] + result.points[0], progress.totals[1] + result.points[1])
    over = False
    winner: int | None = None
    reached = (totals[0] >= ruleset.target, totals[1] >= ruleset.target)
    if reached[0] and reached[1]:
        if ruleset.both_over == "caller" and result.calling_team is not None:
            over, winner = True, result.calling_team
        elif totals[0] != totals[1]:
            over, winner = True, (0 if totals[0] > totals[1] else 1)
    elif reached[0] or reached[1]:
        over, winner = True, (0 if reached[0] else 1)
    next_dealer = (progress.next_dealer + 1) % 4
    seat, team = forced_call(ruleset, next_dealer, totals)
    return GameProgress(
        totals=totals,
        running=(*progress.running, totals),
        hands_played=i + 1,
        next_dealer=next_dealer,
        forced_seat=None if over else seat,
        forced_team=None if over else team,
        over=over,
        winner=winner,
    )


#: The largest final total a game recorded by its totals may show (what a total column holds
#: is far more; no game to any target the rulesets allow ends anywhere near it).
FINAL_TOTAL_MAX = 200_000


def final_winner(ruleset: Ruleset, totals: tuple[int, int], winner: int | None = None) -> int:
    """The team that won a game played on paper, from its final totals alone (no hands).

    The totals must be those of a game over by the rules: one team at the target or more.
    A team under the target cannot have won. Both teams over: the higher total won, and level
    totals are a game not yet over; under ``both_over="caller"`` the calling team of the last
    hand won, which the totals cannot tell, so ``winner`` must say it (0 or 1). ``winner``
    given otherwise must agree with the totals.

    >>> final_winner(Ruleset(), (512, 371))
    0
    >>> final_winner(Ruleset(), (540, 560))
    1
    >>> final_winner(Ruleset(both_over="caller"), (540, 560), winner=0)
    0
    >>> final_winner(Ruleset(), (420, 371))
    Traceback (most recent call last):
    ...
    scoring.engine.errors.InvalidEntry: a game is over only when a team reaches 500 points: neither total does
    """  # noqa: E501
    for team, total in enumerate(totals):
        if isinstance(total, bool) or not isinstance(total, int):
            raise InvalidEntry(
                f"a total is a whole number of points, not {total!r}",
                code="bad_value",
                field=f"totals.{team}",
            )
        if not 0 <= total <= FINAL_TOTAL_MAX:
            raise InvalidEntry(
                f"a final total is from 0 to {FINAL_TOTAL_MAX} points, not {total}",
                code="bad_value",
                field=f"totals.{team}",
            )
    if winner is not None and winner not in (0, 1):
        raise InvalidEntry(
            f"the winner is team 0 or team 1, not {winner!r}", code="bad_value", field="winner"
        )
    target = ruleset.target
    reached = (totals[0] >= target, totals[1] >= target)
    if not any(reached):
        raise InvalidEntry(
            f"a game is over only when a team reaches {target} points: neither total does",
            code="game_not_over",
            field="totals",
        )
    if reached[0] != reached[1]:
        found = 0 if reached[0] else 1
    elif ruleset.both_over == "caller":
        if winner is None:
            raise InvalidEntry(
                f"both teams reached {target}: under these rules the team that called the last "
                "hand won, which the totals do not say; name the winner",
                code="winner_needed",
                field="winner",
            )
        found = winner
    elif totals[0] == totals[1]:
        raise InvalidEntry(
            f"both teams on {totals[0]}: level totals over the target play another hand, so "
            "the game was not over",
            code="game_not_over",
            field="totals",
        )
    else:
        found = 0 if totals[0] > totals[1] else 1
    if winner is not None and winner != found:
        raise InvalidEntry(
            f"the totals say team {found} won, not team {winner}: a team under the target, or "
            "with the lower total when both are over, did not win",
            code="wrong_winner",
            field="winner",
        )
    return found
