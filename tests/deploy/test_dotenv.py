"""The start scripts read the project's .env as the Django settings do (deploy/dotenv.sh), so
the web process and the scripts that start it, the workers and beat see the same settings."""

import os
import shutil
import subprocess
from pathlib import Path

import environ
import pytest

ROOT = Path(__file__).resolve().parents[2]

# Besides .env.example itself, every form django-environ reads (and a few it skips).
_TRICKY = """
export EXPORTED=yes
SINGLE='quoted # not a comment'
DOUBLE="a \\"b\\" \\\\ c\\n"
BOTH='"inner"'
UNQUOTED=a # stays
EMPTY=
TWICE=first
TWICE=second
KEPT=from the file
  INDENTED=skipped
not a line
9DIGIT=skipped by the shell
CRLF=ends\r
"""


def _django_reads(
    path: Path, inherited: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    environment = dict(inherited)
    monkeypatch.setattr(environ.Env, "ENVIRON", environment)
    environ.Env.read_env(path, overwrite=False)
    return environment


def _scripts_read(path: Path, inherited: dict[str, str]) -> dict[str, str]:
    done = subprocess.run(  # noqa: S603 - our own script
        ["/bin/bash", "-c", '. deploy/dotenv.sh && load_dotenv "$1" && env -0', "-", str(path)],
        check=True,
        cwd=ROOT,
        env=inherited,
        capture_output=True,
    )
    found = dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
    for name in ("PWD", "SHLVL", "_"):  # what bash itself adds
        if name not in inherited:
            found.pop(name, None)
    return found


def test_the_scripts_read_dotenv_as_django_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(((ROOT / ".env.example").read_text() + _TRICKY).encode())
    inherited = {"PATH": os.environ["PATH"], "KEPT": "from the environment", "LOG_LEVEL": ""}
    django = _django_reads(dotenv, inherited, monkeypatch)
    django.pop("9DIGIT")  # a name no shell variable can have; Django reads the file itself
    scripts = _scripts_read(dotenv, inherited)
    assert scripts == django
    assert scripts["KEPT"] == "from the environment"
    assert scripts["LOG_LEVEL"] == ""  # set, even empty, in the environment: kept
    assert scripts["TWICE"] == "second"
    assert scripts["UNQUOTED"] == "a # stays"
    assert scripts["CELERY_TASK_DEFAULT_QUEUE"] == "tarabish"


def test_no_dotenv_changes_nothing(tmp_path: Path) -> None:
    inherited = {"PATH": os.environ["PATH"], "KEPT": "as it was"}
    assert _scripts_read(tmp_path / ".env", inherited) == inherited


def _project(tmp_path: Path, dotenv: str) -> Path:
    """A project root holding the real start scripts, a .env and a stand-in for Python that
    prints what it was asked to run and what gunicorn.conf.py would read."""
    (tmp_path / "deploy").mkdir()
    for name in ("dotenv.sh", "metrics.sh", "start-web.sh", "start-worker.sh", "start-beat.sh"):
        shutil.copy2(ROOT / "deploy" / name, tmp_path / "deploy" / name)
    python = tmp_path / "python"
    python.write_text('#!/bin/sh\necho "$* [GUNICORN_BIND=${GUNICORN_BIND:-}]"\n')
    python.chmod(0o755)
    (tmp_path / ".env").write_text(f"PYTHON={python}\n{dotenv}")
    return tmp_path


def _start(project: Path, script: str, **environment: str) -> list[str]:
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("CELERY_", "GUNICORN_", "SKIP_")) and name != "PYTHON"
    }
    done = subprocess.run(  # noqa: S603 - our own script
        [str(project / "deploy" / script)],
        check=True,
        env={**inherited, **environment},
        capture_output=True,
        text=True,
    )
    return done.stdout.splitlines()


def test_a_worker_listens_on_the_queue_the_web_sends_to(tmp_path: Path) -> None:
    project = _project(tmp_path, "CELERY_TASK_DEFAULT_QUEUE=hall-b\nCELERY_CONCURRENCY=3\n")
    (command,) = _start(project, "start-worker.sh")
    assert "--queues hall-b --concurrency 3" in command
    (command,) = _start(project, "start-worker.sh", CELERY_TASK_DEFAULT_QUEUE="hall-c")
    assert "--queues hall-c --concurrency 3" in command


def test_the_web_script_and_gunicorn_read_dotenv(tmp_path: Path) -> None:
    project = _project(tmp_path, "SKIP_MIGRATE=1\nGUNICORN_BIND=127.0.0.1:8123\n")
    collectstatic, gunicorn = _start(project, "start-web.sh")
    assert collectstatic.startswith("manage.py collectstatic")
    assert gunicorn.startswith("-m gunicorn tarabish_site.wsgi:application")
    assert gunicorn.endswith("[GUNICORN_BIND=127.0.0.1:8123]")


def test_beat_keeps_its_schedule_where_dotenv_says(tmp_path: Path) -> None:
    project = _project(tmp_path, f"CELERY_BEAT_SCHEDULE_FILE={tmp_path}/state/beat\n")
    (command,) = _start(project, "start-beat.sh")
    assert f"--schedule {tmp_path}/state/beat" in command
    assert (tmp_path / "state").is_dir()
