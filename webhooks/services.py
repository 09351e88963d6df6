"""Every write of the webhooks: subscriptions (made, changed, removed, enabled again), the
outbox rows an event makes, and sending them.

Sending is at least once. A delivery is *claimed* (its next attempt moved past the time the
attempt can take) in a short statement, posted with no transaction open, and its outcome
stored; a process that dies mid-attempt leaves the delivery due again once the claim runs out.
A failed attempt is tried again after an exponential backoff with jitter; a delivery that
fails ``WEBHOOK_MAX_ATTEMPTS`` times is given up, and a subscription whose deliveries fail
``WEBHOOK_DISABLE_AFTER`` times in a row is disabled, its waiting deliveries kept for when a
director enables it again.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tarabish_site import events
from tarabish_site.api.errors import NotAllowed, NotFound, PreconditionFailed, ValidationFailed
from tarabish_site.celery import send_on_commit
from tournaments.models import Match, MatchGame, Stage, Tournament
from tournaments.selectors import tournament_directed_by, tournaments_visible
from webhooks import client, guard, signing
from webhooks.models import Delivery, DeliveryAttempt, Subscription

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.backends.base.base import BaseDatabaseWrapper

    from tarabish_site.events import Event

    Actor = User | AnonymousUser | None
else:
    Actor = object

log = logging.getLogger(__name__)

USER_AGENT = "Tarabish-Webhooks/1"


# ------------------------------------------------------------------------------ settings
def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def max_attempts() -> int:
    return int(_setting("WEBHOOK_MAX_ATTEMPTS", 8))


def disable_after() -> int:
    return int(_setting("WEBHOOK_DISABLE_AFTER", 10))


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before the next try after ``attempts`` failed ones: ``WEBHOOK_BACKOFF_BASE``
    doubled each time, at most ``WEBHOOK_BACKOFF_MAX``, then a random share from half to all of
    it ("equal jitter"), so receivers that failed together are not all tried again together."""
    base = float(_setting("WEBHOOK_BACKOFF_BASE", 30.0))
    ceiling = float(_setting("WEBHOOK_BACKOFF_MAX", 3600.0))
    delay = min(ceiling, base * float(2 ** min(max(0, attempts - 1), 40)))
    jitter: float = (rng or random).uniform(0, delay / 2)
    return delay / 2 + jitter


def _timeouts() -> tuple[float, float]:
    return (
        float(_setting("WEBHOOK_CONNECT_TIMEOUT", 3.0)),
        float(_setting("WEBHOOK_READ_TIMEOUT", 5.0)),
    )


