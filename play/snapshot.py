"""The engine's position of a hand as plain JSON, and back: what a move loads and saves.

The ruleset and the deal are not in it (they are the table's and the hand's own columns);
everything else of :class:`scoring.engine.HandState` is, so loading a snapshot gives the very
position replaying the log gives (tested against :func:`scoring.engine.replay`).
"""

from __future__ import annotations

from typing import Any

from scoring.engine import (
    Deal,
    HandState,
    Ruleset,
    RunShown,
    action_from_json,
    action_to_json,
    parse_suit,
)


def dump(state: HandState) -> dict[str, Any]:
    """The position as JSON (without its ruleset and deal)."""
    return {
        "dealer": state.dealer,
        "scores": list(state.scores),
        "phase": state.phase,
        "passes": state.passes,
        "caller": state.caller,
        "trump": None if state.trump is None else state.trump.value,
        "held": list(state.held),
        "tricks": [list(t) for t in state.tricks],
        "winners": list(state.winners),
        "current": list(state.current),
        "leader": state.leader,
        "announced": state.announced,
        "shown": [r.to_json() for r in state.shown],
        "bella_seat": state.bella_seat,
        "thrown_in_by": state.thrown_in_by,
        "last": None if state.last is None else action_to_json(state.last),
        "forced_seat": state.forced_seat,
    }


def load(ruleset: Ruleset, deal: Deal, data: dict[str, Any]) -> HandState:
    """The position a :func:`dump` stored, with the hand's ruleset and deal."""
    held = data["held"]
    return HandState(
        ruleset=ruleset,
        dealer=data["dealer"],
        deal=deal,
        scores=(data["scores"][0], data["scores"][1]),
        phase=data["phase"],
        passes=data["passes"],
        caller=data["caller"],
        trump=None if data["trump"] is None else parse_suit(data["trump"]),
        held=(held[0], held[1], held[2], held[3]),
        tricks=tuple(tuple(t) for t in data["tricks"]),
        winners=tuple(data["winners"]),
        current=tuple(data["current"]),
        leader=data["leader"],
        announced=data["announced"],
        shown=tuple(RunShown.from_json(r) for r in data["shown"]),
        bella_seat=data["bella_seat"],
        thrown_in_by=data["thrown_in_by"],
        last=None if data["last"] is None else action_from_json(data["last"]),
        forced_seat=data["forced_seat"],
    )
