"""``manage.py demo``: load the demo data. Running it again changes nothing."""

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from play import demo as play_demo
from scoring import demo as scoring_demo
from tournaments import demo as tournaments_demo

DEMO_USERNAME = "director"
DEMO_PASSWORD = "tarabish-demo"  # noqa: S105 - a development demo account, printed on purpose


class Command(BaseCommand):
    help = "Load the demo data (idempotent) and print the director's sign-in."

    def handle(self, *args: Any, **options: Any) -> None:
        # the demo runs hundreds of tasks in-process: their one-line logs would bury the
        # director's sign-in, which this command prints last
        tasks = logging.getLogger("tarabish.task")
        level = tasks.level
        tasks.setLevel(logging.WARNING)
        try:
            self._load()
        finally:
            tasks.setLevel(level)

    def _load(self) -> None:
        with transaction.atomic():
            user_model = get_user_model()
            director, created = user_model.objects.get_or_create(
                username=DEMO_USERNAME,
                defaults={"is_staff": True, "is_superuser": True, "email": "director@example.org"},
            )
            if created:
                director.set_password(DEMO_PASSWORD)
                director.save(update_fields=["password"])
        scoring_demo.demo_load()
        made = tournaments_demo.demo_load(director=director)
        with transaction.atomic():
            play_demo.demo_load(director=director)
        for name, count in {
            **scoring_demo.demo_summary(),
            **tournaments_demo.demo_summary(),
            **play_demo.demo_summary(),
        }.items():
            self.stdout.write(f"  {name}: {count}")
        if made:
            self.stdout.write(f"  new tournaments: {', '.join(t.name for t in made)}")
        self.stdout.write(
            self.style.SUCCESS(sign_in_line() + ("" if created else " (account already existed)"))
        )


def sign_in_line() -> str:
    """The demo director's sign-in, as ``make run`` prints it."""
    return (
        f"Demo ready. Director: user {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}, "
        "to sign in on the pages (/accounts/sign-in/) or in the admin (/admin/)"
    )
