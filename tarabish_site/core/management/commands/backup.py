"""``manage.py backup [FILE]``: back up the whole database (see tarabish_site.core.backup)."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from tarabish_site.core.backup import BackupError, backup_database


class Command(BaseCommand):
    help = (
        "Back up the database: pg_dump's custom format on PostgreSQL, a copy on SQLite. "
        "Restore it with `manage.py restore FILE`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            nargs="?",
            help="where to write it (default: var/backups/tarabish-<time>.dump)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["file"]:
            target = Path(options["file"])
        else:
            stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
            suffix = "sqlite3" if connection.vendor == "sqlite" else "dump"
            target = Path(settings.BASE_DIR) / "var" / "backups" / f"tarabish-{stamp}.{suffix}"
        try:
            written = backup_database(target)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{written} ({written.stat().st_size} bytes)")