# ------------------------------------------------------------------------------ subscriptions
def _tournament_directed(slug: str, actor: Actor) -> Tournament:
    tournament = tournaments_visible(actor).filter(slug=slug).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {slug!r}.")
    if not tournament_directed_by(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may manage its webhooks.")
    return tournament


def tournament_for_webhooks(*, slug: str, actor: Actor) -> Tournament:
    """The tournament ``slug`` if ``actor`` directs it: 404 if they cannot see it, else 403."""
    return _tournament_directed(slug, actor)


def _check_events(value: object, field: str = "events") -> list[str]:
    if not isinstance(value, list) or not value:
        message = "choose at least one event: " + ", ".join(events.EVENTS)
        raise ValidationFailed(message, fields={field: [message]})
    unknown = [name for name in value if name not in events.EVENTS]
    if unknown or not all(isinstance(name, str) for name in value):
        message = f"unknown event {unknown[0] if unknown else value!r}: " + ", ".join(events.EVENTS)
        raise ValidationFailed(message, code="unknown_event", fields={field: [message]})
    return [name for name in events.EVENTS if name in value]


def _check_url(url: object) -> str:
    if not isinstance(url, str) or not url.strip():
        message = "give the URL that receives the events"
        raise ValidationFailed(message, fields={"url": [message]})
    url = url.strip()
    if len(url) > Subscription._meta.get_field("url").max_length:  # type: ignore[operator]
        message = "a webhook URL is at most 500 characters"
        raise ValidationFailed(message, fields={"url": [message]})
    return guard.check_url(url)


def subscription_create(
    *, tournament: Tournament, actor: Actor, url: str, events: list[str], description: str = ""
) -> Subscription:
    """Subscribe ``url`` to ``events`` of ``tournament``, with a new secret (returned once, on
    the row; it is never shown again)."""
    if not tournament_directed_by(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may manage its webhooks.")
    checked_url = _check_url(url)
    checked_events = _check_events(events)
    user = actor if actor is not None and actor.is_authenticated else None
    return Subscription.objects.create(
        tournament=tournament,
        url=checked_url,
        events=checked_events,
        description=(description or "").strip()[:200],
        secret=signing.new_secret(),
        created_by=user,
    )


def subscription_secret(*, subscription_id: int) -> str | None:
    """The secret of a subscription (None when it was removed): for the answer that made it,
    replayed to a retry of that request, whose stored copy holds no secret."""
    return Subscription.objects.filter(pk=subscription_id).values_list("secret", flat=True).first()


def _locked(tournament: Tournament, subscription_id: int) -> Subscription:
    found = (
        Subscription.objects.select_for_update()
        .filter(pk=subscription_id, tournament=tournament)
        .first()
    )
    if found is None:
        raise NotFound(f"There is no webhook {subscription_id} in {tournament.name}.")
    return found


def _refuse_stale(subscription: Subscription, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != subscription.version:
        raise PreconditionFailed(
            f"webhook {subscription.pk} changed since it was read (version "
            f"{subscription.version}, not {expected_version}): read it again"
        )


@transaction.atomic
def subscription_update(
    *,
    tournament: Tournament,
    subscription_id: int,
    actor: Actor,
    changes: dict[str, Any],
    expected_version: int | None = None,
) -> Subscription:
    """Change a subscription's URL, events, description or ``active``; enabling one again
    starts over its count of failures and makes its waiting deliveries due now."""
    if not tournament_directed_by(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may manage its webhooks.")
    subscription = _locked(tournament, subscription_id)
    _refuse_stale(subscription, expected_version)
    fields = ["version", "updated_at"]
    if "url" in changes:
        subscription.url = _check_url(changes["url"])
        fields.append("url")
    if "events" in changes:
        subscription.events = _check_events(changes["events"])
        fields.append("events")
    if "description" in changes:
        subscription.description = str(changes["description"] or "").strip()[:200]
        fields.append("description")
    if "active" in changes:
        if changes["active"] and not subscription.active:
            _enable(subscription)
            fields += ["active", "consecutive_failures", "disabled_at", "disabled_reason"]
        elif not changes["active"] and subscription.active:
            subscription.active = False
            subscription.disabled_at = timezone.now()
            subscription.disabled_reason = "disabled by a director"
            fields += ["active", "disabled_at", "disabled_reason"]
    subscription.version += 1
    subscription.save(update_fields=fields)
    return subscription


def _enable(subscription: Subscription) -> None:
    subscription.active = True
    subscription.consecutive_failures = 0
    subscription.disabled_at = None
    subscription.disabled_reason = ""
    now = timezone.now()
    waiting = list(
        subscription.deliveries.filter(state=Delivery.State.PENDING).values_list("pk", flat=True)
    )
    Delivery.objects.filter(pk__in=waiting).update(next_attempt_at=now)
    for pk in waiting:
        _send_after_commit(pk)


def subscription_enable(
    *, tournament: Tournament, subscription_id: int, actor: Actor
) -> Subscription:
    """Enable a subscription again (after it was disabled for its failures, say)."""
    return subscription_update(
        tournament=tournament,
        subscription_id=subscription_id,
        actor=actor,
        changes={"active": True},
    )


@transaction.atomic
def subscription_delete(*, tournament: Tournament, subscription_id: int, actor: Actor) -> None:
    """Remove a subscription and its deliveries."""
    if not tournament_directed_by(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may manage its webhooks.")
    _locked(tournament, subscription_id).delete()


@transaction.atomic
def delivery_redeliver(
    *, tournament: Tournament, subscription_id: int, delivery_id: Any, actor: Actor
) -> Delivery:
    """Send a delivery again, whatever became of it: the same id and body, signed anew, now
    (by a task after the commit). A disabled subscription's delivery waits for it to be
    enabled."""
    if not tournament_directed_by(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may manage its webhooks.")
    subscription = _locked(tournament, subscription_id)
    delivery = subscription.deliveries.select_for_update().filter(pk=delivery_id).first()
    if delivery is None:
        raise NotFound(f"There is no delivery {delivery_id} of webhook {subscription_id}.")
    delivery.state = Delivery.State.PENDING
    delivery.next_attempt_at = timezone.now()
    delivery.save(update_fields=["state", "next_attempt_at"])
    if subscription.active:
        _send_after_commit(delivery.pk, manual=True)
    return delivery


# ------------------------------------------------------------------------------ the outbox
def deliveries_insert(
    event: Event, connection: BaseDatabaseWrapper, source: str | None
) -> events.Insert | None:
    """The statement that stores ``event``'s outbox rows, one a subscription of its tournament
    that is active and asks for it: an ``INSERT ... SELECT`` from the subscriptions, one round
    trip whatever their number (see ``tarabish_site.events``). A game's event finds its
    tournament through the game's match; a game of no match has none."""
    if event.tournament_id is None and event.game_id is None:
        return None
    q = connection.ops.quote_name
    delivery, subscription = Delivery._meta.db_table, Subscription._meta.db_table
    postgres = connection.vendor == "postgresql"
    params: list[Any] = []
    if event.tournament_id is not None:
        tables = f"{q(subscription)} s"
        where = "s.tournament_id = %s"
        params.append(event.tournament_id)
    else:
        joins = (
            f"JOIN {q(Match._meta.db_table)} m ON m.id = mg.match_id "
            f"JOIN {q(Stage._meta.db_table)} st ON st.id = m.stage_id "
            f"JOIN {q(subscription)} s ON s.tournament_id = st.tournament_id"
        )
        match_games = q(MatchGame._meta.db_table)
        if source is None:
            tables = f"{match_games} mg {joins}"
            where = "mg.game_id = %s"
            params.append(event.game_id)
        else:
            tables = f"{source} JOIN {match_games} mg ON mg.game_id = {source}.id {joins}"
            where = "TRUE"
    if postgres:
        new_id, data, wants = "gen_random_uuid()", "%s::jsonb", "s.events @> %s::jsonb"
        wanted: Any = json.dumps([event.name])
    else:
        new_id, data = "lower(hex(randomblob(16)))", "%s"
        wants = "EXISTS (SELECT 1 FROM json_each(s.events) WHERE json_each.value = %s)"
        wanted = event.name
    # The state is this module's constant, written into the statement; joined to the game's
    # row, the delivery is made when the game changed, so the hand's statement keeps few
    # parameters (its driver caches the parsing of statements of at most 50).
    pending = Delivery.State.PENDING.value
    assert pending.isidentifier()  # noqa: S101 - safe to write as a literal
    if source is None:
        when = "%s"
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        times = [now]
    else:
        when, times = f"{source}.updated_at", []
    sql = (
        f"INSERT INTO {q(delivery)} (id, subscription_id, event, data, state, attempts, "  # noqa: S608
        f"next_attempt_at, created_at) SELECT {new_id}, s.id, %s, {data}, '{pending}', 0, "
        f"{when}, {when} FROM {tables} WHERE {where} AND s.active AND {wants} RETURNING id"
    )
    values = [event.name, json.dumps(event.data, cls=DjangoJSONEncoder), *times, *times]
    return events.Insert(sql, (*values, *params, wanted), deliveries_send_on_commit)


def deliveries_send_on_commit(keys: Sequence[Any]) -> None:
    """After the commit that stored the deliveries ``keys``: a task to send each."""
    for key in keys:
        _send_task(key)


def _send_after_commit(delivery_id: Any, *, manual: bool = False) -> None:
    transaction.on_commit(lambda: _send_task(delivery_id, manual=manual))


def _send_task(delivery_id: Any, *, manual: bool = False) -> None:
    from webhooks.tasks import delivery_send

    # A broker that cannot be reached leaves the delivery to the periodic sweep.
    send_on_commit(delivery_send, str(delivery_id), manual)


def _claim(delivery_id: Any, now: datetime) -> Delivery | None:
    """Take a due delivery of an active subscription for one attempt: its next attempt moved
    past the time the attempt can take, so no other process takes it meanwhile."""
    connect, read = _timeouts()
    lease = now + timedelta(seconds=connect + read + 30)
    claimed = Delivery.objects.filter(
        pk=delivery_id,
        state=Delivery.State.PENDING,
        next_attempt_at__lte=now,
        subscription__active=True,
    ).update(next_attempt_at=lease)
    if not claimed:
        return None
    return Delivery.objects.select_related("subscription__tournament").get(pk=delivery_id)


def delivery_send(
    *, delivery_id: Any, manual: bool = False, now: datetime | None = None
) -> Delivery | None:
    """One attempt at a delivery, if it is due (at ``now``) and its subscription active; the
    delivery as it then stands, or None when there was nothing to do."""
    delivery = _claim(delivery_id, now or timezone.now())
    if delivery is None:
        return None
    subscription = delivery.subscription
    body = delivery.body()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Tarabish-Event": delivery.event,
        "Tarabish-Delivery": str(delivery.pk),
        signing.HEADER: signing.header(subscription.secret, body),
    }
    connect, read = _timeouts()
    answer = client.post(
        subscription.url,
        body,
        headers,
        connect_timeout=connect,
        read_timeout=read,
        ca_bundle=getattr(settings, "WEBHOOK_CA_BUNDLE", ""),
    )
    _store_answer(delivery, answer, manual=manual)
    return delivery


@transaction.atomic
def _store_answer(delivery: Delivery, answer: client.Answer, *, manual: bool) -> None:
    now = timezone.now()
    delivery.attempts += 1
    DeliveryAttempt.objects.create(
        delivery=delivery,
        number=delivery.attempts,
        at=now,
        status_code=answer.status,
        response_body=answer.body[: client.BODY_KEPT],
        duration_ms=answer.duration_ms,
        error=answer.error[:300],
        manual=manual,
    )
    delivery.last_status = answer.status
    subscription = Subscription.objects.select_for_update().get(pk=delivery.subscription_id)
    if answer.ok:
        delivery.state = Delivery.State.DELIVERED
        delivery.delivered_at = now
        if subscription.consecutive_failures:
            subscription.consecutive_failures = 0
            subscription.save(update_fields=["consecutive_failures"])
    else:
        if delivery.attempts >= max_attempts():
            delivery.state = Delivery.State.FAILED
        else:
            delivery.next_attempt_at = now + timedelta(seconds=backoff(delivery.attempts))
        Subscription.objects.filter(pk=subscription.pk).update(
            consecutive_failures=F("consecutive_failures") + 1
        )
        subscription.refresh_from_db(fields=["consecutive_failures"])
        if subscription.active and subscription.consecutive_failures >= disable_after():
            subscription.active = False
            subscription.disabled_at = now
            subscription.disabled_reason = (
                f"{subscription.consecutive_failures} deliveries failed in a row, the last: "
                + (f"HTTP {answer.status}" if answer.status is not None else answer.error)
            )[:300]
            subscription.version += 1
            subscription.save(update_fields=["active", "disabled_at", "disabled_reason", "version"])
            log.warning("webhook %s disabled: %s", subscription.pk, subscription.disabled_reason)
    delivery.save(
        update_fields=["attempts", "last_status", "state", "delivered_at", "next_attempt_at"]
    )


def deliveries_due(now: datetime | None = None, limit: int = 500) -> list[Any]:
    """The ids of the deliveries due now, of active subscriptions, the oldest first."""
    return list(
        Delivery.objects.filter(
            state=Delivery.State.PENDING,
            next_attempt_at__lte=now or timezone.now(),
            subscription__active=True,
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )


#: Seconds one sweep goes on trying deliveries; the next sweep takes up the rest.
SWEEP_SECONDS = 180


def deliveries_send_due(*, now: datetime | None = None) -> int:
    """The periodic sweep: an attempt at every delivery due (one whose task was never sent, a
    broker being out of reach, or whose backoff has run). Returns how many were tried."""
    tried = 0
    stop = time.monotonic() + SWEEP_SECONDS
    for delivery_id in deliveries_due(now):
        if time.monotonic() > stop:
            break
        if delivery_send(delivery_id=delivery_id, now=now) is not None:
            tried += 1
    return tried


def deliveries_of(subscription: Subscription) -> Iterable[Delivery]:
    """A subscription's deliveries, the newest first, with their attempts."""
    return subscription.deliveries.prefetch_related("attempt_log")
