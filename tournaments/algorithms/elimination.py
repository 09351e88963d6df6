"""Single and double elimination brackets, and final placements of a finished bracket.

Entries are given in seed order. The bracket is the next power of two in size; the missing
seeds are byes, which by the standard order fall to the top seeds in the first round.

Keys: ``W<round>-<n>`` (winners bracket), ``L<round>-<n>`` (losers bracket), ``GF1`` and
``GF2`` (grand final and its reset), ``3P`` (third-place match).

>>> single = single_elimination(list(range(1, 17)))
>>> len(single.matches), single.round_count()
(15, 4)
>>> double = double_elimination(list(range(1, 17)), grand_final="single")
>>> len(double.matches), double.round_count()
(30, 11)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.algorithms.bracket import (
    Bracket,
    BracketMatch,
    BracketState,
    GrandFinal,
    SlotSource,
    resolve,
)
from tournaments.algorithms.common import AlgorithmError, EntryId, require_unique
from tournaments.algorithms.seeding import bracket_order, bracket_size

GRAND_FINALS: tuple[GrandFinal, ...] = ("reset", "single", "none")


def _winners_bracket(entry_count: int, size: int) -> list[BracketMatch]:
    order = bracket_order(size)
    matches: list[BracketMatch] = []
    first = [
        SlotSource.of_seed(seed) if seed <= entry_count else SlotSource.bye() for seed in order
    ]
    for number in range(1, size // 2 + 1):
        slots = (first[2 * number - 2], first[2 * number - 1])
        matches.append(BracketMatch(f"W1-{number}", "winners", 1, number, slots))
    rnd, count = 2, size // 4
    while count >= 1:
        for number in range(1, count + 1):
            slots = (
                SlotSource.winner_of(f"W{rnd - 1}-{2 * number - 1}"),
                SlotSource.winner_of(f"W{rnd - 1}-{2 * number}"),
            )
            matches.append(BracketMatch(f"W{rnd}-{number}", "winners", rnd, number, slots))
        rnd, count = rnd + 1, count // 2
    return matches


def _check_entries(entries: Sequence[EntryId]) -> int:
    require_unique(entries, field="entries")
    return bracket_size(len(entries))


def single_elimination(entries: Sequence[EntryId], *, third_place: bool = False) -> Bracket:
    """A single elimination bracket with standard seeding and an optional third-place match.

    >>> bracket = single_elimination(list(range(1, 9)), third_place=True)
    >>> len(bracket.matches), bracket.matches[-1].key
    (8, '3P')
    """
    size = _check_entries(entries)
    rounds = size.bit_length() - 1
    matches = _winners_bracket(len(entries), size)
    if third_place:
        if rounds < 2:
            raise AlgorithmError(
                "A third-place match needs at least three entries.",
                field="third_place",
                code="too_few",
            )
        semis = (
            SlotSource.loser_of(f"W{rounds - 1}-1"),
            SlotSource.loser_of(f"W{rounds - 1}-2"),
        )
        matches.append(BracketMatch("3P", "final", 1, 1, semis))
    return Bracket(
        format="single_elimination",
        entries=tuple(entries),
        size=size,
        matches=tuple(matches),
        final_key=f"W{rounds}-1",
        third_place=third_place,
    )


def _drop_order(count: int, drop_round: int) -> list[int]:
    """Order in which the losers of a winners round drop into the losers bracket.

    Alternately reversed and half-swapped, so a dropping entry does not meet again, at once,
    the entries its own part of the winners bracket already sent down.
    """
    numbers = list(range(1, count + 1))
    if drop_round % 2 == 1:
        return numbers[::-1]
    half = count // 2
    return numbers[half:] + numbers[:half]


def double_elimination(entries: Sequence[EntryId], *, grand_final: GrandFinal = "reset") -> Bracket:
    """A double elimination bracket.

    ``grand_final``: ``"reset"`` plays ``GF1`` and, only if the losers-bracket entry wins it,
    ``GF2``; ``"single"`` plays ``GF1`` alone; ``"none"`` plays no grand final: the
    winners-bracket champion is the champion and the losers-bracket champion is second.

    >>> bracket = double_elimination(list(range(1, 9)))
    >>> len(bracket.matches), [m.key for m in bracket.matches if m.side == "final"]
    (15, ['GF1', 'GF2'])
    """
    if grand_final not in GRAND_FINALS:
        raise AlgorithmError(
            f"grand_final must be one of {', '.join(GRAND_FINALS)}.",
            field="grand_final",
            code="invalid",
        )
    size = _check_entries(entries)
    rounds = size.bit_length() - 1
    matches = _winners_bracket(len(entries), size)
    if rounds == 1:
        losers_champion = SlotSource.loser_of("W1-1")
    else:
        count = size // 4
        for number in range(1, count + 1):
            slots = (
                SlotSource.loser_of(f"W1-{2 * number - 1}"),
                SlotSource.loser_of(f"W1-{2 * number}"),
            )
            matches.append(BracketMatch(f"L1-{number}", "losers", 1, number, slots))
        for drop in range(1, rounds):
            lrnd = 2 * drop
            order = _drop_order(count, drop)
            for number in range(1, count + 1):
                slots = (
                    SlotSource.winner_of(f"L{lrnd - 1}-{number}"),
                    SlotSource.loser_of(f"W{drop + 1}-{order[number - 1]}"),
                )
                matches.append(BracketMatch(f"L{lrnd}-{number}", "losers", lrnd, number, slots))
            if drop == rounds - 1:
                break
            count //= 2
            for number in range(1, count + 1):
                slots = (
                    SlotSource.winner_of(f"L{lrnd}-{2 * number - 1}"),
                    SlotSource.winner_of(f"L{lrnd}-{2 * number}"),
                )
                matches.append(
                    BracketMatch(f"L{lrnd + 1}-{number}", "losers", lrnd + 1, number, slots)
                )
        losers_champion = SlotSource.winner_of(f"L{2 * (rounds - 1)}-1")
    winners_final = f"W{rounds}-1"
    final_key, reset_key = winners_final, None
    if grand_final != "none":
        final = (SlotSource.winner_of(winners_final), losers_champion)
        matches.append(BracketMatch("GF1", "final", 1, 1, final))
        final_key = "GF1"
        if grand_final == "reset":
            matches.append(BracketMatch("GF2", "final", 2, 1, final, reset_of="GF1"))
            reset_key = "GF2"
    return Bracket(
        format="double_elimination",
        entries=tuple(entries),
        size=size,
        matches=tuple(matches),
        final_key=final_key,
        reset_key=reset_key,
        grand_final=grand_final,
    )


@dataclass(frozen=True, slots=True)
class Placement:
    """Final place of one entry; entries knocked out in the same round share a place."""

    entry: EntryId
    place: int


def final_placements(
    bracket: Bracket, results: Mapping[str, int] | BracketState
) -> tuple[Placement, ...]:
    """Places of every entry of a finished bracket, best first (ties by seed).

    Entries knocked out in the same round share the place just below everyone who went
    further, e.g. the two losing semi-finalists are both 3rd without a third-place match.

    >>> bracket = single_elimination([1, 2, 3, 4])
    >>> [(p.entry, p.place) for p in final_placements(bracket, {"W1-1": 0, "W1-2": 0, "W2-1": 1})]
    [(2, 1), (1, 2), (3, 3), (4, 3)]
    """
    state = results if isinstance(results, BracketState) else resolve(bracket, results)
    if not state.finished or state.champion is None:
        raise AlgorithmError(
            "Placements need a finished bracket.", field="results", code="unfinished"
        )
    last_loss: dict[EntryId, BracketMatch] = {}
    won: set[tuple[EntryId, str]] = set()
    for match in bracket.matches:
        ms = state.matches[match.key]
        if ms.status == "decided" and ms.loser is not None and ms.winner is not None:
            last_loss[ms.loser] = match
            won.add((ms.winner, match.key))
    rounds = bracket.size.bit_length() - 1
    top = (4 * rounds + 10, 0)
    standing: dict[EntryId, tuple[int, int]] = {}
    for entry in bracket.entries:
        loss = last_loss.get(entry)
        if entry == state.champion:
            standing[entry] = top
        elif loss is None or (
            bracket.format == "double_elimination" and loss.side in ("winners", "final")
        ):
            # Lost the grand final, or (no grand final) won the losers bracket.
            standing[entry] = (top[0] - 1, 0)
        elif loss.key == "3P":
            standing[entry] = (rounds - 1, 1)
        elif (entry, "3P") in won:
            standing[entry] = (rounds - 1, 2)
        else:
            standing[entry] = (loss.round, 0)
    seeds = {entry: seed for seed, entry in enumerate(bracket.entries, start=1)}
    ordered = sorted(bracket.entries, key=lambda e: (-standing[e][0], -standing[e][1], seeds[e]))
    return tuple(
        Placement(e, 1 + sum(1 for other in bracket.entries if standing[other] > standing[e]))
        for e in ordered
    )
