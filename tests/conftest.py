"""Test-wide fixtures.

Two modes, one suite:

* ``make test``: embedded defaults (SQLite, tasks in-process). Tests marked ``services`` are
  skipped with the reason, and browser tests are skipped only when no Chromium is installed.
* ``make test-services`` (``TARABISH_TEST_SERVICES=1``): the same suite against PostgreSQL and
  Redis, and tests marked ``services`` get a real Celery worker process. A service that does not
  answer stops the run with a failure, never a skip.

Ordinary tests run Celery tasks in-process in both modes (they test logic, not the queue);
only tests that ask for the ``celery_worker`` fixture send tasks through the broker.
"""

import inspect
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tarabish_site.celery import app as celery_app

SERVICES = os.environ.get("TARABISH_TEST_SERVICES") == "1"
IN_CI = os.environ.get("CI") == "true"
ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # Users made by the tests get cheap hashes every server still reads (tests/hashers.py).
    settings.PASSWORD_HASHERS = [
        "tests.hashers.OneRoundPBKDF2PasswordHasher",
        *settings.PASSWORD_HASHERS,
    ]
    if not SERVICES:
        return
    _own_redis_for_this_worker(settings)
    problems = []

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        problems.append("DATABASE_URL does not name a PostgreSQL database")
    if settings.CELERY_TASK_ALWAYS_EAGER:
        problems.append("CELERY_BROKER_URL is not set")
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=2, timeout=3)
    except Exception as exc:  # noqa: BLE001 - report any failure to reach the broker
        problems.append(f"the broker does not answer: {exc}")
    try:
        import psycopg

        db = settings.DATABASES["default"]
        psycopg.connect(
            host=db["HOST"] or None,
            port=db["PORT"] or None,
            user=db["USER"] or None,
            password=db["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except Exception as exc:  # noqa: BLE001 - report any failure to reach PostgreSQL
        problems.append(f"PostgreSQL does not answer: {exc}")
    if problems:
        pytest.exit("services are required but: " + "; ".join(problems), returncode=3)


def _own_redis_for_this_worker(settings: Any) -> None:
    """Under pytest-xdist, give this worker (``gw<n>``) Redis of its own before anything
    connects: the database ``n`` after the configured one (the cache, whose tests empty it,
    and the broker's queues), and its own Celery queue and channel-layer prefix (publish and
    subscribe ignore the database number). The environment is changed too, for the processes
    tests start (the Celery worker, servers)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not settings.REDIS_URL:
        return
    n = int(worker.removeprefix("gw"))
    parts = urlsplit(settings.REDIS_URL)
    base = int(parts.path.strip("/") or 0)
    url = urlunsplit(parts._replace(path=f"/{base + n}"))
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{worker}"
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    prefix = f"{layer['prefix']}-{worker}"
    settings.REDIS_URL = settings.CELERY_BROKER_URL = url
    settings.CACHES["default"]["LOCATION"] = url
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    layer["hosts"] = [{**host, "address": url} for host in layer["hosts"]]
    layer["prefix"] = prefix
    celery_app.conf.update(broker_url=url, task_default_queue=queue)
    os.environ.update(
        REDIS_URL=url,
        CELERY_BROKER_URL=url,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        CHANNEL_LAYER_PREFIX=prefix,
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _add_socket_cleanup(items)
    chromium_missing = not Path(CHROMIUM).exists() and not shutil.which("chromium")
    for item in items:
        if "services" in item.keywords and not SERVICES:
            item.add_marker(
                pytest.mark.skip(reason="needs PostgreSQL, Redis and a worker: make test-services")
            )
        if "browser" in item.keywords and chromium_missing and not (IN_CI or SERVICES):
            # Under CI a missing browser is a failure: the test runs and cannot launch it.
            item.add_marker(
                pytest.mark.skip(reason=f"no Chromium at {CHROMIUM}: apt-get install chromium")
            )


@pytest.fixture(autouse=True)
def _celery_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run tasks in-process unless the test asked for the real worker."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = "celery_worker" not in request.fixturenames
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _healthz_checks_again() -> Iterator[None]:
    """Each test's /healthz runs its checks, not an answer kept from an earlier test."""
    from tarabish_site import health

    health.forget()
    yield
    health.forget()


def _add_socket_cleanup(items: list[pytest.Item]) -> None:
    """Consumer tests (coroutines) clean up after themselves with ``_sockets_leave_nothing``."""
    for item in items:
        if isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj):
            item.fixturenames.append("_sockets_leave_nothing")


@pytest.fixture
async def _sockets_leave_nothing() -> AsyncIterator[None]:
    """After a consumer test: the channel layer emptied, and the database connections of the
    threads where consumers ran their queries closed, so the next test starts clean and the test
    database can be dropped at the end."""
    yield
    from channels.layers import InMemoryChannelLayer, get_channel_layer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from tests.websockets import close_server_connections

    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer | RedisPubSubChannelLayer):
        # Redis' pubsub layer keeps one layer an event loop: this flushes this loop's alone
        # (its subscriptions forgotten, its connections closed), not the session's daphne
        # thread's.
        await layer.flush()
    await close_server_connections()


@pytest.fixture
def migrating(django_db_use_migrations: bool) -> Iterator[None]:
    """For a test that migrates the database back and forth: it is left at the newest
    migration, as the tests after it expect (the tables then have every column the models
    have). Skipped when the run's tables are made from the models (``make test``, with
    ``--nomigrations``); ``make test-services`` migrates, on PostgreSQL as in production."""
    if not django_db_use_migrations:
        pytest.skip("the tables are made from the models in this run: make test-services migrates")
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A real ``celery worker`` process, on the test database and this run's own queue.

    Tests that use it must use ``@pytest.mark.django_db(transaction=True)`` so the worker (a
    separate process) sees what they commit.
    """
    if not SERVICES:
        pytest.skip("needs the real broker: make test-services")
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "PYTHONUNBUFFERED": "1"}
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    log = Path(tempfile.gettempdir()) / f"tarabish-worker-{os.getpid()}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - fixed command
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tarabish_site",
                "worker",
                "--pool",
                "solo",
                "--queues",
                queue,
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--hostname",
                f"test-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"the Celery worker exited early:\n{log.read_text()[-4000:]}")
            if "ready." in log.read_text():
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the Celery worker did not start:\n{log.read_text()[-4000:]}")
        yield queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
