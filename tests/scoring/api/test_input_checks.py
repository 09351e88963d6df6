"""Bad input to the scoring API is a 400 naming the field, never a 500 or a silent guess."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.api import examples, serializers
from scoring.engine import MisplayCall, RunKind, RunShown, TrickRecord, preset, simulate_hand
from scoring.engine.cards import Rank, Suit
from scoring.engine.record import RECORD_KEYS, trick_leaders
from scoring.engine.scoring import SUMMARY_KEYS
from scoring.models import Game, Hand, MisplayDispute, Player
from tests.scoring.api.conftest import current
from tests.scoring.factories import PlayerFactory, TeamFactory, record_hand, summary

pytestmark = pytest.mark.django_db


def hands_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/hands/"


# ------------------------------------------------------------------------------ hand bodies
@pytest.mark.parametrize("kind", [["summary"], {}, {"kind": "summary"}, 1, True])
def test_an_entry_kind_that_is_not_a_string_is_a_400_naming_it(
    api: APIClient, game: Game, kind: Any
) -> None:
    body = {"entry_kind": kind, "caller": 1, "trump": "H", "card_points": [60, 102]}
    response = api.post(hands_url(game), body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["fields"]) == ["entry_kind"]
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.parametrize("number", ["1", 1.5, True])
def test_a_hand_number_that_is_not_a_whole_number_is_refused(
    api: APIClient, game: Game, number: Any
) -> None:
    body = {"entry_kind": "summary", "number": number, **summary(caller=0)}
    response = api.post(hands_url(game), body, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["number"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_correction_as_documented_is_accepted_and_number_is_not_a_key_of_it(
    api: APIClient, game: Game
) -> None:
    record_hand(game, summary(caller=1, card_points=[62, 100]))
    url = f"{hands_url(game)}1/"
    etag = api.get(url)["ETag"]
    documented = next(e for e in examples.HAND_CORRECT if e.request_only).value
    assert documented["entry_kind"] == "summary"
    response = api.put(url, documented, format="json", HTTP_IF_MATCH=etag)
    assert response.status_code == 200, response.json()
    assert response.json()["outcome"] == "bait"
    without_kind = {k: v for k, v in documented.items() if k != "entry_kind"}
    kept = api.put(url, without_kind, format="json", HTTP_IF_MATCH=response["ETag"])
    assert kept.status_code == 200
    etag = kept["ETag"]
    numbered = api.put(url, {**documented, "number": 1}, format="json", HTTP_IF_MATCH=etag)
    assert numbered.status_code == 400


# ------------------------------------------------------------------------------ unknown keys
def test_a_key_a_player_does_not_take_is_refused_by_name(api: APIClient) -> None:
    body = {"display_name": "X", "id": 1, "evil": True}
    response = api.post("/api/v1/players/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_field"
    assert sorted(response.json()["fields"]) == ["evil", "id"]
    assert not Player.objects.exists()


def test_undo_and_misplay_calls_refuse_keys_they_do_not_take(api: APIClient, game: Game) -> None:
    record_hand(game, summary(caller=0))
    undo = api.post(
        f"{hands_url(game)}undo-last/", {"reason": "x", "hand": 1}, headers=current(game)
    )
    assert (undo.status_code, undo.json()["code"]) == (400, "unknown_field")
    assert list(undo.json()["fields"]) == ["hand"]
    assert Hand.objects.get(game=game).undone is False
    body = {"called_by": 0, "accused": 1, "trick": 1, "verdict": "proven"}
    dispute = api.post(f"{hands_url(game)}1/disputes/", body, format="json")
    assert (dispute.status_code, list(dispute.json()["fields"])) == (400, ["verdict"])
    assert not MisplayDispute.objects.exists()


def _simulated_record() -> dict[str, Any]:
    """Hand 1 of a game whose first dealer is seat 0, played by the engine's simulator: every
    key of a trick record, ``dealer`` and ``leaders`` included."""
    simulated = simulate_hand(preset("cape-breton-standard"), random.Random(11), dealer=0)
    return dict(simulated.record.to_json())


def test_a_tricks_entry_takes_every_key_the_engine_reads(api: APIClient, game: Game) -> None:
    record = _simulated_record()
    leaders = list(trick_leaders(TrickRecord.from_json(record)))
    body = {"entry_kind": "tricks", "number": 1, **record, "leaders": leaders}
    assert {"dealer", "leaders", "hands", "thrown_in_by"} <= set(body)
    response = api.post(hands_url(game), body, format="json")
    assert response.status_code == 201, response.json()
    wrong = {**body, "number": 2, "dealer": 2}
    refused = api.post(hands_url(game), wrong, format="json")
    assert (refused.status_code, list(refused.json()["fields"])) == (400, ["dealer"])


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"colour": "red"}, "colour"),
        ({"misplay": {"called_by": 1, "proven": True, "by": 0}}, "misplay.by"),
        ({"runs": [{"seat": 1, "kind": "twenty", "suit": "S", "top": "QS", "x": 1}]}, "runs.0.x"),
        ({"card_points": {"team": "team_b", "points": 92, "of": "a"}}, "card_points.of"),
        ({"run_counts": [{"twenties": 1, "sixties": 1}, {}, {}, {}]}, "run_counts.0.sixties"),
    ],
)
@pytest.mark.parametrize("path", ["", "preview/"])
def test_a_hand_body_refuses_a_key_it_does_not_document_at_any_depth(
    api: APIClient, game: Game, extra: dict[str, Any], field: str, path: str
) -> None:
    body = {"entry_kind": "summary", "caller": 1, "trump": "H", "card_points": [60, 102]}
    response = api.post(f"{hands_url(game)}{path}", {**body, **extra}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "unknown_field"
    assert list(response.json()["fields"]) == [field]
    assert not Hand.objects.filter(game=game).exists()


def test_a_tricks_entry_refuses_a_summary_key(api: APIClient, game: Game) -> None:
    body = {"entry_kind": "tricks", **_simulated_record(), "card_points": [81, 81]}
    response = api.post(hands_url(game), body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_field")
    assert list(response.json()["fields"]) == ["card_points"]


def test_a_correction_refuses_a_key_it_does_not_document(api: APIClient, game: Game) -> None:
    record_hand(game, summary(caller=1, card_points=[62, 100]))
    url = f"{hands_url(game)}1/"
    etag = api.get(url)["ETag"]
    body = {
        "reason": "misread",
        "caller": 1,
        "trump": "H",
        "card_points": [100, 62],
        "misplay": None,
        "runs": [{"seat": 1, "kind": "twenty", "suit": "S", "top": "QS", "shown": True}],
    }
    response = api.put(url, body, format="json", HTTP_IF_MATCH=etag)
    assert (response.status_code, response.json()["code"]) == (400, "unknown_field")
    assert list(response.json()["fields"]) == ["runs.0.shown"]
    assert Hand.objects.get(game=game).version == 1


def test_the_documented_keys_of_an_entry_are_the_keys_the_engine_reads() -> None:
    """The schema's hand bodies are built from these serializers: a key the engine reads and
    they do not document would be refused by the API, one they document and the engine does
    not read would be refused by the engine."""
    envelope = {"entry_kind", "number"}
    assert set(serializers.SummaryEntrySerializer().fields) - envelope == SUMMARY_KEYS
    # A trick record's misplay call is read beside the record (scoring.services.entries).
    tricks = set(serializers.TricksEntrySerializer().fields) - envelope
    assert tricks == RECORD_KEYS | {"misplay"}
    call = MisplayCall(called_by=0, proven=True, accused=1).to_json()
    assert set(serializers.MisplayCallSerializer().fields) == set(call)
    run = RunShown(1, RunKind.TWENTY, Suit.SPADES, Rank.QUEEN).to_json()
    assert set(serializers.RunShownSerializer().fields) == set(run)


# ------------------------------------------------------------------------------ pages
@pytest.mark.parametrize("size", ["0", "-5", "abc", "1.5"])
def test_a_page_size_that_is_not_a_whole_number_from_1_is_a_400_naming_it(
    anon: APIClient, size: str
) -> None:
    PlayerFactory.create()
    response = anon.get("/api/v1/players/", {"page_size": size})
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["page_size"]


def test_a_page_size_past_the_largest_is_the_largest(anon: APIClient) -> None:
    PlayerFactory.create()
    assert anon.get("/api/v1/players/", {"page_size": "5000"}).status_code == 200


# ------------------------------------------------------------------------------ plain words
def test_a_team_or_player_filter_names_what_does_not_exist(anon: APIClient, game: Game) -> None:
    missing = anon.get("/api/v1/games/", {"team": "999"})
    assert missing.status_code == 400
    assert missing.json()["fields"] == {"team": ["there is no team 999"]}
    word = anon.get("/api/v1/teams/", {"player": "abc"})
    assert word.status_code == 400
    assert "whole number" in word.json()["fields"]["player"][0]
    huge = anon.get("/api/v1/games/", {"player": "9999999999999999999"})
    assert huge.status_code == 400
    seated = game.seat_0_id
    assert anon.get("/api/v1/games/", {"player": seated}).json()["count"] == 1


def test_a_scorekeeper_account_that_does_not_exist_is_named_in_plain_words(
    api: APIClient,
) -> None:
    team_a, team_b = TeamFactory.create_batch(2)
    body = {"team_a": team_a.pk, "team_b": team_b.pk, "scorekeepers": [999999]}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {"scorekeepers": ["there is no user 999999"]}


def test_a_player_that_does_not_exist_is_named(anon: APIClient) -> None:
    response = anon.get("/api/v1/players/999999/")
    assert response.status_code == 404
    assert response.json()["message"] == "there is no player 999999"


# ------------------------------------------------------------------------------ player names
@pytest.mark.parametrize("name", ["Walk\u00a0Bea", "Walk  Bea", " Walk\tBea ", "walk bea"])
def test_a_name_that_looks_the_same_is_the_same_player(api: APIClient, name: str) -> None:
    PlayerFactory.create(display_name="Walk Bea", community="Glace Bay")
    response = api.post(
        "/api/v1/players/", {"display_name": name, "community": "Glace\u00a0Bay"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "player_exists"


def test_a_name_with_a_combining_accent_is_the_composed_name(api: APIClient) -> None:
    first = api.post("/api/v1/players/", {"display_name": "Walk Be\u0301a", "community": "Sydney"})
    assert first.status_code == 201
    assert first.json()["display_name"] == "Walk B\u00e9a"
    again = api.post("/api/v1/players/", {"display_name": "Walk B\u00e9a", "community": "Sydney"})
    assert again.status_code == 409


def test_a_name_broken_over_lines_is_stored_on_one(api: APIClient) -> None:
    response = api.post("/api/v1/players/", {"display_name": "a\nb"}, format="json")
    assert response.status_code == 201
    assert response.json()["display_name"] == "a b"


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u2060", "Bea\x07", "\u0301"])
def test_a_name_with_nothing_visible_or_a_control_character_is_refused(
    api: APIClient, name: str
) -> None:
    response = api.post("/api/v1/players/", {"display_name": name}, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["display_name"]
    assert not Player.objects.exists()
