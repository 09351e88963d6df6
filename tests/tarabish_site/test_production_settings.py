"""The production settings, loaded in a process of their own (the suite runs in development)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ASK = """
import django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="tarabish.example")
answers = {path: client.get(path).status_code for path in ("/healthz", "/")}
from rest_framework.settings import api_settings
print(__import__("json").dumps({"answers": answers, "proxies": api_settings.NUM_PROXIES}))
"""


def _run_production(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("CELERY_BROKER_URL", "REDIS_URL", "TARABISH_TEST_SERVICES")
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "tarabish_site.settings",
        "TARABISH_ENV": "production",
        "DJANGO_SECRET_KEY": "a production key long enough for the checks " * 2,
        "DJANGO_ALLOWED_HOSTS": "tarabish.example",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **extra,
    }
    return subprocess.run(  # noqa: S603 - our own script
        [sys.executable, "-c", ASK],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _production(tmp_path: Path, **extra: str) -> dict[str, object]:
    done = _run_production(tmp_path, **extra)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_health_checks_are_answered_over_plain_http_and_pages_go_to_https(tmp_path: Path) -> None:
    found = _production(tmp_path)
    answers = found["answers"]
    assert isinstance(answers, dict)
    assert answers["/"] == 301  # to https://
    assert answers["/healthz"] != 301  # gunicorn's own health check is answered
    assert found["proxies"] == 0


def test_the_proxies_in_front_are_configured(tmp_path: Path) -> None:
    assert _production(tmp_path, DJANGO_NUM_PROXIES="1")["proxies"] == 1


@pytest.mark.parametrize(
    "key",
    [
        "abc",
        "x" * 60,  # long, but one character
        "a-key-of-forty-nine-characters-is-one-too-short!!",
        "django-insecure-" + "k3y-made-by-startproject-for-development-0123456789",
    ],
)
def test_production_refuses_a_weak_secret_key(tmp_path: Path, key: str) -> None:
    done = _run_production(tmp_path, DJANGO_SECRET_KEY=key)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be at least 50 characters" in done.stderr
