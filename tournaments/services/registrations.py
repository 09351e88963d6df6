"""Teams that register themselves: a signed-in player names a partner by their account, and
the team is entered when the partner confirms.

A tournament takes them while its director lets it (``self_registration``), inside its
registration window, before play starts. A confirmed team is an entry like any other: under
the cap it plays, beyond it waits on the waiting list. Every write locks the tournament row,
so that two registrations naming the same player one after the other are told apart; the
unique constraints on pending registrations back that up, and a race they catch is a 409.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import services as scoring_services
from scoring.models import Player
from scoring.services.names import name_normalised, name_refused_why
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound
from tournaments.models import Entry, TeamRegistration, Tournament
from tournaments.services._common import Actor, integrity_as_conflict, invalid
from tournaments.services.tournaments import (
    _arrival,
    _bump,
    _locked,
    _places_left,
    _team_for,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Status = TeamRegistration.Status

#: The tournament states in which teams may still register (play has not started).
REGISTRATION_STATES = (
    Tournament.Status.DRAFT,
    Tournament.Status.REGISTRATION,
    Tournament.Status.CHECK_IN,
)


def registration_closed_why(tournament: Tournament, *, now: dt.datetime | None = None) -> str:
    """Why teams cannot register themselves in ``tournament`` at ``now`` (empty: they can)."""
    now = now or timezone.now()
    if not tournament.self_registration:
        return "teams do not register themselves here: its directors register them."
    if tournament.status not in REGISTRATION_STATES:
        return "play has started: registration is closed."
    opens, closes = tournament.registration_opens_at, tournament.registration_closes_at
    if opens is not None and now < opens:
        return f"registration opens at {opens.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC."
    if closes is not None and now >= closes:
        return f"registration closed at {closes.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC."
    return ""


def registration_is_open(tournament: Tournament, *, now: dt.datetime | None = None) -> bool:
    return not registration_closed_why(tournament, now=now)


def _require_open(tournament: Tournament) -> None:
    why = registration_closed_why(tournament)
    if why:
        raise Conflict(f"{tournament.name}: {why}", code="registration_closed")


def _signed_in(actor: Actor) -> User:
    if actor is None or not actor.is_authenticated:
        raise NotAllowed("Sign in to register a team.", code="sign_in_to_register")
    return actor


def _refuse_entered(tournament: Tournament, users: dict[int, str]) -> None:
    """Refuse when the player of an account in ``users`` (id: the field that names it) is on
    the team of an entry of ``tournament`` (withdrawn or not), or stands in for one."""
    players = Player.objects.filter(user_id__in=users).values_list("pk", "user_id")
    user_of = dict(players)
    if not user_of:
        return
    entries = tournament.entries.select_related("team")
    playing = (
        entries.filter(
            Q(team__player_one__in=user_of)
            | Q(team__player_two__in=user_of)
            | Q(substitutes__in=user_of)
        )
        .order_by("pk")
        .first()
    )
    if playing is None:
        return
    shared = set(user_of) & (set(playing.team.player_ids) | _substitute_ids(playing))
    user_id = user_of[min(shared)]
    field = users[user_id]
    player = Player.objects.get(pk=min(shared))
    message = f"{player} is already entered in this tournament, with {playing.team}."
    raise Conflict(message, code="player_entered", fields={field: [message]} if field else {})


def _substitute_ids(entry: Entry) -> set[int]:
    return set(entry.substitutes.values_list("pk", flat=True))


def _refuse_pending(tournament: Tournament, users: dict[int, str]) -> None:
    """Refuse when an account in ``users`` has a registration waiting in ``tournament``."""
    pending = (
        tournament.team_registrations.filter(status=Status.PENDING)
        .filter(Q(requested_by__in=users) | Q(partner__in=users))
        .select_related("requested_by", "partner")
        .order_by("pk")
        .first()
    )
    if pending is None:
        return
    user_id = min(set(users) & pending.user_ids)
    field = users[user_id]
    who = pending.requested_by if pending.requested_by_id == user_id else pending.partner
    message = (
        f"{who.username} already has a registration waiting here "
        f"({pending.requested_by.username} with {pending.partner.username}): "
        "confirm or withdraw it first."
    )
    raise Conflict(message, code="registration_pending", fields={field: [message]} if field else {})


def _checked_name(value: str, field: str, what: str, most: int) -> str:
    text = name_normalised(value or "")
    if not text:
        return ""
    why = name_refused_why(text)
    if why:
        raise invalid(field, f"{what} {why}")
    if len(text) > most:
        raise invalid(field, f"{what} is at most {most} characters.")
    return text


@transaction.atomic
def team_registration_create(
    *,
    tournament_id: int,
    actor: Actor,
    partner: str,
    team_name: str = "",
    community: str = "",
) -> TeamRegistration:
    """Register a team of the signed-in ``actor`` and the account named ``partner`` (its
    username); it waits for the partner to confirm."""
    user = _signed_in(actor)
    tournament = _locked(tournament_id)
    _require_open(tournament)
    name = _checked_name(team_name, "team_name", "a team name", 120)
    home = _checked_name(community, "community", "a community", 100)
    wanted = (partner or "").strip()
    if not wanted:
        raise invalid("partner", "name your partner by their username.", code="partner_unknown")
    found = get_user_model().objects.filter(username__iexact=wanted, is_active=True).first()
    if found is None:
        raise invalid(
            "partner",
            f"there is no account {wanted!r}: ask your partner for their username.",
            code="partner_unknown",
        )
    if found.pk == user.pk:
        raise invalid(
            "partner",
            "a team is two players: name your partner, not yourself.",
            code="partner_self",
        )
    users = {user.pk: "", found.pk: "partner"}
    _refuse_entered(tournament, users)
    _refuse_pending(tournament, users)
    with integrity_as_conflict(
        "A registration of one of these players is waiting here already.",
        code="registration_pending",
    ):
        return TeamRegistration.objects.create(
            tournament=tournament,
            requested_by=user,
            partner=found,
            team_name=name,
            community=home,
        )


def _pending_locked(registration_id: int, actor: Actor) -> tuple[TeamRegistration, Tournament]:
    """The registration, its tournament locked first (the order every writer takes); 404 to
    anyone but its two players."""
    user = _signed_in(actor)
    found = TeamRegistration.objects.filter(pk=registration_id).values_list(
        "tournament_id", flat=True
    )
    tournament_id = found.first()
    if tournament_id is None:
        raise NotFound(f"There is no registration {registration_id}.")
    tournament = _locked(tournament_id)
    registration = (
        TeamRegistration.objects.select_for_update()
        .select_related("requested_by", "partner")
        .get(pk=registration_id)
    )
    if user.pk not in registration.user_ids:
        raise NotFound(f"There is no registration {registration_id}.")
    if registration.status != Status.PENDING:
        raise Conflict(
            f"This registration is {registration.get_status_display().lower()} already.",
            code="registration_decided",
        )
    registration.tournament = tournament
    return registration, tournament


def player_for_account(user: Any, *, community: str = "") -> Player:
    """The player an account plays as: its linked player, else one made now under the
    account's name (its username told apart when another player has that name)."""
    found = Player.objects.filter(user=user).first()
    if found is not None:
        return found
    name = name_normalised(user.get_full_name() or user.username)[:80]
    if scoring_services.player_named(name, community) is not None:
        name = f"{name} ({user.username})"[:100]
    with integrity_as_conflict(
        f"{user.username}'s player was made at the same moment: try again.", code="conflict"
    ):
        return scoring_services.player_create(display_name=name, community=community, user=user)


