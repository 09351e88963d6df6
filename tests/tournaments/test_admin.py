# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,misc"
"""The admin lists answer and its actions run the director's steps."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory, add_stage, tournament_ready
from tournaments.models import Match, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_for_director() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def change_form(tournament: Any) -> dict[str, Any]:
    """The admin's change form of ``tournament`` as it stands, its organiser the only director
    named and "public" unticked."""
    import json

    return {
        "name": tournament.name,
        "slug": tournament.slug,
        "venue": tournament.venue,
        "starts_on": str(tournament.starts_on),
        "ends_on": str(tournament.ends_on),
        "organiser": str(tournament.organiser_id),
        "directors": [str(tournament.organiser_id)],
        "ruleset_preset": tournament.ruleset_preset,
        "ruleset": json.dumps(tournament.ruleset),
        "match_format": tournament.match_format,
        "match_games": str(tournament.match_games),
        "status": tournament.status,
        "stages-TOTAL_FORMS": "0",
        "stages-INITIAL_FORMS": "0",
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
    }


def first_match_started() -> tuple[Any, Any]:
    """A knockout of four started: the tournament and its first match ready to play."""
    from tests.tournaments.helpers import ready_matches
    from tournaments import services

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    return tournament, ready_matches(stage.pk)[0]


@pytest.mark.parametrize(
    "page",
    [
        "tournament",
        "entry",
        "stage",
        "match",
        "standing",
        "playerrating",
        "ratingchange",
    ],
)
def test_lists_answer(admin_client_for_director: Client, page: str) -> None:
    tournament = tournament_ready(4)
    add_stage(tournament, "round_robin")
    response = admin_client_for_director.get(f"/admin/tournaments/{page}/")
    assert response.status_code == 200


def test_actions_run_the_director_steps(admin_client_for_director: Client) -> None:
    tournament = TournamentFactory()
    response = admin_client_for_director.post(
        "/admin/tournaments/tournament/",
        {"action": "open_registration", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    ready = tournament_ready(4)
    stage = add_stage(ready, "single_elim")
    admin_client_for_director.post(
        "/admin/tournaments/stage/", {"action": "start", "_selected_action": [stage.pk]}
    )
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    assert Match.objects.filter(stage=stage, state=Match.State.READY).count() == 2
    refused = admin_client_for_director.post(
        "/admin/tournaments/stage/",
        {"action": "start", "_selected_action": [stage.pk]},
        follow=True,
    )
    assert "has already started" in refused.content.decode()


def test_adding_a_tournament_goes_through_the_service(admin_client_for_director: Client) -> None:
    form = {
        "name": "Sydney Mines Open",
        "slug": "",
        "venue": "Miners' Hall",
        "starts_on": "2026-12-12",
        "ends_on": "2026-12-12",
        "ruleset_preset": "cape-breton-standard",
        "match_format": "best_of",
        "match_games": "2",
        "public": "on",
    }
    refused = admin_client_for_director.post("/admin/tournaments/tournament/add/", form)
    assert refused.status_code == 200
    assert "use an odd number" in refused.content.decode()
    assert not Tournament.objects.exists()
    form["match_games"] = "3"
    added = admin_client_for_director.post("/admin/tournaments/tournament/add/", form)
    assert added.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.slug == "sydney-mines-open"
    assert tournament.ruleset_preset == "cape-breton-standard"
    assert tournament.ruleset
    assert list(tournament.directors.all()) == [tournament.organiser]


def test_adding_a_stage_goes_through_the_service(admin_client_for_director: Client) -> None:
    tournament = tournament_ready(4)
    tournament.directors.add(*UserFactory._meta.model.objects.filter(is_superuser=True))
    form = {
        "tournament": str(tournament.pk),
        "name": "",
        "kind": "round_robin",
        "pool_count": "1",
        "legs": "1",
        "third_place": "on",
        "grand_final": "reset",
        "tiebreakers": "[]",
        "match_format": "",
    }
    refused = admin_client_for_director.post("/admin/tournaments/stage/add/", form)
    assert refused.status_code == 200
    assert "only single elimination has a third-place match" in refused.content.decode()
    del form["third_place"]
    added = admin_client_for_director.post("/admin/tournaments/stage/add/", form)
    assert added.status_code == 302
    stage = Stage.objects.get(tournament=tournament)
    assert (stage.order, stage.name) == (1, "Stage 1: Round robin")


def test_a_forfeit_is_awarded_from_the_match_list(admin_client_for_director: Client) -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    admin_client_for_director.post(
        "/admin/tournaments/stage/", {"action": "start", "_selected_action": [stage.pk]}
    )
    match = Match.objects.get(stage=stage)
    admin_client_for_director.post(
        "/admin/tournaments/match/", {"action": "forfeit_away", "_selected_action": [match.pk]}
    )
    match.refresh_from_db()
    assert (match.state, match.forfeit, match.winner_id) == ("complete", True, match.home_id)


def test_a_forfeit_from_the_match_list_keeps_a_result_decided_by_play(
    admin_client_for_director: Client,
) -> None:
    from tests.tournaments.helpers import win_match
    from tournaments.models import MatchGame

    tournament = tournament_ready(2, match_games=3)
    stage = add_stage(tournament, "single_elim")
    from tournaments import services

    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = win_match(Match.objects.get(stage=stage), "home")
    refused = admin_client_for_director.post(
        "/admin/tournaments/match/",
        {"action": "forfeit_away", "_selected_action": [match.pk]},
        follow=True,
    )
    said = [str(message) for message in refused.context["messages"]]
    assert not any("Matches awarded by forfeit" in message for message in said)
    assert len(said) == 1
    assert "decided by play" in said[0]
    assert 'Here that is the action "Forfeit: the away team loses, overturning' in said[0]
    after = Match.objects.get(pk=match.pk)
    assert (after.forfeit, after.winner_id, after.home_games) == (False, match.home_id, 2)
    admin_client_for_director.post(
        "/admin/tournaments/match/",
        {"action": "forfeit_home_reset", "_selected_action": [match.pk]},
    )
    after = Match.objects.get(pk=match.pk)
    assert (after.forfeit, after.winner_id) == (True, match.away_id)
    assert not MatchGame.objects.filter(match=match, discarded=False).exists()


def test_a_tournament_made_private_in_the_admin_takes_its_matches_out_of_the_ratings(
    admin_client_for_director: Client, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.tournaments.helpers import win_match
    from tournaments import services
    from tournaments.models import RatingChange

    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        match = win_match(Match.objects.get(stage=stage), "home")
    assert RatingChange.objects.filter(match=match).count() == 4
    tournament.refresh_from_db()
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_for_director.post(url, change_form(tournament))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not RatingChange.objects.exists()
    tournament.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_for_director.post(url, {**change_form(tournament), "public": "on"})
    assert RatingChange.objects.filter(match=match).count() == 4


def test_a_director_named_in_the_admin_directs_that_tournament_only(
    admin_client_for_director: Client,
) -> None:
    import json

    from django.contrib.auth import get_user_model

    tournament = TournamentFactory()
    named = UserFactory()
    form = {
        "name": tournament.name,
        "slug": tournament.slug,
        "venue": tournament.venue,
        "starts_on": "2026-11-21",
        "ends_on": "2026-11-21",
        "organiser": str(tournament.organiser_id),
        "directors": [str(tournament.organiser_id), str(named.pk)],
        "ruleset_preset": tournament.ruleset_preset,
        "ruleset": json.dumps(tournament.ruleset),
        "match_format": "best_of",
        "match_games": "1",
        "status": "draft",
        "public": "on",
        "stages-TOTAL_FORMS": "0",
        "stages-INITIAL_FORMS": "0",
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
    }
    response = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", form
    )
    assert response.status_code == 302
    assert tournament.directors.filter(pk=named.pk).exists()
    # The right goes with the tournament: none over every game.
    assert not get_user_model().objects.get(pk=named.pk).has_perm("scoring.direct_games")


def test_a_tournament_made_private_in_the_admin_takes_its_games_along(
    admin_client_for_director: Client,
) -> None:
    from scoring.models import Game
    from tournaments import services

    tournament, match = first_match_started()
    game = services.match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    tournament.refresh_from_db()
    form = change_form(tournament)  # "public" left out: the box unticked
    response = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", form
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get(pk=game.pk).public is False


def test_a_director_taken_off_in_the_admin_keeps_no_right_to_its_games(
    admin_client_for_director: Client,
) -> None:
    from scoring import services as scoring_services
    from scoring.models import Game
    from tournaments import services

    tournament, match = first_match_started()
    named = UserFactory()
    services.tournament_director_add(tournament_id=tournament.pk, actor=None, user_id=named.pk)
    game = services.match_game_start(match_id=match.pk, actor=named, first_dealer=0).game
    assert scoring_services.user_can_keep_score(named, game)
    tournament.refresh_from_db()
    form = {**change_form(tournament), "public": "on"}
    response = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", form
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(pk=game.pk)
    assert game.created_by_id is None
    assert not game.scorekeepers.filter(pk=named.pk).exists()
    assert not scoring_services.user_can_keep_score(named, game)


def test_a_running_tournament_keeps_its_format_status_and_stages_in_the_admin(
    admin_client_for_director: Client,
) -> None:
    tournament, match = first_match_started()
    tournament.refresh_from_db()
    stage = match.stage
    form = {
        **change_form(tournament),
        "ruleset": '{"target": "lots"}',
        "status": "draft",
        "match_games": "3",
    }
    response = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", form
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.ruleset, after.status, after.match_games) == (
        tournament.ruleset,
        Tournament.Status.RUNNING,
        tournament.match_games,
    )
    stage_form = {"name": "Renamed", "kind": "double_elim", "tournament": str(tournament.pk)}
    response = admin_client_for_director.post(
        f"/admin/tournaments/stage/{stage.pk}/change/", stage_form
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    stage.refresh_from_db()
    assert (stage.name, stage.kind) == ("Renamed", "single_elim")
    assert (
        admin_client_for_director.get(f"/admin/tournaments/stage/{stage.pk}/delete/").status_code
        == 403
    )
    deleting = admin_client_for_director.get(f"/admin/tournaments/match/{match.pk}/delete/")
    assert deleting.status_code == 403
    assert Match.objects.filter(pk=match.pk).exists()


def test_registering_a_team_in_the_admin_goes_through_the_service(
    admin_client_for_director: Client,
) -> None:
    from tests.scoring.factories import TeamFactory
    from tests.tournaments.factories import EntryFactory
    from tournaments.models import Entry

    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    taken = EntryFactory(tournament=tournament).team
    url = "/admin/tournaments/entry/add/"
    clash = TeamFactory(player_one=taken.player_one)
    refused = admin_client_for_director.post(
        url, {"tournament": str(tournament.pk), "team": str(clash.pk), "seed": ""}
    )
    assert refused.status_code == 200
    assert f"already plays for {taken}" in refused.context["adminform"].form.errors["team"][0]
    assert tournament.entries.count() == 1
    fresh = TeamFactory()
    added = admin_client_for_director.post(
        url, {"tournament": str(tournament.pk), "team": str(fresh.pk), "seed": "2"}
    )
    assert added.status_code == 302, added.context["adminform"].form.errors
    entry = Entry.objects.get(tournament=tournament, team=fresh)
    assert entry.seed == 2
    finished = TournamentFactory(status=Tournament.Status.FINISHED)
    late = admin_client_for_director.post(
        url, {"tournament": str(finished.pk), "team": str(TeamFactory().pk), "seed": ""}
    )
    assert late.status_code == 200
    assert not finished.entries.exists()


def test_a_director_imports_teams_from_a_csv_in_the_admin(
    admin_client_for_director: Client,
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    url = f"/admin/tournaments/tournament/{tournament.pk}/import-entries/"
    assert url in admin_client_for_director.get(change).content.decode()

    def upload(text: str) -> Any:
        csv = SimpleUploadedFile("teams.csv", text.encode(), content_type="text/csv")
        return admin_client_for_director.post(url, {"file": csv})

    bad = upload("team,player_one,player_two\nA,Ann Beaton,Ann Beaton\nB,Rita Joe,\n")
    assert bad.status_code == 200
    errors = bad.context["form"].errors["file"]
    assert any(e.startswith("line 3, player_two:") for e in errors), errors
    assert not tournament.entries.exists()
    good = upload("team,player_one,player_two,community,seed\nA,Ann Beaton,Rita Joe,Mabou,1\n")
    assert good.status_code == 302
    assert [e.team.name for e in tournament.entries.all()] == ["A"]
    assert admin_client_for_director.get(f"{url[:-16]}99999/import-entries/").status_code in (
        302,
        403,
        404,
    )


def test_every_add_and_change_page_answers(admin_client_for_director: Client) -> None:
    tournament, match = first_match_started()
    entry = tournament.entries.first()
    pages = [
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        "/admin/tournaments/tournament/add/",
        f"/admin/tournaments/stage/{match.stage_id}/change/",
        "/admin/tournaments/stage/add/",
        f"/admin/tournaments/entry/{entry.pk}/change/",
        "/admin/tournaments/entry/add/",
        f"/admin/tournaments/match/{match.pk}/change/",
    ]
    for page in pages:
        assert admin_client_for_director.get(page).status_code == 200, page


def test_a_forfeit_that_replays_later_matches_is_confirmed_from_the_match_list(
    admin_client_for_director: Client,
) -> None:
    from tests.tournaments.helpers import win_match
    from tournaments import services

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    win_match(Match.objects.get(stage=stage, key="W2-1"), "home")  # the final, played

    def forfeit(action: str) -> Match:
        admin_client_for_director.post(
            "/admin/tournaments/match/", {"action": action, "_selected_action": [semi.pk]}
        )
        return Match.objects.get(pk=semi.pk)

    assert forfeit("forfeit_home").winner_id == semi.home_id  # refused: the final was played
    after = forfeit("forfeit_home_reset")
    assert (after.forfeit, after.winner_id) == (True, after.away_id)
    final = Match.objects.get(stage=stage, key="W2-1")
    assert final.state != Match.State.COMPLETE  # to be played again, with the new finalist


def test_every_constraint_is_explained_in_words() -> None:
    from django.apps import apps

    for app in ("scoring", "tournaments"):
        for model in apps.get_app_config(app).get_models():
            for constraint in model._meta.constraints:
                message = constraint.get_violation_error_message()
                assert "onstraint" not in message, (model.__name__, constraint.name)


def test_a_seed_taken_or_a_format_out_of_the_rules_is_refused_in_words(
    admin_client_for_director: Client,
) -> None:
    from tests.scoring.factories import TeamFactory
    from tests.tournaments.factories import EntryFactory

    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    taken = EntryFactory(tournament=tournament, seed=1)
    other = EntryFactory(tournament=tournament, seed=2)
    added = admin_client_for_director.post(
        "/admin/tournaments/entry/add/",
        {"tournament": str(tournament.pk), "team": str(TeamFactory().pk), "seed": "1"},
    )
    seed_taken = (
        "Another entry of this tournament already has this seed: choose a free seed, or leave "
        "it empty."
    )
    assert added.context["adminform"].form.non_field_errors() == [seed_taken]
    assert tournament.entries.count() == 2
    changed = admin_client_for_director.post(
        f"/admin/tournaments/entry/{other.pk}/change/", {"seed": str(taken.seed)}
    )
    assert changed.context["adminform"].form.non_field_errors() == [seed_taken]
    form = {**change_form(tournament), "match_games": "2"}
    even = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", form
    )
    assert even.context["adminform"].form.non_field_errors() == [
        "Best of N games needs an odd N (1, 3, 5, 7 or 9): an even number can end level."
    ]


def test_the_ruleset_is_chosen_among_the_presets_in_the_admin(
    admin_client_for_director: Client,
) -> None:
    from scoring.engine import preset

    page = admin_client_for_director.get("/admin/tournaments/tournament/add/")
    field = page.context["adminform"].form.fields["ruleset_preset"]
    assert [slug for slug, _ in field.choices] == [
        "cape-breton-standard",
        "kitchen-table",
        "forced-at-400",
        "online-family",
    ]
    assert "Cape Breton standard" in page.content.decode()
    assert "custom ruleset" not in field.help_text.split(".")[0].lower()
    form = {
        "name": "Mabou Open",
        "starts_on": "2026-12-12",
        "ruleset_preset": "no-such-rules",
        "match_format": "best_of",
        "match_games": "1",
    }
    refused = admin_client_for_director.post("/admin/tournaments/tournament/add/", form)
    assert "ruleset_preset" in refused.context["adminform"].form.errors
    form["ruleset_preset"] = "kitchen-table"
    assert admin_client_for_director.post("/admin/tournaments/tournament/add/", form).status_code
    tournament = Tournament.objects.get(slug="mabou-open")
    assert tournament.ruleset == preset("kitchen-table").to_json()
    changed = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        {**change_form(tournament), "ruleset_preset": "forced-at-400"},
    )
    assert changed.status_code == 302
    tournament.refresh_from_db()
    assert tournament.ruleset_preset == "forced-at-400"
    assert tournament.ruleset == preset("forced-at-400").to_json()  # the rules follow
    # a custom ruleset (set through the API) is offered as it is, and kept
    Tournament.objects.filter(pk=tournament.pk).update(ruleset_preset="", ruleset={"x": 1})
    tournament.refresh_from_db()
    kept = admin_client_for_director.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", change_form(tournament)
    )
    assert kept.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.ruleset_preset, tournament.ruleset) == ("", {"x": 1})


def test_stage_tiebreakers_are_typed_as_names_separated_by_commas(
    admin_client_for_director: Client,
) -> None:
    tournament = tournament_ready(4)
    form = {
        "tournament": str(tournament.pk),
        "name": "",
        "kind": "round_robin",
        "pool_count": "1",
        "legs": "1",
        "grand_final": "reset",
        "tiebreakers": "head to head, points",
        "match_format": "",
    }
    page = admin_client_for_director.get("/admin/tournaments/stage/add/")
    help_text = page.context["adminform"].form.fields["tiebreakers"].help_text
    assert "head_to_head" in help_text
    assert "median_buchholz" in help_text
    refused = admin_client_for_director.post("/admin/tournaments/stage/add/", form)
    errors = refused.context["adminform"].form.errors["tiebreakers"]
    assert errors[0].startswith('"points" is not a tie-breaker; the names are match_wins,')
    form["tiebreakers"] = "head to head, points_difference, Seed"
    added = admin_client_for_director.post("/admin/tournaments/stage/add/", form)
    assert added.status_code == 302, added.context["adminform"].form.errors
    stage = Stage.objects.get(tournament=tournament)
    assert stage.tiebreakers == ["head_to_head", "points_difference", "seed"]
    change = admin_client_for_director.get(f"/admin/tournaments/stage/{stage.pk}/change/")
    assert "head_to_head, points_difference, seed" in change.content.decode()


def test_the_match_list_reads_round_teams_and_tournament(
    admin_client_for_director: Client,
) -> None:
    tournament, match = first_match_started()
    from django.utils.html import escape

    page = admin_client_for_director.get("/admin/tournaments/match/").content.decode()
    home, away = escape(match.home.team.name), escape(match.away.team.name)
    assert f"Stage 1: Single elimination, {match.round.name} ({match.key})" in page
    assert f'<td class="field-home_name">{home}</td>' in page
    assert f'<td class="field-away_name">{away}</td>' in page
    assert page.count(f'<td class="field-tournament">{tournament.name}</td>') == 3
    assert f"({tournament.name})" not in page
    names = f"{match.home.team.name} v {match.away.team.name}"
    assert str(match) == f"{match.round.name} ({match.key}): {names}"
