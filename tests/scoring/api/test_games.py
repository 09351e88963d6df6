"""Games through the API: start, list, read the score-pad view, and the game actions."""

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone, translation
from rest_framework.test import APIClient

from scoring import selectors, services
from scoring.engine import preset
from scoring.models import Game
from tests.scoring.api.conftest import client_for, current
from tests.scoring.factories import GameFactory, TeamFactory, record_hands, summary

pytestmark = pytest.mark.django_db


def _new_game_body(**more: Any) -> dict[str, Any]:
    team_a, team_b = TeamFactory.create(), TeamFactory.create()
    seats = [team_a.player_two_id, team_b.player_one_id, team_a.player_one_id, team_b.player_two_id]
    return {"team_a": team_a.pk, "team_b": team_b.pk, "seats": seats, **more}


def test_a_game_starts_with_a_preset(api: APIClient, keeper: Any) -> None:
    body = _new_game_body(ruleset_preset="kitchen-table", table="Table 4")
    response = api.post("/api/v1/games/", body)
    assert response.status_code == 201
    game = response.json()
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}/"
    assert response.headers["ETag"] == f'"{game["version"]}"'
    assert [seat["player_id"] for seat in game["seats"]] == body["seats"]
    assert game["ruleset_preset"] == "kitchen-table"
    assert game["ruleset"] == preset("kitchen-table").to_json()
    assert {"label": "Dealer may pass", "value": preset("kitchen-table").describe()[0][1]} in game[
        "ruleset_described"
    ]
    assert game["totals"] == {"team_a": 0, "team_b": 0}
    assert (game["status"], game["over"], game["winner"]) == ("in_progress", False, None)
    assert game["first_dealer"] is None
    assert game["next_dealer"] is None
    assert game["scorekeepers"] == ["keeper"]
    assert Game.objects.get().created_by == keeper


def test_a_game_starts_with_an_explicit_ruleset_and_first_dealer(api: APIClient) -> None:
    body = _new_game_body(ruleset={"target": 1000, "dealer_may_pass": True}, first_dealer=2)
    game = api.post("/api/v1/games/", body).json()
    assert game["ruleset_preset"] == "custom"
    assert game["target"] == 1000
    assert game["first_dealer"] == 2
    assert game["next_dealer"] == 2
    assert game["next_hand"] == 1


@pytest.mark.parametrize(
    ("more", "field", "reason"),
    [
        ({"ruleset": {"target": "lots"}}, "ruleset.target", "whole number"),
        ({"ruleset": {"trumps": 4}}, "ruleset.trumps", "is not a rule"),
        ({"ruleset_preset": "euchre"}, "ruleset_preset", "not a valid choice"),
        ({"first_dealer": 4}, "first_dealer", "less than or equal to 3"),
        ({"team_b": 999}, "team_b", "there is no team 999"),
        ({"seats": "two"}, "seats", "list"),
    ],
)
def test_a_bad_game_is_a_400_naming_the_field(
    api: APIClient, more: dict[str, Any], field: str, reason: str
) -> None:
    response = api.post("/api/v1/games/", _new_game_body(**more))
    assert response.status_code == 400
    fields = response.json()["fields"]
    assert field in fields, fields
    assert reason in fields[field][0]
    assert not Game.objects.exists()


