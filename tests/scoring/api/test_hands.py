"""Hands through the API: enter, read, correct with If-Match, undo, and every refusal."""

import random
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.engine import preset, score_tricks, simulate_hand
from scoring.models import Game, Hand, HandRevision
from tests.scoring.api.conftest import client_for, current
from tests.scoring.factories import GameFactory, record_hand, record_hands, summary

pytestmark = pytest.mark.django_db


def hands_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/hands/"


def enter(api: APIClient, game: Game, headers: dict[str, str] | None = None, **entry: Any) -> Any:
    body = {"entry_kind": "summary", **entry}
    return api.post(hands_url(game), body, headers=headers or {})


def test_a_summary_hand_is_entered_and_scored_by_the_engine(api: APIClient, game: Game) -> None:
    response = enter(
        api,
        game,
        number=1,
        caller=1,
        trump="H",
        card_points={"team": "team_b", "points": 92},
        runs=[{"seat": 1, "kind": "twenty", "suit": "S", "top": "Q"}],
    )
    assert response.status_code == 201
    hand = response.json()
    assert response.headers["Location"] == f"{hands_url(game)}1/"
    assert response.headers["ETag"] == '"1"'
    assert hand["entry"] == {
        "caller": 1,
        "trump": "H",
        "card_points": {"team": "team_b", "points": 92},
        "runs": [{"seat": 1, "kind": "twenty", "suit": "S", "top": "Q"}],
    }
    assert (hand["outcome"], hand["dealer"]) == ("made", 0)
    assert hand["card_points"] == {"team_a": 70, "team_b": 92}
    assert hand["run_points"] == {"team_a": 0, "team_b": 20}
    assert hand["points"] == {"team_a": 70, "team_b": 112}
    assert hand["runs_counted_by"] == 1
    game.refresh_from_db()
    assert hand["game"] == {
        "id": game.pk,
        "version": game.version,
        "status": "in_progress",
        "over": False,
        "winner": None,
        "totals": {"team_a": 70, "team_b": 112},
        "hands_played": 1,
        "next_hand": 2,
        "next_dealer": 1,
        "forced_seat": None,
    }


def test_a_trick_record_is_entered_and_scored_by_the_engine(api: APIClient, game: Game) -> None:
    rules = preset("cape-breton-standard")
    simulated = simulate_hand(rules, random.Random(7), dealer=0)
    record = simulated.record.to_json()
    body = {key: record[key] for key in ("caller", "trump", "tricks", "hands", "runs")}
    response = api.post(hands_url(game), {"entry_kind": "tricks", "number": 1, **body})
    assert response.status_code == 201, response.json()
    expected = score_tricks(rules, simulated.record)
    assert response.json()["result"] == expected.to_json()
    assert response.json()["entry_kind"] == "tricks"


def test_a_void_hand_moves_the_deal_when_the_dealer_may_pass(api: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, ruleset_preset="kitchen-table")
    hand = enter(api, game, caller=None, trump=None).json()
    assert hand["outcome"] == "void"
    assert hand["game"]["next_dealer"] == 1
    assert hand["game"]["totals"] == {"team_a": 0, "team_b": 0}


def test_a_void_hand_is_refused_when_the_dealer_is_stuck(api: APIClient, game: Game) -> None:
    response = enter(api, game, caller=None, trump=None)
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "caller": ["every hand needs a caller: under this ruleset the dealer cannot pass"]
    }


@pytest.mark.parametrize(
    ("entry", "field", "reason"),
    [
        ({"caller": 0, "trump": "H", "card_points": [161, 1]}, "card_points.0", "impossible"),
        ({"caller": 0, "trump": "H", "card_points": [92, 70], "cards": 1}, "cards", "not"),
        ({"caller": 7, "trump": "H", "card_points": [92, 70]}, "caller", "seat"),
        ({"caller": 0, "trump": "X", "card_points": [92, 70]}, "trump", "X"),
        (
            {"caller": 0, "trump": "H", "card_points": {"team": "c", "points": 9}},
            "card_points.team",
            "team",
        ),
        (
            {"caller": 0, "trump": "H", "card_points": [92, 70], "dealer": 2},
            "dealer",
            "dealt by seat 0",
        ),
    ],
)
def test_a_bad_entry_is_a_400_naming_the_field_in_words(
    api: APIClient, game: Game, entry: dict[str, Any], field: str, reason: str
) -> None:
    response = enter(api, game, **entry)
    assert response.status_code == 400
    body = response.json()
    assert list(body["fields"]) == [field], body
    assert reason in body["fields"][field][0]
    assert body["message"] == body["fields"][field][0]
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"caller": 0}, "entry_kind"),
        ({"entry_kind": "photo"}, "entry_kind"),
        ({"entry_kind": "summary", "number": 0}, "number"),
        ({"entry_kind": "summary", "number": "third"}, "number"),
    ],
)
def test_a_bad_envelope_is_a_400(
    api: APIClient, game: Game, body: dict[str, Any], field: str
) -> None:
    response = api.post(hands_url(game), body)
    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]


