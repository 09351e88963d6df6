# mypy: disable-error-code="no-untyped-call"
"""The data migration that gives directors named before it the right to direct games."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0002_stage_match_format_rating_result")]
AFTER = [("tournaments", "0003_directors_direct_games")]


def old_tournament(apps: Any, organiser: Any) -> Any:
    """A tournament as the historical models at a past migration make one."""
    return apps.get_model("tournaments", "Tournament").objects.create(
        name="Old Open",
        slug="old-open",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 1, 1),
        ruleset={},
        organiser=organiser,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrating")
def test_directors_named_earlier_may_direct_games() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="old-director")
    organiser = old.get_model("auth", "User").objects.create(username="old-organiser")
    tournament = old_tournament(old, organiser)
    tournament.directors.add(user)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    assert users.get(username="old-director").has_perm("scoring.direct_games")
    assert users.get(username="old-organiser").has_perm("scoring.direct_games")


LATEST = [("tournaments", "0004_directors_of_their_games_only")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrating")
def test_directors_named_earlier_keep_the_right_to_their_tournaments_games_only() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    old = executor.loader.project_state(AFTER).apps
    users = old.get_model("auth", "User").objects
    named = users.create(username="named-director")
    organiser = users.create(username="organiser")
    staff = users.create(username="staff-director", is_staff=True)
    tournament = old_tournament(old, organiser)
    tournament.directors.add(named, staff)
    permission = old.get_model("auth", "Permission").objects.get(
        content_type__app_label="scoring", codename="direct_games"
    )
    for user in (named, organiser, staff):
        user.user_permissions.add(permission)

    def holders() -> set[str]:
        return set(permission.user_set.values_list("username", flat=True))

    executor = MigrationExecutor(connection)
    executor.migrate(LATEST)
    assert holders() == {"organiser", "staff-director"}

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)  # and back: every director holds it again, as 0003 left them
    assert holders() == {"named-director", "organiser", "staff-director"}
    executor = MigrationExecutor(connection)
    executor.migrate(LATEST)
