"""``make contract``: the API's schema is one that stock tools can use, checked with those tools.

1. ``openapi-spec-validator`` validates the schema the service serves at ``/api/schema/``.
2. ``openapi-python-client`` generates a Python client from it, and
   ``tools/api_client_play.py`` uses only that client to play a whole game and a small
   tournament match against a running server.
3. ``schemathesis`` runs every operation of the served schema against that server, with a
   fixed seed, once with a token and once without, with all its checks.

The server is Daphne (``runserver``) on a free loopback port, on a fresh SQLite database in a
temporary directory, tasks in-process; the server's log and schemathesis' reports are kept in
``var/contract/``. Any failure exits non-zero. ``CONTRACT_EXAMPLES`` sets schemathesis' cases
per operation (default 15).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SEED = 20261126
#: The server's log and schemathesis' reports of the last run, kept to read after a failure.
REPORTS = ROOT / "var" / "contract"
PASSWORD = "contract-password-4d7b"  # noqa: S105 (an account of a throw-away database)
ACCOUNTS = {"director": True, "keeper": False}  # username: staff (directs every game)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def step(title: str) -> float:
    print(f"== {title}", flush=True)
    return time.perf_counter()


def done(started: float) -> None:
    print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)


def run(args: list[str], env: dict[str, str], **kwargs: object) -> None:
    subprocess.run(args, check=True, env=env, cwd=ROOT, **kwargs)  # type: ignore[call-overload]  # noqa: S603


def server_env(tmp: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"CELERY_BROKER_URL", "REDIS_URL", "DATABASE_URL"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'contract.sqlite3'}",
        DJANGO_SETTINGS_MODULE="tarabish_site.settings",
        TARABISH_ENV="test",
        DJANGO_DEBUG="false",
        LOG_LEVEL="WARNING",
        # The run writes thousands of times a minute: the write limit is not what is tested.
        THROTTLE_WRITES="100000/minute",
        THROTTLE_LOGIN="1000/minute",
        METRICS_DIR="",
    )
    return env


def make_accounts(env: dict[str, str]) -> None:
    code = (
        "from django.contrib.auth.models import User\n"
        f"for name, staff in {ACCOUNTS!r}.items():\n"
        f"    User.objects.create_user(name, password={PASSWORD!r}, is_staff=staff,"
        " is_superuser=staff)\n"
    )
    run([str(BIN / "python"), "manage.py", "shell", "-c", code], env)


def wait_for(url: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2):  # noqa: S310 (loopback)
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer at {url}")


def token_for(base: str, username: str) -> str:
    request = urllib.request.Request(  # noqa: S310 (loopback)
        f"{base}/api/v1/auth/token/",
        data=json.dumps({"username": username, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return str(json.load(response)["token"])


def schemathesis(
    base: str,
    env: dict[str, str],
    report: Path,
    headers: list[str],
    workdir: Path,
    *,
    more: tuple[str, ...] = (),
) -> int:
    """Run schemathesis against the served schema (``more``: arguments of its own); returns
    the number of cases it ran."""
    examples = os.environ.get("CONTRACT_EXAMPLES", "15")
    args = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(ROOT / "tools" / "schemathesis.toml"),
        "run",
        f"{base}/api/schema/",
        "--checks",
        "all",
        "--seed",
        str(SEED),
        "--max-examples",
        examples,
        "--no-shrink",
        "--generation-database",
        "none",
        "--workers",
        "1",
        "--phases",
        "examples,coverage,fuzzing",
        "--report",
        "ndjson",
        "--report-ndjson-path",
        str(report),
        "--no-color",
        "--output-truncate",
        "true",
    ]
    for header in headers:
        args += ["--header", header]
    args += more
    # From the temporary directory: schemathesis keeps a cache of what it found in the
    # directory it runs in, which is no part of the project.
    subprocess.run(args, check=True, env=env, cwd=workdir)  # noqa: S603
    cases = 0
    for line in report.read_text().splitlines():
        event = json.loads(line)
        for value in event.values():
            if isinstance(value, dict) and "recorder" in value:
                cases += len(value["recorder"].get("cases", {}))
    return cases


def main() -> int:
    REPORTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tarabish-contract-") as name:
        tmp = Path(name)
        env = server_env(tmp)

        started = step("schema: openapi-spec-validator")
        schema = tmp / "schema.yaml"
        run([str(BIN / "python"), "manage.py", "spectacular", "--file", str(schema)], env)
        run([str(BIN / "openapi-spec-validator"), str(schema)], env)
        done(started)

        started = step("client: openapi-python-client")
        client_dir = tmp / "client"
        client_dir.mkdir()
        config = tmp / "client.yaml"
        config.write_text("post_hooks: []\n")  # no formatter run over the generated code
        run(
            [
                str(BIN / "openapi-python-client"),
                "generate",
                "--path",
                str(schema),
                "--meta",
                "none",
                "--config",
                str(config),
                "--output-path",
                str(client_dir / "tarabish_client"),
                "--fail-on-warning",
            ],
            env,
            stdout=subprocess.DEVNULL,
        )
        done(started)

        run([str(BIN / "python"), "manage.py", "migrate", "--no-input", "-v", "0"], env)
        make_accounts(env)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server_log = (REPORTS / "server.log").open("wb")
        server = subprocess.Popen(  # noqa: S603
            [str(BIN / "python"), "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            env=env,
            cwd=ROOT,
            stdout=server_log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(f"{base}/healthz", server)

            started = step("the generated client plays a game and a tournament match")
            play_env = {**env, "PYTHONPATH": str(client_dir)}
            run(
                [
                    str(BIN / "python"),
                    str(ROOT / "tools" / "api_client_play.py"),
                    base,
                    PASSWORD,
                ],
                play_env,
            )
            done(started)

            started = step("schemathesis with a token")
            token = token_for(base, "director")
            # Not revoking: the fuzzer reads its own token's id in the list of tokens and
            # revokes it, and the rest of the run would see nothing but 401. Revoking is
            # played by the generated client (a lost phone's token) and fuzzed anonymously.
            with_token = schemathesis(
                base,
                env,
                REPORTS / "token.ndjson",
                [f"Authorization: Token {token}"],
                tmp,
                more=("--exclude-operation-id", "auth_tokens_revoke"),
            )
            done(started)
            started = step("schemathesis anonymous")
            anonymous = schemathesis(base, env, REPORTS / "anonymous.ndjson", [], tmp)
            done(started)
            print(f"schemathesis cases: {with_token} with a token, {anonymous} anonymous")
        finally:
            server.terminate()
            server.wait(timeout=30)
            server_log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
