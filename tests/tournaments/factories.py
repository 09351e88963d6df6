# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,return-value,untyped-decorator"
"""Factories and small builders for tournament tests."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory

from scoring.engine import preset
from tests.scoring.factories import TeamFactory, UserFactory
from tournaments.models import Entry, Stage, Tournament
from tournaments.services import checkin_process, stage_create


class TournamentFactory(factory.django.DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Legion Hall Open {n}")
    slug = factory.Sequence(lambda n: f"legion-hall-open-{n}")
    venue = "Royal Canadian Legion, Glace Bay"
    starts_on = dt.date(2026, 11, 21)
    ends_on = dt.date(2026, 11, 21)
    ruleset_preset = "cape-breton-standard"
    ruleset = factory.LazyFunction(lambda: preset("cape-breton-standard").to_json())
    organiser = factory.SubFactory(UserFactory)
    status = Tournament.Status.DRAFT

    @factory.post_generation
    def directors(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            self.directors.add(*(extracted or [self.organiser]))


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    team = factory.SubFactory(TeamFactory)


def tournament_ready(
    entries: int, *, match_games: int = 1, match_format: str = "best_of", **values: Any
) -> Tournament:
    """A tournament in check-in with ``entries`` teams checked in and seeded 1..n."""
    tournament = TournamentFactory(
        status=Tournament.Status.CHECK_IN,
        match_games=match_games,
        match_format=match_format,
        **values,
    )
    for _ in range(entries):
        EntryFactory(tournament=tournament, checked_in=True)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament


def add_stage(tournament: Tournament, kind: str, **settings: Any) -> Stage:
    return stage_create(
        tournament_id=tournament.pk, actor=tournament.organiser, kind=kind, **settings
    )
