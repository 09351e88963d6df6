"""Demo data of online play: a practice table (the demo director and three computer players)
with two finished online games and a third in the middle of a hand. Every card is dealt
and played through the services, by computer players sitting in for everyone."""

from __future__ import annotations

import random
from typing import Any

from play import services
from play.models import Table
from scoring.models import Game

DEMO_TABLE = "Practice table (demo)"


def _play_until(table: Table, rng: random.Random, *, moves: int | None = None) -> None:
    made = 0
    while (moves is None or made < moves) and services.computer_move(table=table, rng=rng):
        made += 1


def demo_load(*, director: Any, seed: int = 1897) -> Table:
    """The practice table; what exists already is left as it is."""
    existing = Table.objects.filter(name=DEMO_TABLE).first()
    if existing is not None:
        return existing
    rng = random.Random(seed)  # noqa: S311 - a demo deal, not a secret
    table = services.table_create(
        by=director, name=DEMO_TABLE, ruleset={"target": 250}, replace_after=60
    )
    services.table_sit(table=table, user=director, seat=0)
    services.table_fill_with_bots(table=table, user=director)
    table.seats.filter(number=0).update(bot=True)  # a computer plays for the director meanwhile
    for _ in range(2):
        services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
        _play_until(table, rng)
    services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    _play_until(table, rng, moves=14)
    table.seats.filter(number=0).update(bot=False)
    table.refresh_from_db()
    return table


def demo_summary() -> dict[str, int]:
    games = Game.objects.filter(online_hands__table__name=DEMO_TABLE).distinct()
    return {
        "online tables": Table.objects.filter(name=DEMO_TABLE).count(),
        "online games finished": games.filter(status=Game.Status.FINISHED).count(),
        "online games in progress": games.filter(status=Game.Status.IN_PROGRESS).count(),
    }
