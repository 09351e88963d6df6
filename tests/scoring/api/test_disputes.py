"""Misplay disputes through the API: called by a scorekeeper, judged by the engine in a task,
ruled on by a director."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.engine import preset, simulate_hand
from scoring.models import Game, MisplayDispute
from tests.scoring.api.conftest import client_for
from tests.scoring.factories import record_hand

pytestmark = pytest.mark.django_db


def tricks_hand(game: Game) -> dict[str, Any]:
    """Enter hand 1 of ``game`` as a full trick record played by the engine's simulator."""
    simulated = simulate_hand(preset("cape-breton-standard"), random.Random(11), dealer=0)
    record = simulated.record.to_json()
    entry = {key: record[key] for key in ("caller", "trump", "tricks", "hands", "runs")}
    record_hand(game, entry, entry_kind="tricks")
    return entry


def call_misplay(api: APIClient, game: Game, capture: Any, number: int = 1, **body: Any) -> Any:
    url = f"/api/v1/games/{game.pk}/hands/{number}/disputes/"
    with capture(execute=True):
        return api.post(url, {"called_by": 0, "accused": 1, "trick": 1, **body})


def test_a_misplay_is_called_then_judged_by_the_engine(
    api: APIClient, anon: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    tricks_hand(game)
    response = call_misplay(api, game, django_capture_on_commit_callbacks)
    assert response.status_code == 201
    created = response.json()
    assert created["status"] == "pending"
    assert (created["game"], created["hand_number"]) == (game.pk, 1)
    assert response.headers["Location"] == f"/api/v1/disputes/{created['id']}/"

    judged = anon.get(response.headers["Location"])
    assert judged.status_code == 200
    body = judged.json()
    assert body["status"] == "not_proven"  # the simulator follows the rules
    assert body["verdict"]["proven"] is False
    assert body["reason"]
    assert body["decision"] is False
    assert judged.headers["ETag"] == f'"{body["version"]}"'

    hand = anon.get(f"/api/v1/games/{game.pk}/hands/1/").json()
    assert [d["id"] for d in hand["disputes"]] == [created["id"]]


def test_a_summary_hand_needs_the_trick_record_as_evidence(
    api: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    record_hand(game)
    response = call_misplay(api, game, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert response.json()["code"] == "evidence_required"
    assert list(response.json()["fields"]) == ["evidence"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"accused": 2}, "accused"),
        ({"trick": 10}, "trick"),
        ({"called_by": 5}, "called_by"),
        ({"trick": "first"}, "trick"),
        ({"proof_card": "ZZ"}, "proof_card"),
    ],
)
def test_a_bad_call_is_a_400_naming_the_field(
    api: APIClient,
    game: Game,
    django_capture_on_commit_callbacks: Any,
    body: dict[str, Any],
    field: str,
) -> None:
    tricks_hand(game)
    response = call_misplay(api, game, django_capture_on_commit_callbacks, **body)
    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]
    assert not MisplayDispute.objects.exists()


def test_one_dispute_waits_at_a_time(api: APIClient, game: Game) -> None:
    tricks_hand(game)
    url = f"/api/v1/games/{game.pk}/hands/1/disputes/"
    body = {"called_by": 0, "accused": 1, "trick": 1}
    assert api.post(url, body).status_code == 201  # the verdict task is not run here
    again = api.post(url, body)
    assert again.status_code == 409
    assert again.json()["code"] == "dispute_pending"


def test_calling_a_misplay_needs_the_games_scorekeeper(
    anon: APIClient, stranger: Any, game: Game
) -> None:
    tricks_hand(game)
    url = f"/api/v1/games/{game.pk}/hands/1/disputes/"
    body = {"called_by": 0, "accused": 1, "trick": 1}
    assert anon.post(url, body).status_code == 401
    assert client_for(stranger).post(url, body).status_code == 403
    assert api_missing_hand(client_for(game.created_by), game).status_code == 404


def api_missing_hand(api: APIClient, game: Game) -> Any:
    return api.post(
        f"/api/v1/games/{game.pk}/hands/9/disputes/", {"called_by": 0, "accused": 1, "trick": 1}
    )


