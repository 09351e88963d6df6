"""``manage.py export_tournament SLUG``: the tournament as one JSON document (or a CSV table)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from tournaments import exports
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament as one JSON document (read back by `import_tournament`, here or "
        "in another installation), or one of its CSV tables."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="a file (default: standard output)")
        parser.add_argument(
            "--csv",
            choices=sorted(exports.CSV_TABLES),
            help="a CSV table instead of the JSON document",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['slug']!r}")
        if options["csv"]:
            text = exports.CSV_TABLES[options["csv"]](tournament)
        else:
            document = exports.tournament_document(tournament)
            text = json.dumps(document, cls=DjangoJSONEncoder, indent=1) + "\n"
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
