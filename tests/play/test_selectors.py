"""What each seat is shown of a table: read from the database, or as a move made in this
process left it (the same, without a query)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db.models import F

from play import services
from play.models import Table
from play.selectors import state_for, table_rows, table_rows_kept
from tests.play.helpers import all_computers, table_with

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_table_a_move_here_left_shows_each_seat_what_a_read_shows(
    django_assert_num_queries: Any,
) -> None:
    table, _ = table_with(1, ruleset={"target": 150})
    all_computers(table)
    rng = random.Random(5)
    services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    compared = 0
    while services.computer_move(table=table, rng=rng):
        table.refresh_from_db()
        read = table_rows(table.pk)
        with django_assert_num_queries(0):
            kept = table_rows_kept(table.pk, table.version)
        if kept is None:  # the start, a cut, the end of a hand: only the engine's actions
            continue
        for seat in (0, 1, 2, 3, None):
            assert state_for(kept, seat) == state_for(read, seat)
        compared += 1
    assert compared > 30
    # a move made elsewhere (another process) moves the version on: nothing kept is shown
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    assert table_rows_kept(table.pk, table.version + 1) is None
