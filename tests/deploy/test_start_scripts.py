"""The deploy start scripts, run for real against the local PostgreSQL and Redis."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from tarabish_site.celery import app as celery_app
from tarabish_site.core.models import WorkerHeartbeat
from tarabish_site.core.tasks import worker_heartbeat
from tests.helpers import wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(**extra: str) -> dict[str, str]:
    db = connection.settings_dict
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PYTHON": sys.executable,
        **extra,
    }


@contextmanager
def _running(script: str, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - our own script
            [str(ROOT / "deploy" / script)], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _healthz(port: int) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return json.loads(response.read())  # type: ignore[no-any-return]
    except OSError:
        return None


def test_start_web_serves_healthz_through_gunicorn(tmp_path: Path) -> None:
    port = _free_port()
    env = _env(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS="1",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    with _running("start-web.sh", env, tmp_path / "web.log") as process:
        assert wait_for(lambda: _healthz(port) is not None, timeout=60), (
            tmp_path / "web.log"
        ).read_text()
        body = _healthz(port)
        assert process.poll() is None
    assert body is not None
    assert body["status"] == "ok"
    checks = body["checks"]
    assert isinstance(checks, dict)
    assert set(checks) == {"database", "broker", "cache"}


def test_start_ws_serves_websockets_through_daphne(tmp_path: Path) -> None:
    from tests.tournaments.factories import TournamentFactory

    tournament = TournamentFactory(public=True)
    port = _free_port()
    log = tmp_path / "ws.log"
    with _running("start-ws.sh", _env(DAPHNE_PORT=str(port)), log) as process:
        assert wait_for(lambda: _healthz(port) is not None, timeout=60), log.read_text()
        first = asyncio.run(_first_message(port, f"/ws/watch/tournament/{tournament.slug}/"))
        assert process.poll() is None
    assert first == {"event": "watching", "topic": "tournament", "key": tournament.slug}


async def _first_message(port: int, path: str) -> object:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}{path}", origin="http://localhost") as socket:  # type: ignore[arg-type]
        return json.loads(await asyncio.wait_for(socket.recv(), timeout=10))


def test_start_worker_runs_queued_tasks(tmp_path: Path) -> None:
    with _running("start-worker.sh", _env(CELERY_CONCURRENCY="1"), tmp_path / "worker.log"):
        worker_heartbeat.delay()
        assert wait_for(WorkerHeartbeat.objects.exists, timeout=60), (
            tmp_path / "worker.log"
        ).read_text()


def test_start_beat_starts_the_scheduler(tmp_path: Path) -> None:
    log = tmp_path / "beat.log"
    env = _env(CELERY_BEAT_SCHEDULE_FILE=str(tmp_path / "schedule"))
    with _running("start-beat.sh", env, log) as process:
        assert wait_for(lambda: "beat: Starting" in log.read_text(), timeout=30), log.read_text()
        assert process.poll() is None


def _get(port: int, path: str, token: str = "") -> tuple[int, str]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_metrics_add_up_gunicorns_workers_and_celerys(tmp_path: Path) -> None:
    """Three gunicorn workers and a Celery worker count in files under METRICS_DIR; /metrics,
    answered by whichever web worker, adds up all of them. The web process logs JSON lines."""
    from prometheus_client.parser import text_string_to_metric_families

    port = _free_port()
    token = "metrics-token-for-the-test-0123456789"
    env = _env(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS="3",
        STATIC_ROOT=str(tmp_path / "static"),
        METRICS_DIR=str(tmp_path / "metrics"),
        METRICS_TOKEN=token,
        LOG_FORMAT="json",
        SKIP_MIGRATE="1",
        SKIP_COLLECTSTATIC="1",
        CELERY_CONCURRENCY="2",
    )
    web_log, worker_log = tmp_path / "web.log", tmp_path / "worker.log"
    with _running("start-web.sh", env, web_log), _running("start-worker.sh", env, worker_log):
        # four processes start on a shared machine: a bound, not a wait
        assert wait_for(lambda: _healthz(port) is not None, timeout=180), web_log.read_text()
        for _ in range(29):
            assert _healthz(port) is not None
        # through the broker (the tests run .delay() in-process)
        celery_app.send_task("tarabish_site.core.tasks.worker_heartbeat")
        assert wait_for(WorkerHeartbeat.objects.exists, timeout=180), worker_log.read_text()

        def scraped() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
            status, text = _get(port, "/metrics", token)
            assert status == 200, text
            return {
                (sample.name, tuple(sorted(sample.labels.items()))): sample.value
                for family in text_string_to_metric_families(text)
                for sample in family.samples
            }

        healthz = (
            "tarabish_http_request_duration_seconds_count",
            (("method", "GET"), ("route", "healthz"), ("status", "200")),
        )
        heartbeat = (
            "tarabish_task_runs_total",
            (("outcome", "succeeded"), ("task", "tarabish_site.core.tasks.worker_heartbeat")),
        )
        assert wait_for(lambda: heartbeat in scraped(), timeout=60)
        samples = scraped()
        assert samples[healthz] >= 30  # the first probes may have met gunicorn starting
        assert samples[heartbeat] == 1
        assert _get(port, "/metrics")[0] == 401
    pids = {path.name.split("_")[-1] for path in (tmp_path / "metrics" / "web").glob("*.db")}
    assert len(pids) >= 3, "each gunicorn worker counts in files of its own"
    lines = [json.loads(line) for line in web_log.read_text().splitlines() if line[:1] == "{"]
    probes = [line for line in lines if line.get("route") == "healthz"]
    assert len(probes) >= 30
    assert all(len(line["request_id"]) == 32 for line in probes)