def test_a_director_overrules_and_the_hand_follows(
    api: APIClient, director: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    tricks_hand(game)
    before = api.get(f"/api/v1/games/{game.pk}/").json()["totals"]
    dispute = call_misplay(
        api, game, django_capture_on_commit_callbacks, called_by=1, accused=0
    ).json()
    url = f"/api/v1/disputes/{dispute['id']}/ruling/"

    assert api.post(url, {"ruling": "upheld"}).status_code == 403
    judge = client_for(director)
    no_note = judge.post(url, {"ruling": "overruled"})
    assert no_note.status_code == 400
    assert list(no_note.json()["fields"]) == ["note"]
    bad = judge.post(url, {"ruling": "maybe"})
    assert bad.status_code == 400
    assert list(bad.json()["fields"]) == ["ruling"]

    ruled = judge.post(url, {"ruling": "overruled", "note": "seen by the whole table"})
    assert ruled.status_code == 200
    body = ruled.json()
    assert (body["status"], body["ruling"], body["decision"]) == ("not_proven", "overruled", True)
    assert body["ruled_by"] == "director"
    hand = api.get(f"/api/v1/games/{game.pk}/hands/1/").json()
    assert hand["outcome"] == "misplay_proven"
    after = api.get(f"/api/v1/games/{game.pk}/").json()["totals"]
    assert after == {"team_a": 0, "team_b": sum(before.values())}  # team B takes the hand


def test_only_the_hands_latest_dispute_is_ruled_on_and_a_stale_ruling_is_refused(
    api: APIClient, director: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    tricks_hand(game)
    first = call_misplay(api, game, django_capture_on_commit_callbacks).json()
    second = call_misplay(api, game, django_capture_on_commit_callbacks).json()
    judge = client_for(director)
    note = {"ruling": "overruled", "note": "seen by the whole table"}

    superseded = judge.post(f"/api/v1/disputes/{first['id']}/ruling/", note)
    assert superseded.status_code == 409
    assert superseded.json()["code"] == "dispute_superseded"
    assert str(second["id"]) in superseded.json()["message"]
    assert MisplayDispute.objects.get(pk=first["id"]).ruling == "none"

    url = f"/api/v1/disputes/{second['id']}/ruling/"
    read = judge.get(f"/api/v1/disputes/{second['id']}/")
    empty = judge.post(url, note, HTTP_IF_MATCH="")  # sent empty: not the header left out
    assert (empty.status_code, list(empty.json()["fields"])) == (428, ["If-Match"])
    ruled = judge.post(url, note, HTTP_IF_MATCH=read["ETag"])
    assert ruled.status_code == 200
    stale = judge.post(url, {"ruling": "upheld"}, HTTP_IF_MATCH=read["ETag"])
    assert stale.status_code == 412
    assert list(stale.json()["fields"]) == ["If-Match"]
    assert MisplayDispute.objects.get(pk=second["id"]).ruling == "overruled"
    assert api.get(f"/api/v1/games/{game.pk}/hands/1/").json()["outcome"] == "misplay_proven"


def test_a_ruling_waits_for_the_verdict(director: Any, api: APIClient, game: Game) -> None:
    tricks_hand(game)
    dispute = api.post(
        f"/api/v1/games/{game.pk}/hands/1/disputes/", {"called_by": 0, "accused": 1, "trick": 1}
    ).json()
    response = client_for(director).post(
        f"/api/v1/disputes/{dispute['id']}/ruling/", {"ruling": "upheld"}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "dispute_pending"
    assert (
        client_for(director).post("/api/v1/disputes/999/ruling/", {"ruling": "upheld"}).status_code
        == 404
    )


def test_disputes_are_listed_by_game_and_status(
    api: APIClient, anon: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    tricks_hand(game)
    dispute = call_misplay(api, game, django_capture_on_commit_callbacks).json()
    listed = anon.get("/api/v1/disputes/", {"game": game.pk}).json()
    assert [d["id"] for d in listed["results"]] == [dispute["id"]]
    assert anon.get("/api/v1/disputes/", {"status": "pending"}).json()["count"] == 0
    assert anon.get("/api/v1/disputes/", {"game": game.pk + 1}).json()["count"] == 0
    assert anon.get("/api/v1/disputes/999/").status_code == 404


def test_only_a_director_disputes_a_hand_of_a_finished_game(
    api: APIClient, director: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    # A verdict can change the result, as a correction can: the scorekeeper may not.
    tricks_hand(game)
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        record_hand(game)
    before = Game.objects.get(pk=game.pk)
    refused = call_misplay(api, game, django_capture_on_commit_callbacks)
    assert refused.status_code == 403
    assert refused.json()["code"] == "director_only"
    assert not MisplayDispute.objects.exists()
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.version, after.winner) == (
        before.status,
        before.version,
        before.winner,
    )

    ruled = call_misplay(client_for(director), game, django_capture_on_commit_callbacks)
    assert ruled.status_code == 201
