# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var"
"""A tournament set up in one go: format presets, pasted teams, seeds, the start."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.test import Client
from django.utils import translation

from tarabish_site.api.errors import ValidationFailed
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory, add_stage
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.services.setup import Setup, teams_from_text, tournament_setup

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 5)


def _teams(count: int) -> str:
    return "\n".join(f"Angus {n} & Flora {n}" for n in range(1, count + 1))


def test_pasted_lines_name_teams_and_players() -> None:
    text = "The Bait Shop: Angus MacNeil & Flora MacLean\n\nRon and Mary\nJoan, Hughie\nDan Alex"
    assert teams_from_text(text) == [
        {"team": "The Bait Shop", "player_one": "Angus MacNeil", "player_two": "Flora MacLean"},
        {"team": "", "player_one": "Ron", "player_two": "Mary"},
        {"team": "", "player_one": "Joan", "player_two": "Hughie"},
        {"team": "", "player_one": "Dan Alex", "player_two": ""},
    ]


@pytest.mark.parametrize(
    ("preset", "kinds", "matches"),
    [
        ("round_robin", ["round_robin"], 28),
        ("pools_single", ["round_robin", "single_elim"], 12),
        ("pools_double", ["round_robin", "double_elim"], 12),
        ("swiss", ["swiss"], 4),
        ("single_elim", ["single_elim"], 7),
        ("double_elim", ["double_elim"], 15),
    ],
)
def test_each_format_preset_starts_its_first_stage(
    preset: str, kinds: list[str], matches: int
) -> None:
    director = UserFactory(director=True)
    tournament = tournament_setup(
        actor=director,
        setup=Setup(name=f"Fall {preset}", starts_on=DAY, format=preset, teams=_teams(8)),
    )
    assert tournament.status == Tournament.Status.RUNNING
    stages = list(tournament.stages.order_by("order"))
    assert [s.kind for s in stages] == kinds
    assert stages[0].status == Stage.Status.RUNNING
    assert Match.objects.filter(stage=stages[0]).count() == matches
    if len(stages) == 2:
        assert stages[1].qualifiers_per_pool == 2
        assert stages[0].pool_count == 2
    assert sorted(tournament.entries.values_list("seed", flat=True)) == list(range(1, 9))


def test_seeds_as_entered_or_drawn() -> None:
    director = UserFactory(director=True)
    entered = tournament_setup(
        actor=director,
        setup=Setup(name="As entered", starts_on=DAY, format="single_elim", teams=_teams(4)),
    )
    names = list(entered.entries.order_by("seed").values_list("team__player_one__display_name"))
    assert [n for (n,) in names] == ["Angus 1", "Angus 2", "Angus 3", "Angus 4"]
    drawn = tournament_setup(
        actor=director,
        setup=Setup(
            name="Drawn", starts_on=DAY, format="single_elim", teams=_teams(8), seeding="random"
        ),
        rng=random.Random(1),
    )
    order = [
        n for (n,) in drawn.entries.order_by("seed").values_list("team__player_one__display_name")
    ]
    assert sorted(order) == sorted(f"Angus {n}" for n in range(1, 9))
    assert order != [f"Angus {n}" for n in range(1, 9)]


def test_with_a_check_in_the_tournament_opens_for_it() -> None:
    director = UserFactory(director=True)
    tournament = tournament_setup(
        actor=director,
        setup=Setup(
            name="Checked", starts_on=DAY, format="swiss", teams=_teams(6), check_in_required=True
        ),
    )
    assert tournament.status == Tournament.Status.CHECK_IN
    assert not tournament.entries.filter(checked_in=True).exists()
    assert tournament.stages.get().status == Stage.Status.PENDING


def test_a_bad_line_keeps_nothing_and_names_its_line() -> None:
    director = UserFactory(director=True)
    with pytest.raises(ValidationFailed) as refused:
        tournament_setup(
            actor=director,
            setup=Setup(
                name="Bad", starts_on=DAY, format="round_robin", teams=_teams(3) + "\n\nDan Alex"
            ),
        )
    assert refused.value.fields == {"teams": ["line 5: player two is empty."]}
    assert not Tournament.objects.exists()
    assert not Entry.objects.exists()


def test_qualifiers_that_leave_no_knockout_are_refused_on_their_field() -> None:
    director = UserFactory(director=True)
    with pytest.raises(ValidationFailed) as refused:
        tournament_setup(
            actor=director,
            setup=Setup(
                name="One pool",
                starts_on=DAY,
                format="pools_single",
                teams=_teams(4),
                pool_count=1,
                qualifiers_per_pool=1,
            ),
        )
    assert list(refused.value.fields) == ["qualifiers_per_pool"]
    assert not Tournament.objects.exists()


def _form(**values: str) -> dict[str, str]:
    return {
        "name": "Legion Saturday",
        "starts_on": "2026-12-05",
        "venue": "Legion, Glace Bay",
        "format": "pools_single",
        "pool_count": "2",
        "qualifiers_per_pool": "2",
        "swiss_rounds": "",
        "ruleset_preset": "cape-breton-standard",
        "match_games": "1",
        "teams": _teams(8),
        "seeding": "as_entered",
        **values,
    }


def test_the_page_sets_up_and_starts_then_shows_the_day() -> None:
    director = UserFactory(director=True)
    client = Client()
    client.force_login(director)
    page = client.get("/tournaments/new/")
    assert page.status_code == 200
    assert "Next stage" in page.content.decode()
    answer = client.post("/tournaments/new/", _form())
    tournament = Tournament.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{tournament.slug}/director/"
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.venue == "Legion, Glace Bay"
    assert tournament.quick_results_by_scorekeepers is False


def test_a_french_director_sets_up_in_french_and_gets_french_stage_names() -> None:
    director = UserFactory(director=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-ca")
    client.force_login(director)
    page = client.get("/tournaments/new/").content.decode()
    assert "Poules, puis simple élimination" in page
    assert "Selon les cotes des joueurs" in page
    assert "Pools, then single elimination" not in page
    assert client.post("/tournaments/new/", _form()).status_code == 302
    stages = Stage.objects.order_by("order").values_list("name", flat=True)
    assert list(stages) == ["Poules", "Phase finale"]


def test_an_english_director_gets_english_stage_names() -> None:
    client = Client()
    client.force_login(UserFactory(director=True))
    assert client.post("/tournaments/new/", _form(format="swiss")).status_code == 302
    assert client.post("/tournaments/new/", _form(name="Legion Sunday")).status_code == 302
    stages = Stage.objects.order_by("tournament_id", "order").values_list("name", flat=True)
    assert list(stages) == ["Stage 1: Swiss", "Pools", "Knockout"]


def test_a_stage_without_a_name_is_named_in_the_language_of_the_request() -> None:
    tournament = TournamentFactory()
    with translation.override("fr-ca"):
        french = add_stage(tournament, "round_robin")
    english = add_stage(tournament, "single_elim")
    assert (french.name, english.name) == (
        "Phase 1\u00a0: Toutes rondes",
        "Stage 2: Single elimination",
    )


def test_the_page_lets_table_scorekeepers_record_games_played_on_paper() -> None:
    director = UserFactory(director=True)
    client = Client()
    client.force_login(director)
    assert "quick_results_by_scorekeepers" in client.get("/tournaments/new/").content.decode()
    answer = client.post("/tournaments/new/", _form(quick_results_by_scorekeepers="on"))
    assert answer.status_code == 302
    assert Tournament.objects.get().quick_results_by_scorekeepers is True


def test_the_page_asks_for_results_confirmed_by_both_teams() -> None:
    director = UserFactory(director=True)
    client = Client()
    client.force_login(director)
    assert "results_confirmed_by_both" in client.get("/tournaments/new/").content.decode()
    answer = client.post("/tournaments/new/", _form(results_confirmed_by_both="on"))
    assert answer.status_code == 302
    assert Tournament.objects.get().results_confirmed_by_both is True


def test_the_page_puts_each_refusal_beside_its_field() -> None:
    director = UserFactory(director=True)
    client = Client()
    client.force_login(director)
    answer = client.post("/tournaments/new/", _form(teams="Ron & Ron\nMary & Joan"))
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert errors["teams"] == ["line 1: player two is the same player as player_one."]
    assert not Tournament.objects.exists()
    taken = client.post("/tournaments/new/", _form())
    assert taken.status_code == 302
    again = client.post("/tournaments/new/", _form())
    assert again.status_code == 400
    assert "name" in again.context["form"].errors


def test_only_a_director_sets_up_a_tournament() -> None:
    client = Client()
    client.force_login(UserFactory())
    assert client.get("/tournaments/new/").status_code == 403
    assert client.post("/tournaments/new/", _form()).status_code == 403
    assert not Tournament.objects.exists()


def test_the_day_lists_only_the_matches_that_can_start_now() -> None:
    from tests.tournaments.factories import add_stage, tournament_ready
    from tests.tournaments.helpers import win_match
    from tournaments.selectors import director_day
    from tournaments.services import match_game_start, stage_start

    tournament = tournament_ready(6)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    day = director_day(tournament)
    assert [m.round.number for m in day.ready] == [1, 1, 1]
    assert [m.table for m in day.ready] == [1, 2, 3]
    assert len(day.queued) == 12  # every later round: their teams play round 1 first
    first, second, third = day.ready
    match_game_start(match_id=first.pk, actor=None, first_dealer=0)
    win_match(second, "home")
    day = director_day(tournament)
    assert [m.pk for m in day.in_progress] == [first.pk]
    assert day.ready[0].pk == third.pk  # still to start, its table free
    # round 2 waits for the teams still playing (or due to play) round 1, and table 1 is taken
    busy = {first.home_id, first.away_id, third.home_id, third.away_id}
    for match in day.ready[1:]:
        assert match.round.number == 2
        assert not {match.home_id, match.away_id} & busy
        assert match.table not in (1, third.table)
    assert len(day.ready) + len(day.queued) == 13
