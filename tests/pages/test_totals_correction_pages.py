# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type"
"""A director corrects a game recorded by its totals from the match page: refusals beside
their fields, and a change that would re-open played bracket matches held until confirmed."""

from typing import Any

import pytest
from django.test import Client

from scoring.models import Game
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.models import Match, Stage, Tournament
from tournaments.services import match_game_record_totals, stage_start

pytestmark = pytest.mark.django_db


def started(kind: str, **settings: Any) -> tuple[Tournament, Stage]:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, kind, **settings)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament, stage


def quick(tournament: Tournament, match: Match, home: int, away: int) -> Match:
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=home, away_points=away
    )
    return Match.objects.get(pk=match.pk)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(match: Match, home: int | str, away: int | str, **values: Any) -> dict[str, Any]:
    return {
        "totals-game": "1",
        "totals-home_points": str(home),
        "totals-away_points": str(away),
        "totals-winner": "",
        "totals-reason": "Totals swapped on the sheet.",
        "totals-version": str(match.version),
        **values,
    }


def test_a_director_corrects_the_totals_and_the_match_follows() -> None:
    tournament, stage = started("round_robin")
    match = ready_matches(stage.pk)[0]
    client = signed_in(tournament.organiser)
    before = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="totals-correction-form"' not in before  # no game recorded by its totals yet
    match = quick(tournament, match, 510, 0)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="totals-correction-form"' in page
    url = f"/matches/{match.pk}/totals/"

    short = client.post(url, form(match, 300, 200))
    assert short.status_code == 400
    html = short.content.decode()
    assert 'id="id_totals-home_points_error"><div>' in html
    assert 'value="300"' in html  # kept as typed
    no_reason = client.post(url, form(match, 0, 510, **{"totals-reason": ""}))
    assert no_reason.status_code == 400
    assert "This field is required" in no_reason.content.decode()
    stale = client.post(url, form(match, 0, 510, **{"totals-version": str(match.version - 1)}))
    assert stale.status_code == 412
    assert "has changed since you read it" in stale.content.decode()
    stranger = signed_in(UserFactory()).post(url, form(match, 0, 510))
    assert stranger.status_code == 403
    assert (
        'id="totals-correction-form"'
        not in signed_in(UserFactory()).get(f"/matches/{match.pk}/").content.decode()
    )

    done = client.post(url, form(match, 0, 510), follow=True)
    assert done.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    assert "Game 1 corrected" in done.content.decode()
    match.refresh_from_db()
    assert (match.winner_id, match.away_points) == (match.away_id, 510)
    assert Game.objects.get(match_link__match=match).totals_revisions.count() == 1


def test_a_new_winner_of_a_played_bracket_match_is_held_on_the_page_until_confirmed() -> None:
    tournament, stage = started("double_elim", grand_final="reset")
    first, second = ready_matches(stage.pk)[:2]
    first = quick(tournament, first, 510, 120)
    quick(tournament, second, 505, 200)
    quick(tournament, Match.objects.get(stage=stage, key="W2-1"), 501, 0)
    client = signed_in(tournament.organiser)

    done = client.post(f"/matches/{first.pk}/totals/", form(first, 120, 510), follow=True)
    html = done.content.decode()
    assert "keeps its result until a director confirms the change" in html
    assert "would re-open W2-1" in html
    assert 'id="confirm-reset"' in html
    held = Match.objects.get(pk=first.pk)
    assert held.winner_id == first.home_id

    url = f"/matches/{first.pk}/confirm-reset/"
    asked = client.post(url, {"version": str(held.version)})
    assert asked.status_code == 200  # asks before re-opening W2-1
    assert Match.objects.get(pk=first.pk).winner_id == first.home_id
    confirmed = client.post(url, {"version": str(held.version), "confirmed": "yes"})
    assert confirmed.status_code == 302
    assert Match.objects.get(pk=first.pk).winner_id == first.away_id
