"""A hand's entry (a score-sheet summary or a trick record) read and scored by the engine,
and the result stored on the hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import (
    HandResult,
    HandSummary,
    InvalidEntry,
    MisplayCall,
    Ruleset,
    TrickRecord,
    derive_card_points,
    score_misplay,
    score_summary,
    score_tricks,
)
from scoring.models import Hand, MisplayDispute


def _entry_object(entry: object) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise InvalidEntry("a hand entry must be an object", code="bad_json", field="entry")
    return dict(entry)


def _team_number(value: object) -> int:
    names = {"team_a": 0, "a": 0, "team_b": 1, "b": 1}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise InvalidEntry(
        f'the team must be "team_a" or "team_b", not {value!r}',
        code="bad_team",
        field="card_points.team",
    )


def _with_dealer(data: dict[str, Any], dealer: int, number: int) -> dict[str, Any]:
    given = data.get("dealer")
    # ``true`` equals 1 in Python: a seat is a whole number, never a boolean.
    if given is not None and (isinstance(given, bool) or given != dealer):
        raise InvalidEntry(
            f"hand {number} is dealt by seat {dealer}, not seat {given!r}",
            code="wrong_dealer",
            field="dealer",
        )
    data["dealer"] = dealer
    return data


def _summary_of(entry: Mapping[str, Any], dealer: int, number: int) -> HandSummary:
    """The engine's score-sheet line from a summary entry.

    Card points may be both teams' (``[92, 70]``) or one team's count
    (``{"team": "team_b", "points": 70}``), the other derived by the engine.
    """
    data = _with_dealer(_entry_object(entry), dealer, number)
    card_points = data.get("card_points")
    if isinstance(card_points, Mapping):
        if data.get("thrown_in_by") is not None:
            raise InvalidEntry(
                "a thrown-in hand needs both teams' card points as won when it was thrown in",
                code="card_points_both",
                field="card_points",
            )
        team = _team_number(card_points.get("team"))
        points = card_points.get("points")
        if not isinstance(points, int):
            raise InvalidEntry(
                f"card points must be a whole number, not {points!r}",
                code="card_points_impossible",
                field="card_points.points",
            )
        no_trump = data.get("trump") is None and data.get("caller") is not None
        data["card_points"] = list(derive_card_points(team, points, trump_is_none=no_trump))
    return HandSummary.from_json(data)


def _record_of(entry: Mapping[str, Any], dealer: int, number: int) -> tuple[TrickRecord, Any]:
    """The engine's trick record from a tricks entry, and the misplay call it carries."""
    data = _with_dealer(_entry_object(entry), dealer, number)
    misplay = data.pop("misplay", None)
    return TrickRecord.from_json(data), misplay


def _score(
    rules: Ruleset,
    *,
    entry_kind: str,
    entry: Mapping[str, Any],
    dealer: int,
    number: int,
    dispute: MisplayDispute | None = None,
) -> HandResult:
    """The result of a hand: its entry scored by the engine, with a dispute's decision."""
    decision = None if dispute is None else dispute.decision
    if entry_kind == Hand.EntryKind.SUMMARY:
        summary = _summary_of(entry, dealer, number)
        if decision is None or dispute is None:
            return score_summary(rules, summary)
        call = MisplayCall(called_by=dispute.called_by, proven=decision, accused=dispute.accused)
        stopped = HandSummary(
            dealer=summary.dealer,
            caller=summary.caller,
            trump=summary.trump,
            card_points=None,
            runs=summary.runs,
            run_points=summary.run_points,
            run_counts=summary.run_counts,
            bella_seat=summary.bella_seat,
            misplay=call,
        )
        return score_misplay(rules, stopped, call)
    if entry_kind == Hand.EntryKind.TRICKS:
        record, misplay = _record_of(entry, dealer, number)
        if decision is not None and dispute is not None:
            call = MisplayCall(dispute.called_by, decision, dispute.accused)
            return score_misplay(rules, record, call)
        if misplay is not None:
            return score_misplay(rules, record, MisplayCall.from_json(misplay))
        return score_tricks(rules, record)
    raise InvalidEntry(
        f'entry kind must be "summary" or "tricks", not {entry_kind!r}',
        code="bad_entry_kind",
        field="entry_kind",
    )


def _set_result(hand: Hand, result: HandResult) -> None:
    hand.dealer = result.dealer
    hand.caller = result.caller
    hand.trump = "" if result.trump is None else result.trump.value
    hand.outcome = result.outcome.value
    hand.points_a, hand.points_b = result.points
    hand.card_points_a, hand.card_points_b = result.card_points
    hand.run_points_a, hand.run_points_b = result.run_points
    hand.bella_points_a, hand.bella_points_b = result.bella_points
    hand.runs_counted_by = result.runs_counted_by
    hand.bella_seat = result.bella_seat
    hand.hand_total = result.hand_total
    hand.result = result.to_json()
