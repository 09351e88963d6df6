"""Misplay disputes: called on a hand, judged by the engine in a task, ruled on by a
director; the hand and the game follow the decision."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from scoring.engine import (
    Accusation,
    EngineError,
    HandResult,
    Suit,
    TrickRecord,
    adjudicate,
    parse_card,
    team_of,
)
from scoring.models import Game, Hand, HandRevision, MisplayDispute
from scoring.services._common import (
    _copy_model,
    _game_for_update,
    _on_commit_result_changed,
    _refuse_stale,
    _refuse_unless_director,
    _refuse_unless_running,
)
from scoring.services.entries import _entry_object, _record_of, _score, _set_result, _with_dealer
from scoring.services.hands import (
    _deciding_dispute,
    _hand_for_update,
    _keep_recorded_version,
    _revision,
)
from scoring.services.progress import _rerun
from tarabish_site import events
from tarabish_site.api.errors import ApplicationError, Conflict, NotFound, ValidationFailed
from tarabish_site.celery import send_on_commit

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class _Evidence:
    record: TrickRecord
    data: dict[str, Any]


def dispute_needs_evidence(hand: Hand) -> bool:
    """Whether a misplay called on ``hand`` must come with its trick record: a hand entered as
    a summary (every score-pad hand) has no tricks of its own for the engine to judge."""
    return hand.entry_kind != Hand.EntryKind.TRICKS


def _evidence(hand: Hand, evidence: Mapping[str, Any] | None) -> _Evidence:
    if evidence is None:
        if dispute_needs_evidence(hand):
            message = "a hand entered as a summary needs the trick record as evidence"
            raise ValidationFailed(
                message, code="evidence_required", fields={"evidence": [message]}
            )
        record, _ = _record_of(hand.entry, hand.dealer, hand.number)
    else:
        try:
            data = _with_dealer(_entry_object(evidence), hand.dealer, hand.number)
            data.pop("misplay", None)
            record = TrickRecord.from_json(data)
        except EngineError as exc:
            raise exc.nested("evidence") from None
        _refuse_other_hand(hand, record)
    return _Evidence(record, record.to_json())


def _refuse_other_hand(hand: Hand, record: TrickRecord) -> None:
    """Evidence must be the record of this hand: the same caller and trump as entered."""

    def caller_words(seat: int | None) -> str:
        return "nobody (all passed)" if seat is None else f"seat {seat}"

    def trump_words(letter: str) -> str:
        return Suit(letter).label if letter else "no trump"

    trump = "" if record.trump is None else record.trump.value
    if record.caller != hand.caller:
        field = "caller"
        what = (
            f"{caller_words(record.caller)} called, "
            f"hand {hand.number} says {caller_words(hand.caller)}"
        )
    elif trump != hand.trump:
        field = "trump"
        what = (
            f"the trump is {trump_words(trump)}, hand {hand.number} says {trump_words(hand.trump)}"
        )
    else:
        return
    message = f"this trick record is of another hand: in it {what}"
    raise ValidationFailed(
        message, code="evidence_other_hand", fields={f"evidence.{field}": [message]}
    )


@transaction.atomic
def dispute_open(
    *,
    hand: Hand,
    called_by: int,
    accused: int,
    trick: int,
    proof_card: str | None = None,
    evidence: Mapping[str, Any] | None = None,
    by: User | None = None,
) -> MisplayDispute:
    """Call a misplay on a hand. The engine judges it from the trick record (the hand's own
    when it was entered as tricks) in a Celery task started after commit. On a finished game
    the verdict can change the result, so only its directors call one there, as only they
    correct its hands."""
    game, stored, _ = _hand_for_update(hand)
    if game.status == Game.Status.ABANDONED:
        _refuse_unless_running(game, "disputing a hand")
    if game.status == Game.Status.FINISHED:
        _refuse_unless_director(by, game, "dispute a hand of a finished game")
    for field, seat in (("called_by", called_by), ("accused", accused)):
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            message = f"{field.replace('_', ' ')} must be a seat 0 to 3, not {seat!r}"
            raise ValidationFailed(message, fields={field: [message]})
    if called_by == accused:
        message = f"seat {called_by} cannot call a misplay on themselves: choose who is accused"
        raise ValidationFailed(message, code="accused_caller", fields={"accused": [message]})
    if team_of(called_by) == team_of(accused):
        message = f"seat {called_by} cannot call a misplay on seat {accused}: they are partners"
        raise ValidationFailed(message, code="accused_partner", fields={"accused": [message]})
    if isinstance(trick, bool) or not isinstance(trick, int) or not 1 <= trick <= 9:
        message = f"trick must be a trick number 1 to 9, not {trick!r}"
        raise ValidationFailed(message, fields={"trick": [message]})
    card = ""
    if proof_card:
        try:
            card = str(parse_card(proof_card))
        except EngineError as exc:
            raise exc.nested("proof_card") if exc.field is None else exc from None
    if stored.disputes.filter(status=MisplayDispute.Status.PENDING).exists():
        message = f"hand {stored.number} already has a misplay dispute waiting for its verdict"
        raise Conflict(message, code="dispute_pending", fields={"hand": [message]})
    proof = _evidence(stored, evidence)
    dispute = MisplayDispute.objects.create(
        hand=stored,
        called_by=called_by,
        accused=accused,
        trick=trick,
        proof_card=card,
        evidence=proof.data,
        created_by=by,
    )
    game.version += 1
    game.save(update_fields=["version", "updated_at"])

    from scoring.tasks import dispute_adjudicate as adjudicate_task

    # Without the broker, the periodic task judges the dispute (disputes_adjudicate_pending).
    send_on_commit(adjudicate_task, dispute.pk)
    return dispute


#: How long a dispute may wait for its verdict before the periodic task judges it itself.
PENDING_VERDICT_SECONDS = 60


def disputes_adjudicate_pending(*, older_than: float = PENDING_VERDICT_SECONDS) -> list[int]:
    """The periodic safety net: judge every dispute still waiting for its verdict
    ``older_than`` seconds after it was called (its task was never sent, or its worker died
    with it). Returns the ids judged."""
    cutoff = timezone.now() - timedelta(seconds=older_than)
    pending = list(
        MisplayDispute.objects.filter(status=MisplayDispute.Status.PENDING, created_at__lte=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)[:200]
    )
    judged = []
    for dispute_id in pending:
        try:
            dispute_adjudicate(dispute_id=dispute_id)
        except ApplicationError as exc:  # a game since ended or held final: logged, left
            log.warning("dispute %s not judged: %s", dispute_id, exc.message)
        else:
            judged.append(dispute_id)
    return judged


def _dispute_for_update(dispute: MisplayDispute | int) -> tuple[Game, MisplayDispute]:
    pk = dispute.pk if isinstance(dispute, MisplayDispute) else dispute
    game_id = MisplayDispute.objects.filter(pk=pk).values_list("hand__game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"misplay dispute {pk} does not exist")
    game = _game_for_update(game_id)
    return game, MisplayDispute.objects.select_related("hand").get(pk=pk)


def _apply_disputes(game: Game, hand: Hand, by: User | None, note: str) -> None:
    """Rescore a hand after a dispute changed and recompute the game."""
    if hand.undone:
        return
    rules = game.engine_ruleset
    result = _score(
        rules,
        entry_kind=hand.entry_kind,
        entry=hand.entry,
        dealer=hand.dealer,
        number=hand.number,
        dispute=_deciding_dispute(hand),
    )
    # compared as results, not as JSON: a result stored in an older form reads the same
    if HandResult.from_json(hand.result) == result:
        game.version += 1
        return
    hands = list(game.hands.active().order_by("number"))
    for i, h in enumerate(hands):
        if h.pk == hand.pk:
            hands[i] = hand
    _keep_recorded_version(hand)
    _set_result(hand, result)
    hand.version += 1
    changed = _rerun(game, rules, hands)
    hand.save()
    Hand.objects.bulk_update(
        [h for h in changed if h.pk != hand.pk], ["running_a", "running_b", "updated_at"]
    )
    _revision(hand, HandRevision.Action.DISPUTE, by, note)
    _on_commit_result_changed(game.pk)


@transaction.atomic
def dispute_adjudicate(*, dispute_id: int, rerun: bool = False) -> MisplayDispute:
    """Judge a dispute with the engine and let the hand follow the verdict.

    Idempotent: a dispute with a verdict is left as it is unless ``rerun`` asks to judge it
    again (a director's ruling is kept either way). A record the engine finds impossible is
    ``record_rejected`` with the engine's reason, and the hand is left as it was.
    """
    game, dispute = _dispute_for_update(dispute_id)
    if dispute.status != MisplayDispute.Status.PENDING and not rerun:
        return dispute
    accusation = Accusation(
        accused=dispute.accused,
        trick=dispute.trick - 1,  # the dispute says trick 1 to 9, the engine its position
        proof_card=parse_card(dispute.proof_card) if dispute.proof_card else None,
        called_by=dispute.called_by,
    )
    try:
        verdict = adjudicate(TrickRecord.from_json(dispute.evidence), accusation)
    except EngineError as exc:
        dispute.status = MisplayDispute.Status.RECORD_REJECTED
        dispute.verdict = exc.to_json()
        dispute.reason = str(exc)
    else:
        dispute.status = (
            MisplayDispute.Status.PROVEN if verdict.proven else MisplayDispute.Status.NOT_PROVEN
        )
        dispute.verdict = verdict.to_json()
        dispute.reason = verdict.reason
    if dispute.ruling != MisplayDispute.Ruling.NONE and dispute.decision is None:
        # a rejected record leaves nothing to rule on
        dispute.ruling = MisplayDispute.Ruling.NONE
    dispute.adjudicated_at = timezone.now()
    dispute.version += 1
    dispute.save()
    try:
        with transaction.atomic():
            _apply_disputes(
                game, dispute.hand, None, f"misplay dispute {dispute.pk}: {dispute.reason}"
            )
    except ValidationFailed as exc:
        # The verdict stands; the hand could not follow it (the game would have ended before
        # hands that were entered). A director corrects or undoes those hands, then re-runs.
        dispute.reason = f"{dispute.reason} (the hand was left as it was: {exc.message})"
        dispute.save(update_fields=["reason"])
        game.version += 1
    game.save()
    return dispute


@transaction.atomic
def dispute_rule(
    *,
    dispute: MisplayDispute,
    ruling: str,
    note: str = "",
    by: User | None = None,
    expected_version: int | None = None,
) -> MisplayDispute:
    """A director's ruling on the engine's verdict (anyone else is refused):
    ``upheld`` lets it stand, ``overruled`` decides the opposite. Both stay visible, and the
    hand and the game follow the ruling.

    Only the hand's latest dispute decides it, so an earlier one, superseded, is not ruled
    on (409). ``expected_version`` is the dispute's version the director read (412 when it
    changed since: another director ruled, say); ``None`` rules on it as it is."""
    game, stored = _dispute_for_update(dispute)
    _refuse_unless_director(by, game, "rule on a misplay dispute")
    _refuse_stale(f"misplay dispute {stored.pk}", stored.version, expected_version, "rule")
    later = (
        stored.hand.disputes.filter(pk__gt=stored.pk)
        .exclude(status=MisplayDispute.Status.RECORD_REJECTED)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    if later is not None:
        message = (
            f"misplay dispute {later} on this hand came after this one and decides the hand: "
            "rule on that one"
        )
        raise Conflict(message, code="dispute_superseded", fields={"ruling": [message]})
    if ruling not in (MisplayDispute.Ruling.UPHELD, MisplayDispute.Ruling.OVERRULED):
        message = f'a ruling is "upheld" or "overruled", not {ruling!r}'
        raise ValidationFailed(message, fields={"ruling": [message]})
    if stored.status == MisplayDispute.Status.PENDING:
        message = "the engine has not judged this dispute yet: rule once its verdict is in"
        raise ValidationFailed(message, code="dispute_pending", fields={"ruling": [message]})
    if stored.status == MisplayDispute.Status.RECORD_REJECTED:
        message = (
            "the trick record was rejected, so there is no verdict to rule on: "
            "open a new dispute with a record that could have happened"
        )
        raise ValidationFailed(message, code="record_rejected", fields={"ruling": [message]})
    note = (note or "").strip()
    if ruling == MisplayDispute.Ruling.OVERRULED and not note:
        message = "say why the verdict is overruled"
        raise ValidationFailed(message, fields={"note": [message]})
    stored.ruling = ruling
    stored.ruling_note = note
    stored.ruled_by = by
    stored.ruled_at = timezone.now()
    stored.version += 1
    stored.save()
    _apply_disputes(
        game,
        stored.hand,
        by,
        f"misplay dispute {stored.pk} {ruling}" + (f": {note}" if note else ""),
    )
    game.save()
    events.record(
        events.DISPUTE_RULED,
        game_id=game.pk,
        game=game.pk,
        hand=stored.hand.number,
        dispute=stored.pk,
        status=stored.status,
        ruling=stored.ruling,
        note=stored.ruling_note,
        totals=[game.score_a, game.score_b],
    )
    _copy_model(stored, dispute)
    return stored
