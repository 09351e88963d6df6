"""``manage.py import_tournament FILE``: make a tournament from an exported document."""

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tarabish_site.api.errors import ApplicationError
from tournaments.services.transfer import tournament_import


class Command(BaseCommand):
    help = (
        "Make a tournament from a document written by `export_tournament` (or the API's "
        "export), with its entries, stages, matches, games, hands and revisions: all or "
        "nothing. Players are matched by name and community, or created."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON document; - for standard input")
        parser.add_argument("--slug", default="", help="instead of the document's slug")
        parser.add_argument("--name", default="", help="instead of the document's name")
        parser.add_argument(
            "--organiser", default="", help="the username who organises it (default: none)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["file"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text("utf-8")
            document = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"{source} cannot be read as JSON: {exc}") from exc
        organiser = None
        if options["organiser"]:
            organiser = get_user_model().objects.filter(username=options["organiser"]).first()
            if organiser is None:
                raise CommandError(f"there is no user {options['organiser']!r}")
        try:
            tournament = tournament_import(
                document=document, actor=organiser, slug=options["slug"], name=options["name"]
            )
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"made tournament {tournament.slug!r} ({tournament.name})")
