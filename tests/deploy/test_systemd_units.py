"""deploy/systemd: what a unit must set is set where /etc/tarabish/env cannot undo it."""

import configparser
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"


def _service(name: str) -> configparser.SectionProxy:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNITS / name)
    return unit["Service"]


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        (
            "tarabish-web.service",
            [
                "GUNICORN_BIND=127.0.0.1:8000",
                "DJANGO_NUM_PROXIES=1",
                "METRICS_DIR=/run/tarabish/metrics",
            ],
        ),
        ("tarabish-worker.service", ["METRICS_DIR=/run/tarabish/metrics"]),
        (
            "tarabish-ws.service",
            ["DAPHNE_HOST=127.0.0.1", "DAPHNE_PORT=8001", "DJANGO_NUM_PROXIES=1"],
        ),
        (
            "tarabish-beat.service",
            ["CELERY_BEAT_SCHEDULE_FILE=/var/lib/tarabish/celerybeat-schedule"],
        ),
    ],
)
def test_a_units_own_settings_are_on_its_command_line(name: str, settings: list[str]) -> None:
    # systemd lets a value from EnvironmentFile= override one from Environment=: a copy of
    # .env.example in /etc/tarabish/env would bind gunicorn to every address, for instance.
    service = _service(name)
    assert service["EnvironmentFile"] == "/etc/tarabish/env"
    assert "Environment" not in service
    command = service["ExecStart"].split()
    assert command[0] == "/usr/bin/env"
    assert set(settings) <= set(command[1:-1])
    assert command[-1].startswith("/srv/tarabish/deploy/start-")


def test_the_example_environment_leaves_those_settings_to_the_units() -> None:
    example = (UNITS.parents[1] / ".env.example").read_text().splitlines()
    for name in (
        "GUNICORN_BIND",
        "DAPHNE_HOST",
        "DAPHNE_PORT",
        "DJANGO_NUM_PROXIES",
        "CELERY_BEAT_SCHEDULE_FILE",
        "METRICS_DIR",
    ):
        assert not any(line.startswith(f"{name}=") for line in example), name
