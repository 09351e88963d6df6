"""What follows a change to a game's result, kept in the database until it has followed.

Every change to a result writes a :class:`~scoring.models.ResultChange` in its own transaction
(:func:`result_changed`). Once the transaction commits, :data:`scoring.signals.game_result_changed`
is sent. A receiver that does its work there and then is done with it; one that hands it to a
task (a tournament match game's receiver enqueues the match's update) answers
:data:`~scoring.signals.RESULT_TAKEN_LATER`, and the rows stay until that task deletes them in
the transaction of its own effect (:func:`result_changes_taken_in`). When no receiver hands it
on, the game's rows are deleted at once. So a row goes only once what must follow the change
has been done: a receiver that failed (the broker was unreachable) leaves it, and so does a
message the broker accepted and then lost (it died with the message in its queue, or a worker
died with it). :func:`result_changes_deliver_pending`, run by a periodic task, sends the signal
again for every game whose rows are older than :data:`PENDING_AFTER_SECONDS`. Receivers and
their tasks are idempotent (they reload what they need and recompute), so a change delivered
twice costs a look-up, and one never delivered cannot happen while the periodic task runs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.db import connections, router, transaction
from django.utils import timezone

from scoring import signals
from scoring.models import Game, ResultChange

log = logging.getLogger(__name__)

#: How old a change must be before the periodic task sends it again. Younger ones are still
#: on their way: their task is in the broker's queue or running. A task that takes a change in
#: (``tournaments.tasks.match_sync_for_game``) is stopped at its ``time_limit`` of 60 s, so a
#: row older than that whose task was taken at once is either deleted or its task is lost;
#: waiting longer would add nothing but delay, and the broker's own redelivery of a task whose
#: worker died (``CELERY_VISIBILITY_TIMEOUT``, 360 s) comes five minutes later still. A task
#: that waited in a long queue, or is being retried, may run twice: it recomputes, so the
#: second run changes nothing. With the periodic task every 30 s, a change whose message was
#: lost is sent again within 90 s of its commit.
PENDING_AFTER_SECONDS = 60
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
    """Send ``game_result_changed`` for ``game_id``. When every receiver took it and none
    handed it to a task, delete the game's changes recorded until now; a task that was handed
    it deletes them once done. Never raises: a receiver's failure is logged and the changes
    stay for the periodic task. Returns whether every receiver took it."""
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
    if any(answer == signals.RESULT_TAKEN_LATER for _receiver, answer in answers):
        return True  # its task deletes the rows in the transaction of its effect
    try:
        _delivered_delete(game_id, started)
    except Exception:  # the database went away: the periodic task delivers them again
        log.warning("delivered changes of game %s not deleted", game_id, exc_info=True)
    return True


#: The delivered changes of a game, deleted by one fixed statement on PostgreSQL: nothing points
#: at these rows and nothing listens to their deletion, and the queryset's delete, built anew
#: for every game that ends, cost 0.30 ms of CPU against 0.07 (on the hand that ends the game,
#: about 1% of a hand's CPU spread over a game's hands: ``benchmarks/api_bench.py``).
_DELIVERED_DELETE = (
    f'DELETE FROM "{ResultChange._meta.db_table}" '  # noqa: S608 - the model's own table
    'WHERE "game_id" = %s AND "created_at" <= %s'
)


def _delivered_delete(game_id: int, started: datetime) -> None:
    """Delete the changes of ``game_id`` recorded until ``started`` (an aware time, which
    psycopg sends as it is; elsewhere the queryset's delete, whose backend stores times its
    own way)."""
    alias = router.db_for_write(ResultChange)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        ResultChange.objects.using(alias).filter(game_id=game_id, created_at__lte=started).delete()
        return
    with connection.cursor() as cursor:
        cursor.execute(_DELIVERED_DELETE, [game_id, started])


@contextmanager
def result_changes_taken_in(game_id: int) -> Iterator[None]:
    """Run the block in one transaction that, when the block succeeds, also deletes the
    changes of ``game_id`` recorded before it started: for the task a receiver answering
    :data:`~scoring.signals.RESULT_TAKEN_LATER` sent. The rows are read first, so a change
    committed while the block runs (which the block may not have seen) stays for another
    delivery; a block that raises deletes nothing. Idempotent: a second run finds no rows,
    or only newer ones, which it takes in as well."""
    with transaction.atomic():
        recorded = list(ResultChange.objects.filter(game_id=game_id).values_list("pk", flat=True))
        yield
        if recorded:
            ResultChange.objects.filter(pk__in=recorded).delete()


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