def test_a_hand_number_already_entered_is_a_409_naming_it(api: APIClient, game: Game) -> None:
    assert enter(api, game, number=1, **summary(0)).status_code == 201
    response = enter(api, game, number=1, **summary(1, card_points=[70, 92]))
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "hand_exists"
    assert "hand 1 of game" in body["message"]
    assert "92-70" in body["message"]
    assert list(body["fields"]) == ["number"]
    assert Hand.objects.count() == 1


def test_a_gap_in_the_hand_numbers_is_a_400(api: APIClient, game: Game) -> None:
    response = enter(api, game, number=3, **summary(0))
    assert response.status_code == 400
    assert response.json()["code"] == "hand_number_gap"


def test_a_hand_for_a_finished_game_is_refused(api: APIClient, game: Game) -> None:
    record_hands(game, 4, points=(162, 0))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    response = enter(api, game, **summary(0))
    assert response.status_code == 400
    assert response.json()["code"] == "game_over"
    assert "finished" in response.json()["message"]


def test_a_hand_before_the_first_dealer_is_refused(api: APIClient, keeper: Any) -> None:
    game = GameFactory.create(created_by=keeper, first_dealer=None)
    response = enter(api, game, **summary(0))
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["first_dealer"]


def test_only_the_games_scorekeepers_enter_hands(
    anon: APIClient, stranger: Any, director: Any, game: Game
) -> None:
    assert enter(anon, game, **summary(0)).status_code == 401
    assert enter(client_for(stranger), game, **summary(0)).status_code == 403
    assert enter(client_for(director), game, **summary(0)).status_code == 201


def test_a_co_scorekeeper_enters_hands(stranger: Any, game: Game) -> None:
    game.scorekeepers.add(stranger)
    assert enter(client_for(stranger), game, **summary(0)).status_code == 201


def test_hands_of_an_unknown_game_are_a_404(api: APIClient, anon: APIClient) -> None:
    assert anon.get("/api/v1/games/999/hands/").status_code == 404
    response = api.post("/api/v1/games/999/hands/", {"entry_kind": "summary", **summary(0)})
    assert response.status_code == 404


def test_the_hands_are_listed_in_order_a_page_at_a_time(anon: APIClient, game: Game) -> None:
    record_hands(game, 3)
    body = anon.get(hands_url(game), {"page_size": 2}).json()
    assert body["count"] == 3
    assert [h["number"] for h in body["results"]] == [1, 2]
    assert [h["running"]["team_a"] for h in body["results"]] == [92, 184]


def test_a_hand_is_read_with_its_versions(anon: APIClient, game: Game) -> None:
    record_hand(game)
    response = anon.get(f"{hands_url(game)}1/")
    assert response.status_code == 200
    assert response.headers["ETag"] == '"1"'
    body = response.json()
    assert [r["action"] for r in body["revisions"]] == ["recorded"]
    assert body["disputes"] == []
    assert anon.get(f"{hands_url(game)}1/", headers={"If-None-Match": '"1"'}).status_code == 304
    missing = anon.get(f"{hands_url(game)}2/")
    assert missing.status_code == 404
    assert missing.json()["message"] == f"game {game.pk} has no hand 2"


def correct(api: APIClient, game: Game, number: int, if_match: str | None, **body: Any) -> Any:
    headers = {} if if_match is None else {"If-Match": if_match}
    return api.put(f"{hands_url(game)}{number}/", body, headers=headers)


