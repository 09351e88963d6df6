"""Bracket structure, resolution of results, and the drawable bracket document.

A :class:`Bracket` is a fixed tree of :class:`BracketMatch` values built once when an
elimination stage starts (see :mod:`tournaments.algorithms.elimination`). Each match has a
stable key (``"W1-3"``, ``"L2-1"``, ``"GF1"``, ``"GF2"``, ``"3P"``), a side, a round number
within its side, and a :class:`SlotSource` for each of its two slots: a seed, the winner or
loser of an earlier match, or a bye.

Results are plain ``{match key: winning slot (0 or 1)}`` mappings. :func:`resolve` replays
them over the structure and says who sits in every slot, which matches are ready to play,
decided or void (a bye, or a grand-final reset that is not needed), and who is champion.
Byes advance on their own, so no result is ever entered for a void match.

>>> from tournaments.algorithms.elimination import single_elimination
>>> bracket = single_elimination(["ace", "king", "queen"])
>>> [m.key for m in bracket.matches]
['W1-1', 'W1-2', 'W2-1']
>>> state = resolve(bracket, {"W1-2": 1})
>>> state.matches["W2-1"].entries, state.matches["W2-1"].status
(('ace', 'queen'), 'ready')
>>> resolve(bracket, {"W1-2": 1, "W2-1": 1}).champion
'queen'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from tournaments.algorithms.common import AlgorithmError, EntryId

Side: TypeAlias = Literal["winners", "losers", "final"]
SourceKind: TypeAlias = Literal["seed", "winner", "loser", "bye"]
MatchStatus: TypeAlias = Literal["pending", "ready", "decided", "void"]
BracketFormat: TypeAlias = Literal["single_elimination", "double_elimination"]
GrandFinal: TypeAlias = Literal["reset", "single", "none"]
Json: TypeAlias = dict[str, "Json"] | list["Json"] | str | int | float | bool | None

SIDES: tuple[Side, ...] = ("winners", "losers", "final")


@dataclass(frozen=True, slots=True)
class SlotSource:
    """Where the entry in one slot of a match comes from."""

    kind: SourceKind
    seed: int | None = None
    match: str | None = None

    @classmethod
    def of_seed(cls, seed: int) -> SlotSource:
        return cls("seed", seed=seed)

    @classmethod
    def winner_of(cls, key: str) -> SlotSource:
        return cls("winner", match=key)

    @classmethod
    def loser_of(cls, key: str) -> SlotSource:
        return cls("loser", match=key)

    @classmethod
    def bye(cls) -> SlotSource:
        return cls("bye")

    def label(self) -> str:
        """A short human label: ``Seed 3``, ``Winner W1-2``, ``Loser W2-1``, ``Bye``."""
        if self.kind == "seed":
            return f"Seed {self.seed}"
        if self.kind == "bye":
            return "Bye"
        return f"{self.kind.capitalize()} {self.match}"

    def as_json(self) -> dict[str, Json]:
        return {"kind": self.kind, "seed": self.seed, "match": self.match}


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of a bracket.

    ``reset_of`` is set on a grand-final reset (``GF2``): it is played only if slot 1 (the
    entry from the losers bracket) wins the match named there, and is void otherwise.
    """

    key: str
    side: Side
    round: int
    number: int
    slots: tuple[SlotSource, SlotSource]
    reset_of: str | None = None


@dataclass(frozen=True, slots=True)
class Feed:
    """Where the winner or loser of a match goes next: ``match`` key and ``slot`` index."""

    outcome: Literal["winner", "loser"]
    match: str
    slot: int


