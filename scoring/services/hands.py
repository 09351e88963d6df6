"""Changing hands already entered: corrections (and their dry run) and undoing the last
hand. Each keeps the hand's versions and recomputes the game after it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction

from scoring.engine import check_forced_call
from scoring.models import Game, Hand, HandRevision, MisplayDispute
from scoring.services._common import (
    _copy_model,
    _copy_state,
    _game_for_update,
    _on_commit_result_changed,
    _refuse_if_changed,
    _refuse_unless_director,
    _refuse_unless_running,
    _required_text,
)
from scoring.services.entries import _score, _set_result
from scoring.services.progress import _rerun
from tarabish_site.api.errors import NotFound, PreconditionFailed, ValidationFailed
from tarabish_site.api.versioning import IF_MATCH

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _keep_recorded_version(hand: Hand) -> None:
    """Store the version a hand was entered as, before the hand first changes.

    Entering a hand writes no revision: until the hand changes, the hand itself is its first
    version (:meth:`Hand.recorded_revision`). Called with the hand as stored, before anything
    on it changes. A hand entered when the first version was still written with it has that
    row already, and keeps it."""
    if hand.version == 1:
        HandRevision.objects.bulk_create([hand.recorded_revision()], ignore_conflicts=True)


def _revision(hand: Hand, action: str, by: User | None, reason: str = "") -> HandRevision:
    """Store the hand's new version (after ``_keep_recorded_version`` kept the one before)."""
    return HandRevision.objects.create(
        hand=hand,
        version=hand.version,
        action=action,
        entry_kind=hand.entry_kind,
        entry=hand.entry,
        result=hand.result,
        reason=reason,
        changed_by=by,
    )


def _hand_for_update(hand: Hand | int) -> tuple[Game, Hand, list[Hand]]:
    """Lock the hand's game; return it, the hand as stored, and the game's counting hands."""
    hand_id = hand.pk if isinstance(hand, Hand) else hand
    game_id = Hand.objects.filter(pk=hand_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"hand {hand_id} does not exist")
    game = _game_for_update(game_id)
    hands = list(game.hands.active().order_by("number"))
    for h in hands:
        if h.pk == hand_id:
            return game, h, hands
    message = f"hand {hand_id} was undone: it no longer counts"
    raise ValidationFailed(message, code="hand_undone", fields={"hand": [message]})


def _deciding_dispute(hand: Hand) -> MisplayDispute | None:
    """The latest dispute on the hand whose verdict (or ruling) decides it."""
    for dispute in hand.disputes.exclude(status=MisplayDispute.Status.PENDING).order_by("-pk"):
        if dispute.decision is not None:
            return dispute
    return None


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    entry: Mapping[str, Any],
    reason: str,
    by: User | None = None,
    expected_version: int,
    entry_kind: str | None = None,
) -> Hand:
    """Correct a hand: a new version with the new entry; every later running total and the
    game's end and winner are recomputed (a correction can end, un-end or change a game).

    ``expected_version`` is the hand version the corrector saw; a newer one is
    :class:`PreconditionFailed`. The game row is locked, so corrections never interleave.
    """
    reason = _required_text(reason, "reason", "a reason for the correction")
    game, stored, hands = _hand_for_update(hand)
    if stored.version != expected_version:
        message = (
            f"hand {stored.number} was changed since you read it: it is at version "
            f"{stored.version}, you corrected version {expected_version}"
        )
        raise PreconditionFailed(message, fields={IF_MATCH: [message]})
    if game.status == Game.Status.ABANDONED:
        _refuse_unless_running(game, "correcting a hand")
    if game.status == Game.Status.FINISHED:
        # A correction can change or undo the result of a finished game: a director's act.
        _refuse_unless_director(by, game, "correct a hand of a finished game")
    kind = entry_kind or stored.entry_kind
    rules = game.engine_ruleset
    result = _score(
        rules,
        entry_kind=kind,
        entry=entry,
        dealer=stored.dealer,
        number=stored.number,
        dispute=_deciding_dispute(stored),
    )
    earlier = [h for h in hands if h.number < stored.number]
    check_forced_call(
        rules,
        stored.dealer,
        (earlier[-1].running_a, earlier[-1].running_b) if earlier else (0, 0),
        result.caller,
    )
    _keep_recorded_version(stored)
    stored.entry_kind = kind
    stored.entry = dict(entry)
    _set_result(stored, result)
    stored.version += 1
    changed = _rerun(game, rules, hands)
    stored.save()
    Hand.objects.bulk_update(
        [h for h in changed if h.pk != stored.pk], ["running_a", "running_b", "updated_at"]
    )
    _revision(stored, HandRevision.Action.CORRECTED, by, reason)
    game.save()
    _on_commit_result_changed(game.pk)
    _copy_model(stored, hand)
    return stored


class _RolledBack(Exception):
    """Raised to roll back a dry run after reading what the service would store."""


@dataclass(frozen=True)
class CorrectionPreview:
    """What :func:`hand_correct` would store: the hand's new result and the game after it (its
    score, end and winner), nothing written."""

    hand: Hand
    game: Game


def hand_correct_preview(
    *,
    hand: Hand,
    entry: Mapping[str, Any],
    reason: str,
    by: User | None = None,
    expected_version: int,
    entry_kind: str | None = None,
) -> CorrectionPreview:
    """A dry run of :func:`hand_correct`: the very same service, in a transaction always rolled
    back, so what it says can never disagree with the correction itself. Refuses what
    :func:`hand_correct` refuses, with the same errors; ``hand`` is left as it was."""
    try:
        with transaction.atomic():
            corrected = hand_correct(
                hand=Hand(pk=hand.pk),
                entry=entry,
                reason=reason,
                by=by,
                expected_version=expected_version,
                entry_kind=entry_kind,
            )
            after = Game.objects.get(pk=corrected.game_id)
            raise _RolledBack
    except _RolledBack:
        return CorrectionPreview(hand=corrected, game=after)


@transaction.atomic
def hand_undo_last(
    *,
    game: Game,
    by: User | None = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Hand:
    """Undo the last hand of a running game. The hand and its history are kept (marked undone),
    and its number can be entered again. ``expected_version`` is the game version the
    scorekeeper saw: a hand entered since by another score-pad is not undone unseen."""
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    _refuse_unless_running(locked, "undoing a hand")
    hands = list(locked.hands.active().order_by("number"))
    if not hands:
        message = f"game {locked.pk} has no hand to undo"
        raise ValidationFailed(message, code="no_hands", fields={"game": [message]})
    last = hands.pop()
    _keep_recorded_version(last)
    last.undone = True
    last.version += 1
    last.save(update_fields=["undone", "version", "updated_at"])
    _revision(last, HandRevision.Action.UNDONE, by, reason.strip())
    _rerun(locked, locked.engine_ruleset, hands)
    locked.save()
    _on_commit_result_changed(locked.pk)
    _copy_state(locked, game)
    return last