def test_a_correction_makes_a_new_version_and_recomputes_the_game(
    api: APIClient, game: Game
) -> None:
    record_hands(game, 2)
    response = correct(
        api, game, 1, '"1"', caller=0, trump="H", card_points=[62, 100], reason="misread"
    )
    assert response.status_code == 200
    body = response.json()
    assert response.headers["ETag"] == '"2"'
    assert (body["version"], body["outcome"]) == (2, "bait")
    assert body["points"] == {"team_a": 0, "team_b": 162}
    assert body["game"]["totals"] == {"team_a": 92, "team_b": 232}
    hand_2 = Hand.objects.get(game=game, number=2)
    assert (hand_2.running_a, hand_2.running_b) == (92, 232)
    revisions = HandRevision.objects.filter(hand__number=1).order_by("version")
    assert [(r.action, r.reason) for r in revisions] == [("recorded", ""), ("corrected", "misread")]
    assert revisions[0].entry["card_points"] == [92, 70]


@pytest.mark.parametrize(
    ("if_match", "status", "code"),
    [
        (None, 428, "version_required"),
        ('"7"', 412, "stale_version"),
        ("7", 400, "invalid_if_match"),
    ],
)
def test_a_correction_needs_the_current_version(
    api: APIClient, game: Game, if_match: str | None, status: int, code: str
) -> None:
    record_hand(game)
    response = correct(api, game, 1, if_match, **summary(0, card_points=[62, 100]), reason="x")
    assert response.status_code == status
    assert response.json()["code"] == code
    assert Hand.objects.get().version == 1


def test_a_correction_made_against_an_old_read_is_412(api: APIClient, game: Game) -> None:
    record_hand(game)
    etag = api.get(f"{hands_url(game)}1/").headers["ETag"]
    first = correct(api, game, 1, etag, **summary(0, card_points=[62, 100]), reason="one")
    assert first.status_code == 200
    second = correct(api, game, 1, etag, **summary(0, card_points=[80, 82]), reason="two")
    assert second.status_code == 412
    assert "version 1" in second.json()["message"]
    assert "version 2" in second.json()["message"]


def test_a_correction_needs_a_reason_and_a_good_entry(api: APIClient, game: Game) -> None:
    record_hand(game)
    no_reason = correct(api, game, 1, '"1"', **summary(0))
    assert no_reason.status_code == 400
    assert list(no_reason.json()["fields"]) == ["reason"]
    bad = correct(api, game, 1, '"1"', **summary(0, card_points=[161, 1]), reason="x")
    assert bad.status_code == 400
    assert list(bad.json()["fields"]) == ["card_points.0"]


def test_a_correction_by_a_stranger_is_403(stranger: Any, game: Game) -> None:
    record_hand(game)
    response = correct(client_for(stranger), game, 1, '"1"', **summary(0), reason="x")
    assert response.status_code == 403


def test_the_last_hand_is_undone_and_its_number_freed(api: APIClient, game: Game) -> None:
    record_hands(game, 2)
    url = f"{hands_url(game)}undo-last/"
    response = api.post(url, {"reason": "wrong table"}, headers=current(game))
    assert response.status_code == 200
    body = response.json()
    assert (body["number"], body["undone"]) == (2, True)
    assert body["game"]["totals"] == {"team_a": 92, "team_b": 70}
    assert body["game"]["next_hand"] == 2
    assert enter(api, game, number=2, **summary(1, card_points=[70, 92])).status_code == 201
    assert api.get(f"{hands_url(game)}2/").json()["caller"] == 1


def test_undo_with_no_hand_is_a_400(api: APIClient, game: Game) -> None:
    response = api.post(f"{hands_url(game)}undo-last/", headers=current(game))
    assert response.status_code == 400
    assert response.json()["code"] == "no_hands"


def test_a_retried_undo_undoes_one_hand(api: APIClient, game: Game) -> None:
    record_hands(game, 2)
    url = f"{hands_url(game)}undo-last/"
    seen = current(game)
    first = api.post(url, {}, headers={"Idempotency-Key": "undo-1", **seen})
    second = api.post(url, {}, headers={"Idempotency-Key": "undo-1", **seen})
    assert second.json() == first.json()
    assert Hand.objects.active().count() == 1


def test_a_stale_score_pad_cannot_undo_a_hand_it_has_not_seen(
    api: APIClient, keeper: Any, game: Game
) -> None:
    record_hand(game)
    seen = current(game)  # this pad saw hand 1
    record_hand(game)  # another pad enters hand 2
    url = f"{hands_url(game)}undo-last/"
    assert api.post(url, {}).status_code == 428
    stale = api.post(url, {}, headers=seen)
    assert stale.status_code == 412
    assert Hand.objects.active().count() == 2
    # The answer to entering a hand carries the game's version to send back.
    entered = enter(api, game, **summary(0))
    version = entered.json()["game"]["version"]
    undone = api.post(url, {}, headers={"If-Match": f'"{version}"'})
    assert (undone.status_code, undone.json()["number"]) == (200, 3)