@transaction.atomic
def team_registration_confirm(*, registration_id: int, actor: Actor) -> TeamRegistration:
    """The partner confirms: the two accounts' players (made if they have none) become a team
    (the one they already are, if any), entered in the tournament; beyond its cap the team
    waits on the waiting list."""
    registration, tournament = _pending_locked(registration_id, actor)
    if actor.pk != registration.partner_id:  # type: ignore[union-attr]  # signed in
        raise NotAllowed(
            f"Only {registration.partner.username}, the partner named, confirms this team.",
            code="partner_only",
        )
    _require_open(tournament)
    users = {registration.requested_by_id: "", registration.partner_id: "partner"}
    _refuse_entered(tournament, users)
    one = player_for_account(registration.requested_by, community=registration.community)
    two = player_for_account(registration.partner, community=registration.community)
    team = _team_for(one, two, registration.team_name)
    waits = _places_left(tournament) == 0
    with integrity_as_conflict(f"{team.name} is already registered.", code="already_registered"):
        entry = Entry.objects.create(
            tournament=tournament, team=team, **_arrival(tournament, waits=waits)
        )
    registration.status = Status.CONFIRMED
    registration.entry = entry
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "entry", "decided_at"])
    _bump(tournament)
    return registration


@transaction.atomic
def team_registration_withdraw(*, registration_id: int, actor: Actor) -> TeamRegistration:
    """Either player takes back a registration that waits: the partner declines it, the
    player who made it withdraws it."""
    registration, _ = _pending_locked(registration_id, actor)
    declined = actor.pk == registration.partner_id  # type: ignore[union-attr]  # signed in
    registration.status = Status.DECLINED if declined else Status.WITHDRAWN
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "decided_at"])
    return registration
