"""``make run`` serves the demo with the director's sign-in as the last thing printed: after
the server's start-up banner, with no broker warning (no broker is used) and no start-up log
lines below it. The command run is the Makefile's own (``make -n run``), run for real."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.management.commands.demo import sign_in_line

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_command(port: int) -> str:
    """The Makefile's line that serves the demo (after migrate and demo), as make runs it."""
    bin_dir = Path(sys.executable).parent
    shown = subprocess.run(  # noqa: S603 - a fixed command
        [
            "/usr/bin/make",
            "-n",
            "--no-print-directory",
            "run",
            "HOST=127.0.0.1",
            f"PORT={port}",
            f"BIN={bin_dir}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    commands = shown.replace("\\\n", " ").splitlines()
    (serve,) = [line for line in commands if "runserver" in line]
    assert commands[-1] == serve  # the last thing make does
    return serve


@pytest.mark.skipif(not os.path.exists("/usr/bin/make"), reason="make is not installed")
def test_make_run_prints_the_sign_in_last_once_the_server_listens(tmp_path: Path) -> None:
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "LOG_"))
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        TARABISH_ENV="development",
        PYTHONUNBUFFERED="1",
    )
    server = subprocess.Popen(  # noqa: S603 - the Makefile's own command
        ["/bin/sh", "-c", _serve_command(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # the server, its reloader's child and the sign-in's waiter
    )
    printed: list[str] = []
    reader = threading.Thread(target=lambda: printed.extend(server.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while sign_in_line() not in "".join(printed) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)  # anything the server would print after it
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        reader.join(timeout=10)
    output = "".join(printed)
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in output.splitlines() if line.strip()]
    assert lines[-1] == sign_in_line(), output
    assert any(f"127.0.0.1:{port}" in line for line in lines[:-1])  # the banner, above it
    assert "broker" not in output.lower()
    assert "Watching for file changes" not in output
    assert "Listening on" not in output


def test_the_sign_in_waits_for_a_listening_server_and_gives_up_quietly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        call_command("demo_sign_in", "--when-listening", f"0.0.0.0:{port}", "--timeout", "5")
        assert capsys.readouterr().out.strip().endswith(sign_in_line())
    call_command("demo_sign_in", "--when-listening", f"127.0.0.1:{port}", "--timeout", "0.5")
    assert capsys.readouterr().out == ""  # nothing listens any more: nothing printed
    with pytest.raises(CommandError, match="HOST:PORT"):
        call_command("demo_sign_in", "--when-listening", "localhost")
