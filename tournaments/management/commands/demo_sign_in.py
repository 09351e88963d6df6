"""``manage.py demo_sign_in --when-listening HOST:PORT``: print the demo director's sign-in once
a server listens there.

``make run`` starts it beside ``runserver``, so that the sign-in comes after the server's
start-up banner, as the last thing printed before the first request. It gives up quietly
after ``--timeout`` seconds (a server that did not start says why itself)."""

import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.commands.demo import sign_in_line

#: Addresses a server binds to for every interface, and the one to reach it on instead.
EVERY_INTERFACE = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}  # noqa: S104


class Command(BaseCommand):
    help = "Print the demo director's sign-in once a server listens on HOST:PORT."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--when-listening", metavar="HOST:PORT", required=True)
        parser.add_argument("--timeout", type=float, default=120.0)

    def handle(self, *args: Any, **options: Any) -> None:
        given = str(options["when_listening"])
        host, _, port = given.rpartition(":")
        host = host.strip("[]")
        if not port.isdigit():
            raise CommandError(f"--when-listening takes HOST:PORT, not {given!r}")
        host = EVERY_INTERFACE.get(host, host)
        deadline = time.monotonic() + options["timeout"]
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, int(port)), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            return
        self.stdout.write(self.style.SUCCESS(sign_in_line()))
