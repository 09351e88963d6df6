"""Subscriptions and events for webhook tests, through the real services."""

from __future__ import annotations

from tarabish_site import events
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.models import Match, Tournament
from tournaments.services import stage_start
from webhooks.models import Subscription
from webhooks.services import subscription_create


def running_match() -> Match:
    """A ready match of a running four-team round robin."""
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    return ready_matches(stage.pk)[0]


def subscribe(tournament: Tournament, url: str, *names: str) -> Subscription:
    return subscription_create(
        tournament=tournament,
        actor=tournament.organiser,
        url=url,
        events=list(names or events.EVENTS),
    )
