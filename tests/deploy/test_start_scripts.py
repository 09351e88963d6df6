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
