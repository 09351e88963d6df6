"""What follows a change to a game's result, kept in the database until it has followed.

Every change to a result writes a :class:`~scoring.models.ResultChange` in its own transaction
(:func:`result_changed`). Once the transaction commits, :data:`scoring.signals.game_result_changed`
is sent; when every receiver took it (a tournament match game's receiver enqueues the match's
update), the game's rows are deleted. A receiver that failed (the broker was unreachable, say)
leaves them, and :func:`result_changes_deliver_pending`, run by a periodic task, sends the
signal again for every game whose rows are older than a moment. Receivers are idempotent (they
reload what they need), so a change delivered twice costs a look-up, and one never delivered
cannot happen while the periodic task runs.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scoring import signals
from scoring.models import Game, ResultChange

log = logging.getLogger(__name__)

#: How old a change must be before the periodic task delivers it: younger ones are still
#: being delivered by the commit that wrote them.
PENDING_AFTER_SECONDS = 20
#: The most games one run of the periodic task delivers (the next run takes the rest).
DELIVER_BATCH = 500


def result_changed(game_id: int) -> None:
    """Record, in the caller's transaction, that the result of ``game_id`` changed; deliver it
    once the transaction commits."""
    ResultChange.objects.create(game_id=game_id)
    result_change_deliver_on_commit(game_id)


def result_change_deliver_on_commit(game_id: int) -> None:
    """Deliver the changes of ``game_id`` once the current transaction commits (for a writer
    that stored its :class:`ResultChange` row itself)."""
    transaction.on_commit(lambda: result_change_deliver(game_id=game_id))


def result_change_deliver(*, game_id: int) -> bool:
    """Send ``game_result_changed`` for ``game_id``; when every receiver took it, delete the
    game's changes recorded until now. Never raises: a receiver's failure is logged and the
    changes stay for the periodic task. Returns whether it was delivered."""
    started = timezone.now()
    answers = signals.game_result_changed.send_robust(sender=Game, game_id=game_id)
    failed = [(receiver, error) for receiver, error in answers if isinstance(error, Exception)]
    for receiver, error in failed:
        log.warning(
            "result of game %s not delivered to %s: kept for the periodic task",
            game_id,
            getattr(receiver, "__qualname__", receiver),
            exc_info=(type(error), error, error.__traceback__),
        )
    if failed:
        return False
    try:
        ResultChange.objects.filter(game_id=game_id, created_at__lte=started).delete()
    except Exception:  # the database went away: the periodic task delivers them again
        log.warning("delivered changes of game %s not deleted", game_id, exc_info=True)
    return True


def result_changes_deliver_pending(*, older_than: float = PENDING_AFTER_SECONDS) -> int:
    """Deliver every change older than ``older_than`` seconds (the periodic task); returns how
    many games were delivered."""
    cutoff = timezone.now() - timedelta(seconds=older_than)
    game_ids = list(
        ResultChange.objects.filter(created_at__lte=cutoff)
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()[:DELIVER_BATCH]
    )
    return sum(result_change_deliver(game_id=game_id) for game_id in game_ids)