def test_a_retried_hand_is_entered_once(api: APIClient, game: Game) -> None:
    headers = {"Idempotency-Key": "3f1e2d"}
    first = enter(api, game, headers=headers, number=1, **summary(0))
    second = enter(api, game, headers=headers, number=1, **summary(0))
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.headers["Location"] == first.headers["Location"]
    assert Hand.objects.count() == 1

    changed = enter(api, game, headers=headers, number=1, **summary(1, card_points=[70, 92]))
    assert changed.status_code == 422
    assert changed.json()["code"] == "idempotency_key_reused"
    assert Hand.objects.count() == 1


def test_a_retried_hand_that_ended_the_game_gets_its_answer_again(
    api: APIClient, keeper: Any
) -> None:
    game = GameFactory.create(created_by=keeper, ruleset={"target": 100})
    headers = {"Idempotency-Key": "last-hand"}
    hand = summary(0, card_points=[130, 32])
    first = enter(api, game, headers=headers, number=1, **hand)
    assert (first.status_code, first.json()["game"]["over"]) == (201, True)
    # The game is over now, but the retry is the same request: its answer, not a refusal.
    again = enter(api, game, headers=headers, number=1, **hand)
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_key_used_for_another_game_writes_nothing(api: APIClient, keeper: Any) -> None:
    one, two = GameFactory.create_batch(2, created_by=keeper)
    headers = {"Idempotency-Key": "one-key"}
    assert enter(api, one, headers=headers, number=1, **summary(0)).status_code == 201
    # This hand and the game's new state would be written, but the key's record is there
    # already, so the one statement writing all three fails and leaves game two as it was.
    reused = enter(api, two, headers=headers, number=1, **summary(0))
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    two.refresh_from_db()
    assert (two.hands_played, two.version, two.hands.count()) == (0, 1, 0)


