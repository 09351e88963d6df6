# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""Selectors shaped for the tournament pages: the overview's entries and placings, and what a
director is offered on a match's page."""

import pytest

from tests.tournaments.factories import EntryFactory, TournamentFactory, add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments.models import Match, Tournament
from tournaments.selectors import match_detail, match_director_actions, tournament_overview
from tournaments.services import match_forfeit, stage_start

pytestmark = pytest.mark.django_db


def test_the_overview_lists_seeded_entries_by_seed_then_the_others_as_they_registered():
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    early = EntryFactory(tournament=tournament)
    third = EntryFactory(tournament=tournament, seed=3)
    first = EntryFactory(tournament=tournament, seed=1)
    late = EntryFactory(tournament=tournament)
    overview = tournament_overview(tournament)
    assert [e.pk for e in overview.entries] == [first.pk, third.pk, early.pk, late.pk]


def test_the_overview_lists_every_placing_in_order():
    tournament = tournament_ready(11)
    for place, entry in enumerate(tournament.entries.order_by("-seed"), start=1):
        entry.final_place = place
        entry.save(update_fields=["final_place"])
    placings = tournament_overview(tournament).placements
    assert [e.final_place for e in placings] == list(range(1, 12))


def actions_on(match: Match) -> tuple[bool, bool]:
    offered = match_director_actions(match_detail(match.pk))
    return offered.forfeit, offered.held


def test_a_match_offers_a_forfeit_until_play_decides_it():
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi, other = (Match.objects.get(stage=stage, key=key) for key in ("W1-1", "W1-2"))
    final = Match.objects.get(stage=stage, key="W2-1")
    assert actions_on(semi) == (True, False)
    assert actions_on(final) == (False, False)  # its teams are not known yet
    played = win_match(other, "home")
    assert actions_on(played) == (False, False)  # decided by play
    match_forfeit(
        match_id=semi.pk,
        actor=tournament.organiser,
        loser_id=semi.home_id,
        expected_version=semi.version,
    )
    semi.refresh_from_db()
    assert actions_on(semi) == (True, False)  # the forfeit may go the other way
    Match.objects.filter(pk=final.pk).update(held_reason="Result of W1-1 changed.")
    assert actions_on(final)[1] is True
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    assert actions_on(semi) == (False, False)
    assert actions_on(final) == (False, False)
