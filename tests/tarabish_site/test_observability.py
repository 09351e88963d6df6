"""Logs, metrics and error reports: one log line per request and per task with their ids,
``/metrics`` in Prometheus' text format adding up every process's counts, and Sentry's SDK
started when ``SENTRY_DSN`` is set."""

from __future__ import annotations

import gzip
import json
import logging
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from tarabish_site import logs
from tests.scoring.factories import GameFactory, UserFactory, summary
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments import tasks

ROOT = Path(__file__).resolve().parents[2]


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _hands_entered(text: str) -> float:
    return _samples(text).get(("tarabish_hands_entered_total", ()), 0.0)


def _django_process(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a Python process of its own, with the settings ``env`` makes, on a
    database of its own; it must succeed."""
    done = subprocess.run(  # noqa: S603 - a fixed script
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tarabish_site.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


# ---------------------------------------------------------------------------------------- logs
@pytest.mark.django_db
def test_each_request_logs_one_line_with_its_id_route_and_game(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    game = GameFactory.create()
    with caplog.at_level(logging.INFO, logger="tarabish.request"):
        response = client.get(f"/api/v1/games/{game.pk}/hands/")
    assert response.status_code == 200
    lines = [r for r in caplog.records if r.name == "tarabish.request"]
    assert len(lines) == 1
    line: Any = lines[0]
    assert line.request_id == response["X-Request-ID"]
    assert len(line.request_id) == 32
    assert line.game_id == game.pk
    assert line.status == 200
    assert line.method == "GET"
    assert line.route == "api/v1/games/(?P<game_pk>[0-9]{1,18})/hands/$"
    assert line.duration_ms >= 0


@pytest.mark.django_db
def test_a_proxys_request_id_is_kept_and_a_strange_one_replaced(client: Client) -> None:
    kept = client.get("/healthz", headers={"X-Request-ID": "nginx-4f2a9c"})
    assert kept["X-Request-ID"] == "nginx-4f2a9c"
    replaced = client.get("/healthz", headers={"X-Request-ID": "a b\nforged line"})
    assert replaced["X-Request-ID"] != "a b\nforged line"
    assert len(replaced["X-Request-ID"]) == 32


@pytest.mark.django_db
def test_each_task_logs_one_line_with_its_ids_and_the_request_that_sent_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    before = REGISTRY.get_sample_value(
        "tarabish_task_runs_total",
        {"task": "tournaments.tasks.standings_recompute", "outcome": "succeeded"},
    )
    with caplog.at_level(logging.INFO, logger="tarabish"), logs.context(request_id="req-7"):
        tasks.standings_recompute.delay(stage.pk)
    lines: list[Any] = [r for r in caplog.records if r.name == "tarabish.task"]
    assert len(lines) == 1
    assert lines[0].stage_id == stage.pk
    assert lines[0].request_id == "req-7"
    assert lines[0].task == "tournaments.tasks.standings_recompute"
    assert lines[0].outcome == "succeeded"
    assert lines[0].task_id
    after = REGISTRY.get_sample_value(
        "tarabish_task_runs_total",
        {"task": "tournaments.tasks.standings_recompute", "outcome": "succeeded"},
    )
    assert after == (before or 0) + 1


def test_production_logs_are_json_lines(tmp_path: Path) -> None:
    """The real LOGGING of LOG_FORMAT=json, in a process of its own: each line is a JSON
    object, and a request's carries its request_id and the game its URL names."""
    script = (
        "import django; django.setup()\n"
        "from django.test.utils import setup_test_environment; setup_test_environment()\n"
        "from django.test import Client\n"
        "Client().get('/api/v1/games/12/nowhere', headers={'X-Request-ID': 'req-json-1'})\n"
    )
    done = _django_process(script, tmp_path, LOG_FORMAT="json")
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    requests = [line for line in lines if line["logger"] == "tarabish.request"]
    assert len(requests) == 1, lines
    # Django's own line about the 404, logged after the middleware, carries the id too.
    refusals = [line for line in lines if line["logger"] == "django.request"]
    assert [line["request_id"] for line in refusals] == ["req-json-1"]
    assert requests[0]["request_id"] == "req-json-1"
    assert requests[0]["status"] == 404
    assert requests[0]["message"] == "GET /api/v1/games/12/nowhere 404"
    assert {"time", "level", "route", "duration_ms"} <= set(requests[0])


# ------------------------------------------------------------------------------------- metrics
@pytest.mark.django_db
def test_metrics_need_staff_or_the_token(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "scrape-token-0123456789"
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", headers={"Authorization": "Bearer guess"})
    assert wrong.status_code == 401
    scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape-token-0123456789"})
    assert scraped.status_code == 200
    assert scraped["Content-Type"].startswith("text/plain; version=")
    client.force_login(UserFactory.create(username="keeper"))
    assert client.get("/metrics").status_code == 401
    client.force_login(UserFactory.create(username="operator", is_staff=True))
    assert client.get("/metrics").status_code == 200


@pytest.mark.django_db
def test_no_token_configured_means_staff_only(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 401


@pytest.mark.django_db
def test_metrics_count_hands_entered_and_latency_by_route(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    keeper = UserFactory.create(username="keeper")
    game = GameFactory.create(created_by=keeper)
    client.force_login(UserFactory.create(username="operator", is_staff=True))
    before = client.get("/metrics").content.decode()
    client.force_login(keeper)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                f"/api/v1/games/{game.pk}/hands/",
                {"entry_kind": "summary", **summary(caller=0), "number": number},
                content_type="application/json",
            )
        assert answer.status_code == 201, answer.content
    client.force_login(UserFactory.create(username="operator", is_staff=True))
    after = client.get("/metrics").content.decode()

    assert _hands_entered(after) == _hands_entered(before) + 2
    route = "api/v1/games/(?P<game_pk>[0-9]{1,18})/hands/$"
    count = _samples(after)[
        (
            "tarabish_http_request_duration_seconds_count",
            (("method", "POST"), ("route", route), ("status", "201")),
        )
    ]
    assert count >= 2


_COUNTING = """
import os, sys
from tarabish_site import metrics
metrics.HANDS_ENTERED.inc(int(sys.argv[1]))
metrics.TASK_RUNS.labels(task="t", outcome="failed").inc()
"""


@pytest.mark.django_db
def test_metrics_add_up_every_process_under_metrics_dir(
    client: Client, settings: Any, tmp_path: Path
) -> None:
    """Three web workers and a task worker, each a process with its own counters, as
    gunicorn and Celery run them: /metrics serves their sum."""
    for kind, count in (("web", 3), ("web", 4), ("web", 5), ("worker", 7)):
        directory = tmp_path / kind
        directory.mkdir(exist_ok=True)
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
        subprocess.run(  # noqa: S603 - a fixed script
            [sys.executable, "-c", _COUNTING, str(count)], cwd=ROOT, env=env, check=True
        )
    settings.METRICS_DIR = str(tmp_path)
    client.force_login(UserFactory.create(username="operator", is_staff=True))
    text = client.get("/metrics").content.decode()
    assert _hands_entered(text) == 3 + 4 + 5 + 7
    failed = (("outcome", "failed"), ("task", "t"))
    assert _samples(text)[("tarabish_task_runs_total", failed)] == 4


@pytest.mark.services
@pytest.mark.django_db
def test_metrics_say_how_many_tasks_wait_in_the_queue(client: Client, settings: Any) -> None:
    from tarabish_site.celery import app

    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-depth"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    try:
        for _ in range(3):
            app.send_task("tarabish.nothing", queue=queue)
        client.force_login(UserFactory.create(username="operator", is_staff=True))
        text = client.get("/metrics").content.decode()
        assert _samples(text)[("tarabish_queue_depth", (("queue", queue),))] == 3
        assert _samples(text)[("tarabish_broker_up", ())] == 1
    finally:
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)  # type: ignore[attr-defined]


# -------------------------------------------------------------------------------------- errors
class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        type(self).received.append((self.path, body))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


_FAILING = """
import django; django.setup()
import sentry_sdk
from django.test.utils import setup_test_environment; setup_test_environment()
from django.test import Client, override_settings
assert sentry_sdk.get_client().is_active()
with override_settings(ROOT_URLCONF="tests.tarabish_site.failing_urls", DEBUG=False):
    answer = Client(raise_request_exception=False).get("/fails/")
    assert answer.status_code == 500, answer.status_code
sentry_sdk.flush(timeout=10)
"""


def test_sentry_reports_a_server_error_when_sentry_dsn_is_set(tmp_path: Path) -> None:
    """The SDK started from settings sends the view's exception to the DSN's server: here one
    on this machine's loopback, standing in for Sentry."""
    _Receiver.received = []
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        dsn = f"http://publickey@127.0.0.1:{server.server_port}/42"
        _django_process(_FAILING, tmp_path, SENTRY_DSN=dsn)
    finally:
        server.shutdown()
    envelopes = [body for path, body in _Receiver.received if path == "/api/42/envelope/"]
    assert envelopes, _Receiver.received
    assert any(b"the scorekeeper's pad broke" in body for body in envelopes)


@pytest.mark.django_db
def test_a_broker_that_does_not_answer_is_said_within_a_second_or_two(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarabish_site.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(app.conf, "broker_url", "redis://127.0.0.1:9/0")  # nothing listens
    client.force_login(UserFactory.create(username="operator", is_staff=True))
    started = time.monotonic()
    text = client.get("/metrics").content.decode()
    assert time.monotonic() - started < 3
    assert _samples(text)[("tarabish_broker_up", ())] == 0
    assert "tarabish_hands_entered_total" in text  # the rest is served all the same