@pytest.mark.services
def test_the_hand_statement_stays_within_the_drivers_parse_cache(
    api: APIClient, keeper: Any
) -> None:
    # psycopg parses a statement's SQL again for every execution once it has more parameters
    # or characters than these; entering a hand is the statement sent most often.
    from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

    game = GameFactory.create(created_by=keeper)
    sent: list[tuple[str, int]] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append((sql, len(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        response = enter(api, game, headers={"Idempotency-Key": "cached"}, **summary(0))
    assert response.status_code == 201
    [(sql, count)] = [(sql, count) for sql, count in sent if sql.startswith("WITH g AS")]
    assert count <= MAX_CACHED_STATEMENT_PARAMS
    assert len(sql.encode()) <= MAX_CACHED_STATEMENT_LENGTH


@pytest.mark.services
def test_the_hand_statement_is_prepared_once_a_connection_has_run_it_often(
    api: APIClient, keeper: Any
) -> None:
    # PostgreSQL parses and plans a prepared statement once per connection, not per hand.
    game = GameFactory.create(created_by=keeper, ruleset={"target": 100000})
    threshold = connection.settings_dict["OPTIONS"]["prepare_threshold"]
    assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True
    for n in range(threshold + 1):
        response = enter(api, game, headers={"Idempotency-Key": f"p{n}"}, **summary(0))
        assert response.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any(statement.startswith("WITH g AS (UPDATE") for statement in prepared)
    assert any('FROM "scoring_game" WHERE "id" = $1' in s for s in prepared)


def test_entering_a_hand_takes_as_many_queries_as_the_first(
    api: APIClient, keeper: Any, django_assert_max_num_queries: Any
) -> None:
    game = GameFactory.create(created_by=keeper, ruleset={"target": 100000})
    # the game, then one statement on PostgreSQL (the game's new state if still at the version
    # read, the hand, the idempotency record and the event recorded for webhooks) in the
    # savepoint the test's transaction needs; elsewhere those four writes go one by one in a
    # transaction (a savepoint more). A first use of a key is not looked up: only a failed
    # write looks.
    expected = 1 + 1 + 2 if connection.vendor == "postgresql" else 1 + 4 + 2 + 2
    with django_assert_max_num_queries(expected) as first:
        assert enter(api, game, headers={"Idempotency-Key": "h1"}, **summary(0)).status_code == 201
    record_hands(game, 30)
    with django_assert_max_num_queries(len(first.captured_queries)):
        response = enter(api, game, headers={"Idempotency-Key": "h32"}, **summary(0))
    assert response.status_code == 201
    assert response.json()["number"] == 32


@pytest.mark.parametrize("body", ["[1, 2]", '"a hand"', "{not json"])
def test_a_body_that_is_not_an_object_is_a_400(api: APIClient, game: Game, body: str) -> None:
    record_hand(game)
    created = api.post(hands_url(game), body, content_type="application/json")
    assert created.status_code == 400
    assert set(created.json()) == {"message", "code", "fields"}
    corrected = api.put(
        f"{hands_url(game)}1/", body, content_type="application/json", headers={"If-Match": '"1"'}
    )
    assert corrected.status_code == 400
    assert Hand.objects.count() == 1


def _statements_of(call: Any) -> tuple[Any, list[str]]:
    sent: list[str] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        result = call()
    return result, sent


def _reads_of_the_game(statements: list[str]) -> list[str]:
    return [sql for sql in statements if sql.startswith("SELECT") and '"scoring_game"' in sql]


def test_the_next_hand_of_a_game_reads_the_game_once(
    api: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the hand is committed
        first = enter(
            api, game, headers={"Idempotency-Key": "r1"}, **summary(0, card_points=(92, 70))
        )
    assert first.status_code == 201
    second, statements = _statements_of(
        lambda: enter(
            api, game, headers={"Idempotency-Key": "r2"}, **summary(1, card_points=(70, 92))
        )
    )
    assert second.status_code == 201, second.json()
    assert len(_reads_of_the_game(statements)) == 1  # no row kept from the last hand
    first_points, second_points = first.json()["points"], second.json()["points"]
    assert second.json()["running"] == {
        side: first_points[side] + second_points[side] for side in ("team_a", "team_b")
    }
    game.refresh_from_db()
    assert (game.hands_played, game.version) == (2, 3)
    assert second.json()["game"]["version"] == 3


def test_a_game_ended_elsewhere_since_its_last_hand_refuses_the_next(
    api: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert enter(api, game, **summary(0)).status_code == 201
    # another process ends the game
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.ABANDONED,
        finished_at=timezone.now(),
        version=F("version") + 1,
        updated_at=timezone.now(),
    )
    response = enter(api, game, **summary(1))
    assert response.status_code == 400
    assert response.json()["code"] == "game_over"
    assert Hand.objects.filter(game=game).count() == 1


def test_a_game_changed_elsewhere_at_the_same_version_is_read_again(
    api: APIClient, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    # A version alone does not name a state (a database restored from a backup, say): the
    # time of the last change is checked with it.
    with django_capture_on_commit_callbacks(execute=True):
        first = enter(api, game, **summary(0, card_points=(92, 70)))
    Game.objects.filter(pk=game.pk).update(score_a=F("score_a") + 100, updated_at=timezone.now())
    second = enter(api, game, **summary(1, card_points=(70, 92)))
    assert second.status_code == 201
    assert second.json()["running"]["team_a"] == (
        first.json()["running"]["team_a"] + 100 + second.json()["points"]["team_a"]
    )


def test_a_remembered_game_that_changed_hands_is_checked_again(
    api: APIClient, game: Game, stranger: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # The scorekeeper's permission was checked against the game as remembered; the row read
    # again after the write found it changed is checked again before anything is written.
    with django_capture_on_commit_callbacks(execute=True):
        assert enter(api, game, **summary(0)).status_code == 201
    Game.objects.filter(pk=game.pk).update(
        created_by=stranger, public=True, version=F("version") + 1, updated_at=timezone.now()
    )
    game.scorekeepers.set([stranger])
    response = enter(api, game, **summary(1))
    assert response.status_code == 403
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_rolled_back_leaves_no_game_remembered(api: APIClient, game: Game) -> None:
    # The test's transaction never commits: nothing is remembered, the game is read.
    assert enter(api, game, **summary(0)).status_code == 201
    response, statements = _statements_of(lambda: enter(api, game, **summary(1)))
    assert response.status_code == 201
    assert len(_reads_of_the_game(statements)) == 1


def test_runs_entered_per_player_are_worked_out_by_the_engine(api: APIClient, game: Game) -> None:
    run_counts = [
        {"twenties": 0, "fifties": 1},
        {"twenties": 1, "fifties": 0},
        {"twenties": 1, "fifties": 0},
        {"twenties": 0, "fifties": 0},
    ]
    body: dict[str, Any] = {
        "caller": 0,
        "trump": "H",
        "card_points": {"team": "team_a", "points": 92},
    }
    response = enter(api, game, run_counts=run_counts, **body)
    assert response.status_code == 201, response.json()
    hand = response.json()
    assert hand["entry"]["run_counts"] == run_counts  # as entered
    assert hand["run_points"] == {"team_a": 50, "team_b": 0}
    assert hand["runs_counted_by"] == 0
    assert hand["points"] == {"team_a": 142, "team_b": 70}


@pytest.mark.parametrize(
    ("run_counts", "field", "words"),
    [
        (
            [{"fifties": 1}, {"fifties": 1}, {}, {}],
            "run_counts",
            "seat 0 and seat 1 each show a fifty",
        ),
        ([{}, {}, {}, {"twenties": 4}], "run_counts.3.twenties", "nine cards hold at most 3"),
        ([{}, {}, {}], "run_counts", "four entries, one per seat"),
    ],
)
def test_runs_per_player_that_cannot_be_scored_are_refused_naming_the_field(
    api: APIClient, game: Game, run_counts: Any, field: str, words: str
) -> None:
    body: dict[str, Any] = {"caller": 0, "trump": "H", "card_points": [92, 70]}
    response = enter(api, game, run_counts=run_counts, **body)
    assert response.status_code == 400
    error = response.json()
    assert words in error["fields"][field][0]
    assert not Hand.objects.filter(game=game).exists()


# ------------------------------------------------------------------ preview


def preview_url(game: Game) -> str:
    return f"{hands_url(game)}preview/"


def test_a_preview_answers_what_entering_would_and_stores_nothing(
    api: APIClient, game: Game, django_assert_max_num_queries: Any
) -> None:
    body = {"entry_kind": "summary", "caller": 0, "trump": "S"}
    body["card_points"] = {"team": "team_a", "points": 70}
    with django_assert_max_num_queries(6):
        response = api.post(preview_url(game), body)
    data = response.json()
    assert response.status_code == 200, data
    assert (data["number"], data["outcome"], data["dealer"]) == (1, "bait", 0)
    assert data["points"] == {"team_a": 0, "team_b": 162}
    assert data["game"]["totals"] == {"team_a": 0, "team_b": 162}
    assert data["game"]["hands_played"] == 1
    assert "Location" not in response.headers
    assert Hand.objects.count() == 0
    version = game.version
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.hands_played, game.version) == (0, 0, 0, version)
    # and entering it gives the same hand and score line
    entered = api.post(hands_url(game), body).json()
    for key in ("number", "outcome", "points", "card_points", "dealer", "running", "result"):
        assert entered[key] == data[key], key
    assert entered["game"]["totals"] == data["game"]["totals"]


def test_a_preview_of_the_winning_hand_says_who_wins(api: APIClient, game: Game) -> None:
    record_hands(game, 3, (162, 0))
    body = {"entry_kind": "summary", "caller": 0, "trump": "H"}
    data = api.post(preview_url(game), {**body, "card_points": [162, 0]}).json()
    assert data["game"]["over"] is True
    assert data["game"]["winner"] == "team_a"
    assert Hand.objects.filter(game=game).count() == 3


def test_a_preview_names_the_field_of_an_impossible_entry(api: APIClient, game: Game) -> None:
    body = {"entry_kind": "summary", "caller": 0, "trump": "S"}
    response = api.post(
        preview_url(game), {**body, "card_points": {"team": "team_a", "points": 161}}
    )
    data = response.json()
    assert response.status_code == 400
    assert set(data) == {"message", "code", "fields"}
    assert "card_points" in data["fields"]
    assert "161" in data["message"]


def test_a_preview_of_a_hand_already_entered_is_a_conflict(api: APIClient, game: Game) -> None:
    record_hand(game)
    body = {"entry_kind": "summary", "number": 1, "caller": 0, "trump": "S"}
    response = api.post(preview_url(game), {**body, "card_points": [100, 62]})
    assert response.status_code == 409
    assert response.json()["code"] == "hand_exists"


def test_a_preview_needs_an_entry_kind(api: APIClient, game: Game) -> None:
    response = api.post(preview_url(game), {"caller": 0})
    assert response.status_code == 400
    assert "entry_kind" in response.json()["fields"]


def test_a_preview_is_for_the_games_scorekeepers(
    stranger: Any, anon: APIClient, game: Game
) -> None:
    body = {"entry_kind": "summary", "caller": None, "trump": None}
    assert client_for(stranger).post(preview_url(game), body).status_code == 403
    assert anon.post(preview_url(game), body).status_code in {401, 403}
