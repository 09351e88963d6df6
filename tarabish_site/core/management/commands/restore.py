"""``manage.py restore FILE``: restore a backup made by ``manage.py backup`` into the database
``DATABASE_URL`` names (see tarabish_site.core.backup); then run ``manage.py migrate``."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tarabish_site.core.backup import BackupError, restore_database


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` into the configured database, whole or "
        "not at all. The database must be empty unless --replace is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup to restore")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="drop what the database holds and replace it with the backup",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore_database(Path(options["file"]), replace=options["replace"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored {options['file']}; now run `manage.py migrate`")