@dataclass(frozen=True)
class Bracket:
    """A whole elimination bracket. ``entries`` are in seed order: seed k is entries[k-1].

    ``matches`` are in an order where every match comes after the matches feeding it.
    ``final_key`` is the match that crowns the champion (``reset_key`` may overrule it).
    """

    format: BracketFormat
    entries: tuple[EntryId, ...]
    size: int
    matches: tuple[BracketMatch, ...]
    final_key: str
    reset_key: str | None = None
    grand_final: GrandFinal | None = None
    third_place: bool = False
    _index: dict[str, BracketMatch] = field(init=False, repr=False, compare=False)
    _feeds: dict[str, tuple[Feed, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, BracketMatch] = {}
        feeds: dict[str, list[Feed]] = {}
        for match in self.matches:
            if match.key in index:
                raise AlgorithmError(
                    f"Match key {match.key} is used twice.", field="matches", code="duplicate"
                )
            for slot, source in enumerate(match.slots):
                if source.kind in ("winner", "loser"):
                    if source.match not in index:
                        raise AlgorithmError(
                            f"Match {match.key} is fed by {source.label()}, "
                            "which does not come before it.",
                            field="matches",
                            code="order",
                        )
                    if match.reset_of is None:
                        outcome: Literal["winner", "loser"] = (
                            "winner" if source.kind == "winner" else "loser"
                        )
                        feeds.setdefault(source.match, []).append(Feed(outcome, match.key, slot))
            index[match.key] = match
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_feeds", {k: tuple(v) for k, v in feeds.items()})

    def match(self, key: str) -> BracketMatch:
        """The match with ``key``; :class:`AlgorithmError` if there is none."""
        try:
            return self._index[key]
        except KeyError:
            raise AlgorithmError(
                f"There is no match {key!r} in this bracket.", field="match", code="unknown"
            ) from None

    def feeds(self, key: str) -> tuple[Feed, ...]:
        """Where the winner and loser of match ``key`` go (empty for the last matches)."""
        self.match(key)
        return self._feeds.get(key, ())

    def round_count(self) -> int:
        """Number of distinct (side, round) columns: what a client draws as rounds."""
        return len({(m.side, m.round) for m in self.matches})


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of one match after replaying results.

    ``entries`` holds the occupant of each slot (``None`` while unknown or for a bye).
    """

    key: str
    status: MatchStatus
    entries: tuple[EntryId | None, EntryId | None]
    winner_slot: int | None = None
    winner: EntryId | None = None
    loser: EntryId | None = None


@dataclass(frozen=True)
class BracketState:
    """Result of :func:`resolve`: one :class:`MatchState` per match key, and the champion."""

    matches: Mapping[str, MatchState]
    champion: EntryId | None

    @property
    def finished(self) -> bool:
        """True when every match is decided or void and there is a champion."""
        return self.champion is not None and all(
            m.status in ("decided", "void") for m in self.matches.values()
        )

    def with_status(self, status: MatchStatus) -> tuple[str, ...]:
        """Keys of the matches in ``status``, in bracket order."""
        return tuple(key for key, m in self.matches.items() if m.status == status)


def _empty_slots(bracket: Bracket) -> dict[str, tuple[bool, bool]]:
    """Which slots can never hold an entry (byes, and what byes leave behind)."""
    empty: dict[str, tuple[bool, bool]] = {}
    for match in bracket.matches:
        flags: list[bool] = []
        for source in match.slots:
            if source.kind == "bye":
                flags.append(True)
            elif source.kind == "seed":
                flags.append(False)
            else:
                feeder = empty[str(source.match)]
                flags.append(all(feeder) if source.kind == "winner" else any(feeder))
        empty[match.key] = (flags[0], flags[1])
    return empty


def _check_results(bracket: Bracket, results: Mapping[str, int]) -> None:
    for key, slot in results.items():
        if key not in bracket._index:
            raise AlgorithmError(
                f"There is no match {key!r} in this bracket.",
                field=f"results.{key}",
                code="unknown_match",
            )
        if isinstance(slot, bool) or slot not in (0, 1):
            raise AlgorithmError(
                f"The winner of {key} must be slot 0 or 1, not {slot!r}.",
                field=f"results.{key}",
                code="invalid_slot",
            )


def resolve(bracket: Bracket, results: Mapping[str, int]) -> BracketState:
    """Replay ``results`` (match key -> winning slot) over ``bracket``.

    Raises :class:`AlgorithmError` (field ``results.<key>``) for an unknown match, a slot
    other than 0 or 1, a result for a void match, or a result for a match whose entries are
    not both known yet.
    """
    _check_results(bracket, results)
    empty = _empty_slots(bracket)
    states: dict[str, MatchState] = {}
    for match in bracket.matches:
        occupants: list[EntryId | None] = []
        for source in match.slots:
            if source.kind == "seed":
                occupants.append(bracket.entries[int(source.seed or 0) - 1])
            elif source.kind == "winner":
                occupants.append(states[str(source.match)].winner)
            elif source.kind == "loser":
                occupants.append(states[str(source.match)].loser)
            else:
                occupants.append(None)
        entries = (occupants[0], occupants[1])
        result = results.get(match.key)
        states[match.key] = _match_state(match, entries, empty[match.key], result, states)
    return BracketState(states, _champion(bracket, states))


def _match_state(
    match: BracketMatch,
    entries: tuple[EntryId | None, EntryId | None],
    empty: tuple[bool, bool],
    result: int | None,
    states: Mapping[str, MatchState],
) -> MatchState:
    key = match.key
    void = any(empty)
    if match.reset_of is not None:
        first = states[match.reset_of]
        if first.status == "decided" and first.winner_slot == 0:
            void = True
        elif first.status != "decided":
            if result is not None:
                raise AlgorithmError(
                    f"{key} is only played after {match.reset_of} is decided.",
                    field=f"results.{key}",
                    code="not_ready",
                )
            return MatchState(key, "pending", entries)
    if void:
        if result is not None:
            raise AlgorithmError(
                f"{key} is not played (a bye or an unneeded reset); it takes no result.",
                field=f"results.{key}",
                code="void_match",
            )
        if match.reset_of is not None:
            return MatchState(key, "void", entries)
        present = entries[1] if empty[0] else entries[0]
        winner = None if all(empty) else present
        return MatchState(key, "void", entries, None, winner, None)
    if entries[0] is None or entries[1] is None:
        if result is not None:
            raise AlgorithmError(
                f"{key} cannot have a result before both of its entries are known.",
                field=f"results.{key}",
                code="not_ready",
            )
        return MatchState(key, "pending", entries)
    if result is None:
        return MatchState(key, "ready", entries)
    return MatchState(key, "decided", entries, result, entries[result], entries[1 - result])


def _champion(bracket: Bracket, states: Mapping[str, MatchState]) -> EntryId | None:
    if bracket.reset_key is not None:
        reset = states[bracket.reset_key]
        if reset.status == "decided":
            return reset.winner
        if reset.status != "void":
            return None
    final = states[bracket.final_key]
    return final.winner if final.status == "decided" else None


def dependents(bracket: Bracket, key: str) -> tuple[str, ...]:
    """Keys of every match whose entries depend, directly or not, on the result of ``key``.

    When a result changes, these are the matches to re-open (in bracket order).

    >>> from tournaments.algorithms.elimination import single_elimination
    >>> dependents(single_elimination(list(range(1, 9))), "W1-2")
    ('W2-1', 'W3-1')
    """
    bracket.match(key)
    reached: set[str] = set()
    todo = [key]
    while todo:
        current = todo.pop()
        targets = [feed.match for feed in bracket.feeds(current)]
        targets.extend(m.key for m in bracket.matches if m.reset_of == current)
        for target in targets:
            if target not in reached:
                reached.add(target)
                todo.append(target)
    return tuple(m.key for m in bracket.matches if m.key in reached)


def feed_lists(bracket: Bracket) -> dict[str, list[dict[str, Json]]]:
    """Per match key, every slot its result fills, for a store that moves entries on one
    result at a time without replaying the bracket.

    Each item is ``{"outcome": "winner" | "loser", "match": key, "slot": 0 | 1}``; a slot of
    a grand-final reset also says ``"reset": True`` (it is filled, but the reset is played
    only if the match it resets says so), and the match a reset depends on has
    ``{"outcome": "decides", "match": reset key, "slot": None}``.

    >>> from tournaments.algorithms.elimination import double_elimination
    >>> feeds = feed_lists(double_elimination([1, 2]))
    >>> [(f["outcome"], f["match"], f["slot"]) for f in feeds["W1-1"]]
    [('winner', 'GF1', 0), ('loser', 'GF1', 1), ('winner', 'GF2', 0), ('loser', 'GF2', 1)]
    >>> feeds["GF1"]
    [{'outcome': 'decides', 'match': 'GF2', 'slot': None}]
    """
    lists: dict[str, list[dict[str, Json]]] = {m.key: [] for m in bracket.matches}
    for match in bracket.matches:
        for slot, source in enumerate(match.slots):
            if source.kind in ("winner", "loser"):
                item: dict[str, Json] = {"outcome": source.kind, "match": match.key, "slot": slot}
                if match.reset_of is not None:
                    item["reset"] = True
                lists[str(source.match)].append(item)
        if match.reset_of is not None:
            lists[match.reset_of].append({"outcome": "decides", "match": match.key, "slot": None})
    return lists


def change_result(
    bracket: Bracket,
    results: Mapping[str, int],
    key: str,
    winner_slot: int | None,
    *,
    reset_later: bool = False,
) -> dict[str, int]:
    """The results after entering, changing or (``winner_slot=None``) clearing ``key``.

    A change that alters the outcome of a decided match would move entries in every match
    that depends on it. If any of those already has a result the change is refused with
    code ``played_after`` (naming them), unless ``reset_later`` is set: then their results
    are dropped and they are re-opened. The returned results are checked with
    :func:`resolve`.

    >>> from tournaments.algorithms.elimination import single_elimination
    >>> bracket = single_elimination([1, 2, 3, 4])
    >>> change_result(bracket, {"W1-1": 0, "W2-1": 0}, "W1-1", 1, reset_later=True)
    {'W1-1': 1}
    """
    bracket.match(key)
    updated = dict(results)
    previous = updated.get(key)
    if previous is not None and previous != winner_slot:
        played = [k for k in dependents(bracket, key) if k in updated]
        if played and not reset_later:
            raise AlgorithmError(
                f"{key} cannot change: {', '.join(played)} already "
                f"{'has a result' if len(played) == 1 else 'have results'} that depend on it.",
                field=f"results.{key}",
                code="played_after",
            )
        for later in played:
            del updated[later]
    if winner_slot is None:
        updated.pop(key, None)
    else:
        updated[key] = winner_slot
    resolve(bracket, updated)
    return updated


def _name(names: Mapping[EntryId, str] | None, entry: EntryId | None) -> str | None:
    if entry is None:
        return None
    if names is None:
        return str(entry)
    return names.get(entry, str(entry))


def _round_name(bracket: Bracket, side: Side, rnd: int, last: int) -> str:
    if side == "final":
        if bracket.format == "single_elimination":
            return "Third place"
        return "Grand final" if rnd == 1 else "Grand final reset"
    from_end = last - rnd
    if side == "losers":
        return "Losers final" if from_end == 0 else f"Losers round {rnd}"
    prefix = "" if bracket.format == "single_elimination" else "Winners "
    names = ("final", "semi-finals", "quarter-finals")
    if from_end < len(names):
        name = prefix + names[from_end]
        return name[0].upper() + name[1:]
    return f"{prefix}round {rnd}".capitalize()


def round_names(bracket: Bracket) -> dict[tuple[Side, int], str]:
    """The name of every round of the bracket by side and number, in bracket order:
    ``"Quarter-finals"``, ``"Losers round 3"``, ``"Grand final reset"``...

    >>> from tournaments.algorithms.elimination import single_elimination
    >>> list(round_names(single_elimination([1, 2, 3, 4], third_place=True)).values())
    ['Semi-finals', 'Final', 'Third place']
    """
    last: dict[Side, int] = {}
    for match in bracket.matches:
        last[match.side] = max(last.get(match.side, 0), match.round)
    return {
        (m.side, m.round): _round_name(bracket, m.side, m.round, last[m.side])
        for m in bracket.matches
    }


def bracket_document(
    bracket: Bracket,
    results: Mapping[str, int] | None = None,
    *,
    names: Mapping[EntryId, str] | None = None,
) -> dict[str, Any]:
    """A plain JSON-able description of the bracket that a client can draw.

    ``names`` (entry id -> display name) adds a ``name`` beside every entry id.

    Only dicts, lists, str, int, bool and None inside (typed ``Any`` for the caller's ease).

    Sides hold rounds, rounds hold matches; each match lists its two slots with their
    source and current occupant, its status, the result, and where winner and loser go.
    """
    state = resolve(bracket, results or {})
    columns: dict[Side, dict[int, list[Json]]] = {}
    for match in bracket.matches:
        ms = state.matches[match.key]
        slots: list[Json] = [
            {
                "source": source.as_json(),
                "label": source.label(),
                "entry": entry,
                "name": _name(names, entry),
            }
            for source, entry in zip(match.slots, ms.entries, strict=True)
        ]
        feeds: list[Json] = [
            {"outcome": f.outcome, "match": f.match, "slot": f.slot}
            for f in bracket._feeds.get(match.key, ())
        ]
        doc: dict[str, Json] = {
            "key": match.key,
            "side": match.side,
            "round": match.round,
            "number": match.number,
            "reset_of": match.reset_of,
            "status": ms.status,
            "slots": slots,
            "winner_slot": ms.winner_slot,
            "winner": ms.winner,
            "loser": ms.loser,
            "feeds": feeds,
        }
        columns.setdefault(match.side, {}).setdefault(match.round, []).append(doc)
    sides: list[Json] = []
    names_of_rounds = round_names(bracket)
    for side in SIDES:
        rounds = columns.get(side)
        if not rounds:
            continue
        side_rounds: list[Json] = [
            {"round": rnd, "name": names_of_rounds[(side, rnd)], "matches": rounds[rnd]}
            for rnd in sorted(rounds)
        ]
        sides.append({"side": side, "rounds": side_rounds})
    entries: list[Json] = [
        {"seed": seed, "entry": entry, "name": _name(names, entry)}
        for seed, entry in enumerate(bracket.entries, start=1)
    ]
    return {
        "format": bracket.format,
        "size": bracket.size,
        "grand_final": bracket.grand_final,
        "third_place": bracket.third_place,
        "entries": entries,
        "sides": sides,
        "match_count": len(bracket.matches),
        "round_count": bracket.round_count(),
        "champion": state.champion,
        "champion_name": _name(names, state.champion),
        "finished": state.finished,
    }
