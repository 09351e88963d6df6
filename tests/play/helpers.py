"""Tables for the online-play tests: seated, and played by computer players."""

from __future__ import annotations

import random
from typing import Any

from play import services
from play.models import Table
from tests.scoring.factories import UserFactory


def table_with(people: int = 1, **options: Any) -> tuple[Table, list[Any]]:
    """A table with ``people`` signed-in players in seats 0.. and computers in the rest."""
    users = [UserFactory.create() for _ in range(max(people, 1))]
    table = services.table_create(by=users[0], **options)
    for n in range(people):
        services.table_sit(table=table, user=users[n], seat=n)
    if people < 4:
        services.table_fill_with_bots(table=table, user=users[0])
    table.refresh_from_db()
    return table, users[:people]


def all_computers(table: Table) -> None:
    """Every seat played by a computer (its people stay seated)."""
    table.seats.update(bot=True)


def play_out(table: Table, rng: random.Random, limit: int = 5000) -> int:
    """Computer moves until none is owed; answers how many were made."""
    made = 0
    while made < limit and services.computer_move(table=table, rng=rng):
        made += 1
    return made
