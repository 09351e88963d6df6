"""Writers at the same moment on the embedded SQLite file (``make run``): the development
server answers each request in a thread of its own, and a director's undo must not fail
because a scorekeeper at another table wrote at the same moment.

Run in a process of its own, on a database file of its own: the suite's test database is
SQLite in memory, whose locking is not the file's."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WRITERS = """
import random, threading
import django
from django.conf import settings

class NoMigrations(dict):  # the tables made from the models, as make test's (--nomigrations)
    def __contains__(self, app):
        return True
    def __getitem__(self, app):
        return None

settings.MIGRATION_MODULES = NoMigrations()
django.setup()
from django.core.management import call_command
from django.db import connection
from scoring import services
from scoring.engine import preset, simulate_game
from scoring.models import Game, Player

call_command("migrate", run_syncdb=True, verbosity=0)
rules, rng = preset("cape-breton-standard"), random.Random(7)
games = []
for n in range(6):
    seats = [Player.objects.create(display_name=f"P{n}{s}") for s in range(4)]
    one = services.team_create(player_one=seats[0], player_two=seats[2])
    two = services.team_create(player_one=seats[1], player_two=seats[3])
    played = simulate_game(rules, rng)
    game = services.game_create(
        team_a=one, team_b=two, seats=seats, ruleset=rules, first_dealer=played.first_dealer
    )
    for number, hand in enumerate(played.hands[:3], start=1):
        entry = hand.summary.to_json()
        entry.pop("dealer")
        services.hand_record(game=game.pk, entry_kind="summary", entry=entry, number=number)
    games.append(game.pk)
connection.close()
failures = []

def undo_all(pk):
    try:
        for _ in range(3):
            services.hand_undo_last(game=Game.objects.get(pk=pk), reason="wrong game")
    except Exception as error:
        failures.append(repr(error))
    finally:
        connection.close()

threads = [threading.Thread(target=undo_all, args=(pk,)) for pk in games]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(failures or "ok")
"""


def test_undos_on_six_games_at_once_all_go_through(tmp_path: Path) -> None:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("CELERY_BROKER_URL", "REDIS_URL", "TARABISH_TEST_SERVICES")
    }
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'tarabish.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "tarabish_site.settings",
        "TARABISH_ENV": "development",
    }
    done = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, "-c", WRITERS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok", done.stdout[-2000:]
