# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var"
"""API tests: every endpoint, its permissions, idempotency, versions and query counts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring_services
from tarabish_site.api.errors import Conflict
from tests.api_schema import assert_described, served_schema
from tests.scoring.factories import TeamFactory, UserFactory
from tests.tournaments.factories import (
    EntryFactory,
    TournamentFactory,
    add_stage,
    tournament_ready,
)
from tests.tournaments.helpers import win_match
from tournaments.demo import stage_play_simulated
from tournaments.models import Match, Stage, Tournament
from tournaments.services import stage_start, standings_recompute

pytestmark = pytest.mark.django_db


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_anyone_lists_public_tournaments_but_not_private_ones() -> None:
    TournamentFactory(name="Open", slug="open")
    secret = TournamentFactory(name="Secret", slug="secret", public=False)
    body = client_for().get("/api/v1/tournaments/").json()
    assert [t["slug"] for t in body["results"]] == ["open"]
    assert client_for().get("/api/v1/tournaments/secret/").status_code == 404
    director_view = client_for(secret.organiser).get("/api/v1/tournaments/secret/")
    assert director_view.status_code == 200
    assert (director_view.json()["entry_count"], director_view.json()["stage_count"]) == (0, 0)
    assert director_view["ETag"] == '"1"'


def test_a_yes_no_filter_reads_true_and_false_and_refuses_anything_else() -> None:
    TournamentFactory(name="Open", slug="open")
    secret = TournamentFactory(name="Secret", slug="secret", public=False)
    EntryFactory(tournament=secret, checked_in=True)
    EntryFactory(tournament=secret, checked_in=False)
    client = client_for(secret.organiser)

    def slugs(query: str) -> list[str]:
        return sorted(
            t["slug"] for t in client.get(f"/api/v1/tournaments/{query}").json()["results"]
        )

    assert slugs("?public=true") == ["open"]
    assert slugs("?public=False") == ["secret"]
    assert slugs("?public=0") == ["secret"]
    assert slugs("") == ["open", "secret"]
    empty = client.get("/api/v1/tournaments/?public=")
    assert (empty.status_code, list(empty.json()["fields"])) == (400, ["public"])
    typo = client.get("/api/v1/tournaments/?public=yes please")
    assert typo.status_code == 400
    assert typo.json()["fields"] == {"public": ["yes please is neither true nor false."]}
    entries = client.get("/api/v1/tournaments/secret/entries/?checked_in=true").json()
    assert [e["checked_in"] for e in entries["results"]] == [True]
    assert client.get("/api/v1/tournaments/secret/entries/?checked_in=no").status_code == 400


def test_create_needs_an_account_and_replays_with_the_same_key() -> None:
    body = {"name": "Baddeck Open", "starts_on": "2026-12-05", "match_games": 3}
    assert client_for().post("/api/v1/tournaments/", body).status_code in (401, 403)
    plain = client_for(UserFactory()).post("/api/v1/tournaments/", body)
    assert plain.status_code == 403  # as the schema says
    assert plain.json()["code"] == "director_only"
    client = client_for(UserFactory(director=True))
    first = client.post("/api/v1/tournaments/", body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    assert first["Location"].endswith("/api/v1/tournaments/baddeck-open/")
    again = client.post("/api/v1/tournaments/", body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.count() == 1
    other = client.post(
        "/api/v1/tournaments/", {**body, "name": "Other"}, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 422


def test_bad_input_uses_the_one_error_shape() -> None:
    client = client_for(UserFactory(director=True))
    response = client.post(
        "/api/v1/tournaments/", {"name": "X", "starts_on": "2026-12-05", "match_games": 4}
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"message", "code", "fields"}
    assert "match_games" in body["fields"]


def test_changing_a_tournament_needs_the_current_version() -> None:
    tournament = TournamentFactory(slug="cup")
    client = client_for(tournament.organiser)
    url = "/api/v1/tournaments/cup/"
    assert client.patch(url, {"venue": "Hall"}).status_code == 428
    assert client.patch(url, {"venue": "Hall"}, HTTP_IF_MATCH='"7"').status_code == 412
    response = client.patch(url, {"venue": "Hall"}, HTTP_IF_MATCH='"1"')
    assert response.status_code == 200
    assert response["ETag"] == '"2"'
    assert response.json()["venue"] == "Hall"
    stranger = client_for(UserFactory()).patch(url, {"venue": "X"}, HTTP_IF_MATCH='"2"')
    assert stranger.status_code == 403
    # A field it cannot change is refused by name, and nothing else in the request is applied.
    refused = client.patch(url, {"venue": "Barn", "status": "finished"}, HTTP_IF_MATCH='"2"')
    assert refused.status_code == 400
    assert refused.json()["fields"] == {"status": ["cannot be changed here."]}
    after = client.get(url)
    assert (after.json()["venue"], after["ETag"]) == ("Hall", '"2"')


def test_a_stage_given_no_name_is_named_in_the_requests_language() -> None:
    tournament = TournamentFactory(slug="names")
    client = client_for(tournament.organiser)
    base = "/api/v1/tournaments/names/stages/"
    english = client.post(base, {"kind": "round_robin"})
    french = client.post(base, {"kind": "swiss"}, HTTP_ACCEPT_LANGUAGE="fr-ca")
    assert (english.json()["name"], french.json()["name"]) == (
        "Stage 1: Round robin",
        "Phase 2\u00a0: Suisse",
    )


def test_a_director_runs_the_day_through_the_api() -> None:
    tournament = TournamentFactory(slug="day", check_in_required=True)
    client = client_for(tournament.organiser)
    base = "/api/v1/tournaments/day"
    assert client.post(f"{base}/open-registration/").json()["status"] == "registration"
    teams = TeamFactory.create_batch(4)
    registered = [client.post(f"{base}/entries/", {"team": t.pk}) for t in teams]
    entries = [response.json() for response in registered]
    assert registered[0]["Location"] == f"{base}/entries/{entries[0]['id']}/"
    assert client.post(f"{base}/entries/", {"team": teams[0].pk}).status_code == 409
    csv = "player_one,player_two,community\nAngus,Mary,Glace Bay\nRon,Ron,Cheticamp\n"
    bad = client.post(f"{base}/entries/import/", {"csv": csv})
    assert bad.status_code == 400
    assert bad.json()["fields"] == {"rows.3.player_two": ["is the same player as player_one."]}
    good = client.post(f"{base}/entries/import/", {"csv": csv.replace("Ron,Ron", "Ron,Gerard")})
    assert good.status_code == 201
    assert good.json()["rows"] == 2
    assert client.post(f"{base}/open-check-in/").json()["status"] == "check_in"
    for entry in entries:
        assert client.post(f"{base}/entries/{entry['id']}/check-in/").json()["checked_in"]
    client.post(f"{base}/process-check-in/")
    listed = client.get(f"{base}/entries/?status=active").json()["results"]
    assert [e["seed"] for e in listed] == [1, 2, 3, 4]
    # an empty match format is the tournament's, as documented
    added = client.post(
        f"{base}/stages/", {"kind": "single_elim", "third_place": True, "match_format": ""}
    )
    stage = added.json()
    assert added["Location"] == f"{base}/stages/{stage['id']}/"
    assert stage["match_format"] == ""
    assert stage["name"] == "Stage 1: Single elimination"
    started = client.post(f"{base}/stages/{stage['id']}/start/")
    assert started.json()["status"] == "running"
    bracket = client.get(f"{base}/stages/{stage['id']}/bracket/").json()
    assert bracket["match_count"] == 4
    first = bracket["sides"][0]["rounds"][0]["matches"][0]
    assert first["state"] == "ready"
    assert first["slots"][0]["name"] == teams[0].name
    schedule = client.get(f"{base}/schedule/").json()
    assert [m["table"] for m in schedule if m["state"] == "ready"] == [1, 2]
    match = client.get(f"/api/v1/matches/{first['id']}/")
    game = client.post(f"/api/v1/matches/{first['id']}/games/", {"first_dealer": 0})
    assert game.status_code == 201
    assert game.json()["state"] == "in_progress"
    assert game["Location"] == f"/api/v1/games/{game.json()['games'][-1]['game']}/"
    forfeit = client.post(
        f"/api/v1/matches/{first['id']}/forfeit/",
        {"loser": first["slots"][1]["entry"]},
        HTTP_IF_MATCH=match["ETag"],
    )
    assert forfeit.status_code == 412
    forfeit = client.post(
        f"/api/v1/matches/{first['id']}/forfeit/",
        {"loser": first["slots"][1]["entry"]},
        HTTP_IF_MATCH=game["ETag"],
    )
    assert (forfeit.status_code, forfeit.json()["code"]) == (409, "game_in_progress")
    game_url = f"/api/v1/games/{game.json()['games'][0]['game']}/"
    ended = client.post(
        f"{game_url}end-early/", {"reason": "no-show"}, HTTP_IF_MATCH=client.get(game_url)["ETag"]
    )
    assert ended.status_code == 200
    forfeit = client.post(
        f"/api/v1/matches/{first['id']}/forfeit/",
        {"loser": first["slots"][1]["entry"]},
        HTTP_IF_MATCH=client.get(f"/api/v1/matches/{first['id']}/")["ETag"],
    )
    assert forfeit.status_code == 200
    assert forfeit.json()["forfeit"] is True
    day = client.get(f"{base}/day/").json()
    assert [m["table"] for m in day["ready"]] == [2]
    schema = served_schema()
    assert_described(schema, "Day", day)
    assert_described(schema, "Bracket", client.get(f"{base}/stages/{stage['id']}/bracket/").json())
    assert client_for(UserFactory()).get(f"{base}/day/").status_code == 403
    signed_out = client_for().get(f"{base}/day/")
    assert signed_out.status_code == 401
    assert signed_out["WWW-Authenticate"].startswith("Token")


def test_standings_bracket_and_ratings_are_read_in_flat_queries(
    django_assert_max_num_queries: Any,
) -> None:
    tournament = tournament_ready(16)
    stage = add_stage(tournament, "double_elim", grand_final="reset")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    stage_play_simulated(stage_id=stage.pk, rng=random.Random(3), limit=12)
    standings_recompute(stage_id=stage.pk, force=True)
    client = client_for()
    base = f"/api/v1/tournaments/{tournament.slug}"
    with django_assert_max_num_queries(6):
        standings = client.get(f"{base}/stages/{stage.pk}/standings/").json()
    assert len(standings[0]["rows"]) == 16
    with django_assert_max_num_queries(6):
        bracket = client.get(f"{base}/stages/{stage.pk}/bracket/").json()
    assert bracket["match_count"] == 31
    assert_described(served_schema(), "Bracket", bracket)
    with django_assert_max_num_queries(4):
        schedule = client.get(f"{base}/schedule/").json()
    assert len(schedule) >= 12
    with django_assert_max_num_queries(5):
        matches = client.get(f"/api/v1/matches/?stage__tournament__slug={tournament.slug}")
    assert matches.json()["count"] == 31
    played = Match.objects.filter(stage=stage, state=Match.State.COMPLETE, bye=False).first()
    assert played is not None
    with django_assert_max_num_queries(5):
        detail = client.get(f"/api/v1/matches/{played.pk}/").json()
    assert len(detail["games"]) >= 1
    with django_assert_max_num_queries(4):
        client.get("/api/v1/tournaments/")


def test_swiss_pairing_and_advance_through_the_api(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = tournament_ready(6)
    swiss = add_stage(tournament, "swiss", swiss_rounds=2)
    add_stage(tournament, "single_elim", qualifiers_per_pool=4)
    client = client_for(tournament.organiser)
    base = f"/api/v1/tournaments/{tournament.slug}"
    client.post(f"{base}/stages/{swiss.pk}/start/")
    early = client.post(f"{base}/stages/{swiss.pk}/pair-next-round/")
    assert early.status_code == 409
    assert early.json()["code"] == "round_unfinished"
    stage_play_simulated(stage_id=swiss.pk, rng=random.Random(1))
    paired = client.post(f"{base}/stages/{swiss.pk}/pair-next-round/")
    assert paired.json()["number"] == 2
    stage_play_simulated(stage_id=swiss.pk, rng=random.Random(2))
    advanced = client.post(f"{base}/advance/")
    assert advanced.status_code == 200
    assert advanced.json()["kind"] == "single_elim"
    knockout = Stage.objects.get(pk=advanced.json()["id"])
    with django_capture_on_commit_callbacks(execute=True):
        for match in Match.objects.filter(stage=knockout, key__startswith="W1"):
            win_match(match, "home")
        win_match(Match.objects.get(stage=knockout, key="W2-1"), "away")
    finished = client.post(f"{base}/finish/").json()
    assert finished["status"] == "finished"
    entries = client.get(f"{base}/entries/").json()["results"]
    assert sorted(e["final_place"] for e in entries)[:4] == [1, 2, 3, 3]
    leaders = client.get("/api/v1/ratings/").json()["results"]
    assert leaders
    history = client.get(f"/api/v1/ratings/{leaders[0]['player']}/").json()
    assert history["history"]


# ------------------------------------------------------------------ numbers out of range
@pytest.mark.parametrize("huge", [10**20, 2**63])
def test_a_number_no_column_holds_is_400_naming_the_field(huge: int) -> None:
    tournament = TournamentFactory(slug="big", substitutes_allowed=True)
    entry = EntryFactory(tournament=tournament)
    client = client_for(tournament.organiser)
    base = "/api/v1/tournaments/big"
    asked = [
        (f"{base}/entries/", {"team": TeamFactory().pk, "seed": huge}, "seed"),
        (f"{base}/entries/", {"team": huge}, "team"),
        (f"{base}/entries/{entry.pk}/substitutes/", {"player": huge}, "player"),
        (f"{base}/directors/", {"user": huge}, "user"),
        (f"{base}/stages/", {"kind": "round_robin", "pool_count": huge}, "pool_count"),
        (f"{base}/stages/", {"kind": "swiss", "swiss_rounds": huge}, "swiss_rounds"),
        (f"{base}/stages/", {"kind": "swiss", "qualifiers_per_pool": huge}, "qualifiers_per_pool"),
    ]
    for url, body, field in asked:
        response = client.post(url, body, format="json")
        assert response.status_code == 400, (url, body)
        assert list(response.json()["fields"]) == [field], (url, body)
    assert (tournament.entries.count(), tournament.stages.count()) == (1, 0)


@pytest.mark.parametrize(
    ("body", "field", "most"),
    [
        ({"kind": "round_robin", "pool_count": 27}, "pool_count", "26"),
        ({"kind": "round_robin", "pool_count": 40000}, "pool_count", "26"),
        ({"kind": "swiss", "swiss_rounds": 21}, "swiss_rounds", "20"),
        ({"kind": "swiss", "swiss_rounds": 40000}, "swiss_rounds", "20"),
    ],
)
def test_a_stage_count_past_its_maximum_is_refused_saying_the_maximum(
    body: dict[str, Any], field: str, most: str
) -> None:
    tournament = TournamentFactory(slug="many")
    response = client_for(tournament.organiser).post(
        "/api/v1/tournaments/many/stages/", body, format="json"
    )
    assert response.status_code == 400
    [reason] = response.json()["fields"][field]
    assert most in reason
    assert not tournament.stages.exists()


def test_a_csv_seed_no_column_holds_is_refused_by_row_and_nothing_is_imported() -> None:
    tournament = TournamentFactory(slug="csv", status=Tournament.Status.REGISTRATION)
    csv = (
        "player_one,player_two,community,seed\n"
        "Angus,Mary,Glace Bay,1\n"
        "Ron,Gerard,Cheticamp,99999999999999999999999\n"
    )
    response = client_for(tournament.organiser).post(
        "/api/v1/tournaments/csv/entries/import/", {"csv": csv}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {"rows.3.seed": [f"seeds go up to {2**31 - 1}."]}
    assert not tournament.entries.exists()


@pytest.mark.parametrize("huge", [10**20, 2**63])
def test_a_match_write_with_an_id_no_row_can_have_is_400_naming_the_field(huge: int) -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.select_related("home__team", "away__team").get(stage=stage)
    client = client_for(tournament.organiser)
    away = match.away.team
    seats = [huge, away.player_one_id, match.home.team.player_two_id, away.player_two_id]
    games = client.post(f"/api/v1/matches/{match.pk}/games/", {"seats": seats}, format="json")
    assert games.status_code == 400
    assert list(games.json()["fields"]) == ["seats.0"]
    forfeit = client.post(
        f"/api/v1/matches/{match.pk}/forfeit/",
        {"loser": huge},
        format="json",
        HTTP_IF_MATCH=f'"{match.version}"',
    )
    assert forfeit.status_code == 400
    assert list(forfeit.json()["fields"]) == ["loser"]
    assert not match.match_games.exists()


def test_a_forfeit_over_a_played_result_is_409_unless_it_says_it_overturns_it() -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = win_match(Match.objects.get(stage=stage), "home")
    client = client_for(tournament.organiser)
    url = f"/api/v1/matches/{match.pk}/forfeit/"
    body = {"loser": match.home_id, "confirm_reset": True}
    refused = client.post(url, body, format="json", HTTP_IF_MATCH=f'"{match.version}"')
    assert refused.status_code == 409
    assert refused.json()["code"] == "decided_by_play"
    assert list(refused.json()["fields"]) == ["overturn_result"]
    assert Match.objects.get(pk=match.pk).winner_id == match.home_id
    overturned = client.post(
        url, {**body, "overturn_result": True}, format="json", HTTP_IF_MATCH=f'"{match.version}"'
    )
    assert overturned.status_code == 200
    assert (overturned.json()["forfeit"], overturned.json()["winner"]) == (True, match.away_id)


# ------------------------------------------------------------------ results that stand
def test_a_finished_tournament_keeps_its_results() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    client = client_for(tournament.organiser)
    assert client.post(f"/api/v1/tournaments/{tournament.slug}/finish/").status_code == 200
    places = dict(tournament.entries.values_list("pk", "final_place"))
    url = f"/api/v1/matches/{semi.pk}"
    forfeit = client.post(
        f"{url}/forfeit/",
        {"loser": semi.home_id, "confirm_reset": True},
        format="json",
        HTTP_IF_MATCH=f'"{semi.version}"',
    )
    assert forfeit.status_code == 409
    assert forfeit.json()["code"] == "finished"
    # nor do its games: reopening the semi-final's game is refused, in the API and the service
    game = semi.match_games.get().game
    reopen = client.post(f"/api/v1/games/{game.pk}/reopen/", HTTP_IF_MATCH=f'"{game.version}"')
    assert reopen.status_code == 409
    assert reopen.json()["code"] == "result_final"
    assert tournament.name in reopen.json()["message"]
    with pytest.raises(Conflict):
        scoring_services.game_reopen(game=game, by=tournament.organiser)
    game.refresh_from_db()
    assert game.status == "finished"
    confirm = client.post(f"{url}/confirm-reset/", HTTP_IF_MATCH=f'"{semi.version}"')
    assert confirm.status_code == 409
    assert confirm.json()["code"] == "finished"
    started = client.post(f"{url}/games/", {"first_dealer": 0}, format="json")
    assert started.status_code == 409
    assert started.json()["code"] == "finished"
    final = Match.objects.get(stage=stage, key="W2-1")
    assert (final.state, final.winner_id) == (Match.State.COMPLETE, final.home_id)
    assert Match.objects.get(pk=semi.pk).version == semi.version
    assert semi.match_games.count() == 1
    assert dict(tournament.entries.values_list("pk", "final_place")) == places


def test_confirming_a_reset_with_nothing_held_is_409_and_changes_nothing() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    played = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    ready = Match.objects.get(stage=stage, key="W1-2")
    client = client_for(tournament.organiser)
    for match in (ready, played):
        etag = client.get(f"/api/v1/matches/{match.pk}/")["ETag"]
        response = client.post(f"/api/v1/matches/{match.pk}/confirm-reset/", HTTP_IF_MATCH=etag)
        assert response.status_code == 409
        assert response.json()["code"] == "nothing_held"
        assert client.get(f"/api/v1/matches/{match.pk}/")["ETag"] == etag


def test_entries_list_the_seeded_by_seed_then_the_others_as_they_registered() -> None:
    from tournaments import selectors

    tournament = TournamentFactory(slug="seeded", status=Tournament.Status.REGISTRATION)
    first = EntryFactory(tournament=tournament)
    second_seed = EntryFactory(tournament=tournament, seed=2)
    later = EntryFactory(tournament=tournament)
    top_seed = EntryFactory(tournament=tournament, seed=1)
    body = client_for().get("/api/v1/tournaments/seeded/entries/").json()
    listed = [e["id"] for e in body["results"]]
    assert listed == [top_seed.pk, second_seed.pk, first.pk, later.pk]
    page = [e.pk for e in selectors.tournament_overview(tournament).entries]
    assert listed == page