def test_partners_must_sit_opposite(api: APIClient) -> None:
    body = _new_game_body()
    body["seats"] = [body["seats"][0], body["seats"][2], body["seats"][1], body["seats"][3]]
    response = api.post("/api/v1/games/", body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_seats"
    assert all(name.startswith("seats.") for name in response.json()["fields"])


def test_starting_a_game_needs_an_account(anon: APIClient) -> None:
    assert anon.post("/api/v1/games/", _new_game_body()).status_code == 401


def test_games_are_listed_and_filtered(anon: APIClient, game: Game) -> None:
    other = GameFactory.create()
    services_end = client_for(game.created_by).post(
        f"/api/v1/games/{other.pk}/end-early/", {"reason": "x"}
    )
    assert services_end.status_code == 403  # not its scorekeeper
    Game.objects.filter(pk=other.pk).update(created_at=timezone.now() - datetime.timedelta(days=3))

    every = anon.get("/api/v1/games/").json()
    assert every["count"] == 2
    assert [g["id"] for g in every["results"]] == [game.pk, other.pk]
    first = every["results"][0]
    assert first["team_a_name"] == game.team_a.name
    assert first["totals"] == {"team_a": 0, "team_b": 0}
    assert first["over"] is False

    by_team = anon.get("/api/v1/games/", {"team": other.team_b_id}).json()["results"]
    assert [g["id"] for g in by_team] == [other.pk]
    today = timezone.localdate().isoformat()
    by_date = anon.get("/api/v1/games/", {"date": today}).json()["results"]
    assert [g["id"] for g in by_date] == [game.pk]
    assert anon.get("/api/v1/games/", {"status": "finished"}).json()["count"] == 0
    assert anon.get("/api/v1/games/", {"page_size": 1}).json()["next"]
    bad = anon.get("/api/v1/games/", {"status": "won", "date": "tuesday"})
    assert bad.status_code == 400
    assert set(bad.json()["fields"]) == {"status", "date"}


def test_the_score_pad_view_is_the_selectors_game_state(anon: APIClient, game: Game) -> None:
    record_hands(game, 2)
    response = anon.get(f"/api/v1/games/{game.pk}/")
    assert response.status_code == 200
    body = response.json()
    game.refresh_from_db()
    state = selectors.game_state(selectors.game_detail(game.pk))
    assert {key: body[key] for key in state} == state
    assert response.headers["ETag"] == f'"{game.version}"'
    assert body["totals"] == {"team_a": 184, "team_b": 140}
    assert [h["running"] for h in body["hands"]] == [
        {"team_a": 92, "team_b": 70},
        {"team_a": 184, "team_b": 140},
    ]
    assert body["next_hand"] == 3
    assert body["next_dealer"] == 2


def test_an_unchanged_game_is_304(anon: APIClient, game: Game) -> None:
    etag = anon.get(f"/api/v1/games/{game.pk}/").headers["ETag"]
    unchanged = anon.get(f"/api/v1/games/{game.pk}/", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    record_hands(game, 1)
    changed = anon.get(f"/api/v1/games/{game.pk}/", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_the_forced_caller_is_shown(anon: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, ruleset_preset="forced-at-400")
    record_hands(game, 3, points=(162, 0))
    body = anon.get(f"/api/v1/games/{game.pk}/").json()
    assert body["totals"]["team_a"] >= 400
    assert body["forced_seat"] is not None
    assert body["forced_team"] == ("team_a", "team_b")[body["forced_seat"] % 2]


def test_a_game_played_out_shows_its_winner(anon: APIClient, game: Game) -> None:
    record_hands(game, 4, points=(162, 0))
    body = anon.get(f"/api/v1/games/{game.pk}/").json()
    assert (body["status"], body["over"], body["winner"]) == ("finished", True, "team_a")
    assert body["winning_team"] == {"id": game.team_a_id, "name": game.team_a.name}
    assert body["next_dealer"] is None
    assert body["next_hand"] is None


def test_an_unknown_game_is_a_404(anon: APIClient, api: APIClient) -> None:
    assert anon.get("/api/v1/games/999/").status_code == 404
    response = api.post("/api/v1/games/999/end-early/", {"reason": "x"})
    assert response.status_code == 404
    assert response.json()["message"] == "game 999 does not exist"


def test_flip_for_the_first_dealer_once(api: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, first_dealer=None)
    response = api.post(f"/api/v1/games/{game.pk}/flip-first-dealer/", headers=current(game))
    assert response.status_code == 200
    body = response.json()
    assert body["first_dealer_method"] == "flip_for_jacks"
    assert body["first_dealer_flips"][-1][1].startswith("J")
    assert body["first_dealer"] == body["first_dealer_flips"][-1][0]
    assert response.headers["ETag"] == f'"{body["version"]}"'

    again = api.post(f"/api/v1/games/{game.pk}/flip-first-dealer/", headers=current(game))
    assert again.status_code == 409
    assert again.json()["code"] == "first_dealer_chosen"


def test_a_replayed_flip_does_not_flip_again(api: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, first_dealer=None)
    url = f"/api/v1/games/{game.pk}/flip-first-dealer/"
    first = api.post(url, headers={"Idempotency-Key": "flip", **current(game)})
    second = api.post(url, headers={"Idempotency-Key": "flip", **current(game)})
    assert second.status_code == 200
    assert second.json() == first.json()


def test_the_first_dealer_entered_at_the_table(api: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, first_dealer=None)
    response = api.post(
        f"/api/v1/games/{game.pk}/first-dealer/", {"seat": 3}, headers=current(game)
    )
    assert response.status_code == 200
    assert response.json()["first_dealer"] == 3
    assert response.json()["first_dealer_method"] == "entered"
    bad = api.post(f"/api/v1/games/{game.pk}/first-dealer/", {"seat": 7}, headers=current(game))
    assert bad.status_code == 400
    assert list(bad.json()["fields"]) == ["seat"]


def test_only_the_games_scorekeepers_write_to_it(
    anon: APIClient, stranger: Any, game: Game
) -> None:
    url = f"/api/v1/games/{game.pk}/first-dealer/"
    assert anon.post(url, {"seat": 1}).status_code == 401
    refused = client_for(stranger).post(url, {"seat": 1})
    assert refused.status_code == 403
    assert refused.json() == {
        "message": "Only the scorekeepers of this game or a director may change it.",
        "code": "permission_denied",
        "fields": {},
    }


def test_ending_early_needs_a_reason_and_then_refuses_hands(api: APIClient, game: Game) -> None:
    missing = api.post(f"/api/v1/games/{game.pk}/end-early/", {}, headers=current(game))
    assert missing.status_code == 400
    assert list(missing.json()["fields"]) == ["reason"]

    ended = api.post(
        f"/api/v1/games/{game.pk}/end-early/",
        {"reason": "the hall is closing"},
        headers=current(game),
    )
    assert ended.status_code == 200
    body = ended.json()
    assert (body["status"], body["over"], body["winner"]) == ("abandoned", True, None)
    assert body["ended_reason"] == "the hall is closing"

    hand = api.post(f"/api/v1/games/{game.pk}/hands/", {"entry_kind": "summary", **summary(0)})
    assert hand.status_code == 400
    assert hand.json()["code"] == "game_over"


def test_only_a_director_reopens_a_game(api: APIClient, director: Any, game: Game) -> None:
    api.post(f"/api/v1/games/{game.pk}/end-early/", {"reason": "rain"}, headers=current(game))
    refused = api.post(f"/api/v1/games/{game.pk}/reopen/", headers=current(game))
    assert refused.status_code == 403
    assert refused.json()["message"] == "Only a director may do this."

    reopened = client_for(director).post(f"/api/v1/games/{game.pk}/reopen/", headers=current(game))
    assert reopened.status_code == 200
    assert reopened.json()["status"] == "in_progress"

    running = client_for(director).post(f"/api/v1/games/{game.pk}/reopen/", headers=current(game))
    assert running.status_code == 400
    assert running.json()["code"] == "game_running"


def test_reading_a_game_with_40_hands_takes_as_many_queries_as_with_one(
    anon: APIClient, keeper: Any, django_assert_max_num_queries: Any
) -> None:
    small = GameFactory.create(created_by=keeper, ruleset={"target": 100000})
    large = GameFactory.create(created_by=keeper, ruleset={"target": 100000})
    record_hands(small, 1)
    record_hands(large, 40)
    with django_assert_max_num_queries(4) as one:
        assert anon.get(f"/api/v1/games/{small.pk}/").status_code == 200
    with django_assert_max_num_queries(len(one.captured_queries)):
        body = anon.get(f"/api/v1/games/{large.pk}/").json()
    assert len(body["hands"]) == 40


@pytest.mark.parametrize(
    ("action", "body"),
    [
        ("first-dealer", {"seat": 2}),
        ("flip-first-dealer", {}),
        ("end-early", {"reason": "the hall is closing"}),
    ],
)
def test_an_act_on_a_game_needs_the_version_it_was_read_at(
    api: APIClient, keeper: Any, action: str, body: dict[str, Any]
) -> None:
    game = GameFactory.create(created_by=keeper, first_dealer=None)
    url = f"/api/v1/games/{game.pk}/{action}/"
    seen = current(game)

    missing = api.post(url, body)
    assert (missing.status_code, missing.json()["code"]) == (428, "version_required")

    # Another score-pad chose the first dealer in the meantime.
    services.game_first_dealer_set(game=game, seat=1)
    stale = api.post(url, body, headers=seen)
    assert (stale.status_code, stale.json()["code"]) == (412, "stale_version")
    # named as the tournaments' stale versions are: by the header that carried the version
    assert "changed since you read it" in stale.json()["fields"]["If-Match"][0]
    stored = Game.objects.get(pk=game.pk)
    assert (stored.first_dealer, stored.status) == (1, "in_progress")


def test_a_director_reopens_only_the_game_as_read(
    api: APIClient, director: Any, game: Game
) -> None:
    seen = current(game)
    services.game_end_early(game=game, reason="rain")
    stale = client_for(director).post(f"/api/v1/games/{game.pk}/reopen/", headers=seen)
    assert stale.status_code == 412
    assert Game.objects.get(pk=game.pk).status == "abandoned"


@pytest.mark.parametrize(("method", "path"), [("patch", ""), ("post", "hands/")])
def test_a_request_without_the_body_it_needs_is_refused(
    api: APIClient, game: Game, method: str, path: str
) -> None:
    """The schema marks these bodies required: sent with none, the request is refused."""
    response = getattr(api, method)(f"/api/v1/games/{game.pk}/{path}", headers=current(game))
    assert response.status_code == 400
    assert response.json()["fields"]


@pytest.fixture
def _english_after() -> Iterator[None]:
    """A request leaves its language active in the thread that served it."""
    yield
    translation.deactivate()


@pytest.mark.usefixtures("_english_after")
def test_the_ruleset_in_words_follows_accept_language(anon: APIClient) -> None:
    game = GameFactory.create(ruleset_preset="forced-at-400")
    url = f"/api/v1/games/{game.pk}/"
    english = anon.get(url)
    french = anon.get(url, HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert "Accept-Language" in french["Vary"]
    said = {line["label"]: line["value"] for line in english.json()["ruleset_described"]}
    assert said["Dealer may pass"] == "No: the dealer is stuck and must name trump"
    assert said["Forced to call"].startswith("A team with more than 400 points")
    assert said["Game"] == "500 points"
    dit = {line["label"]: line["value"] for line in french.json()["ruleset_described"]}
    assert dit["Le donneur peut passer"] == "Non\u00a0: le donneur est pris et doit nommer l'atout"
    assert "400" in dit["Obligé d'appeler"]
    assert "Forced to call" not in dit
    assert len(dit) == len(said)
    assert french.json()["ruleset"] == english.json()["ruleset"]
    assert anon.get(url, HTTP_ACCEPT_LANGUAGE="de").json() == english.json()
