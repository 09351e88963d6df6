"""Backups of the whole database, restored on a new host (``manage.py backup`` / ``restore``)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring.models import Game, Hand, HandRevision, Player, Team
from tests.tournaments.helpers import tournament_played
from tournaments.models import Entry, Match, MatchGame, Stage, Tournament

ROOT = Path(__file__).resolve().parents[2]

#: table -> the model whose every row a restore must bring back
TABLES = {
    "scoring_player": Player,
    "scoring_team": Team,
    "scoring_game": Game,
    "scoring_hand": Hand,
    "scoring_handrevision": HandRevision,
    "tournaments_tournament": Tournament,
    "tournaments_entry": Entry,
    "tournaments_stage": Stage,
    "tournaments_match": Match,
    "tournaments_matchgame": MatchGame,
}


def _columns(model: Any) -> tuple[str, ...]:
    return {
        Hand: ("id", "game_id", "number", "undone", "version", "running_a", "running_b"),
        HandRevision: ("id", "hand_id", "version", "action", "reason"),
        Game: ("id", "status", "score_a", "score_b", "winner", "version"),
        Match: ("id", "state", "winner_id", "home_games", "away_games"),
    }.get(model, ("id",))


def _rows(model: Any) -> list[tuple[Any, ...]]:
    return list(model.objects.order_by("id").values_list(*_columns(model)))


def _manage(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(  # noqa: S603 - the project's own manage.py
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_every_row_into_a_fresh_database(tmp_path: Path) -> None:
    tournament_played()
    assert HandRevision.objects.filter(action="corrected").exists()
    assert HandRevision.objects.filter(action="undone").exists()
    before = {table: _rows(model) for table, model in TABLES.items()}
    dump = tmp_path / "tarabish.dump"
    call_command("backup", str(dump))
    assert dump.stat().st_size > 0

    db = connection.settings_dict
    fresh = f"{db['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    server: dict[str, Any] = {
        "host": db["HOST"] or None,
        "port": db["PORT"] or None,
        "user": db["USER"] or None,
        "password": db["PASSWORD"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{fresh}"')
    try:
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{fresh}"
        restored = _manage("restore", str(dump), database_url=url)
        assert restored.returncode == 0, restored.stderr
        # A second restore into the same database is refused: it holds the service now.
        again = _manage("restore", str(dump), database_url=url)
        assert again.returncode != 0
        assert "already holds" in again.stderr
        migrated = _manage("migrate", "--check", database_url=url)
        assert migrated.returncode == 0, migrated.stdout + migrated.stderr

        with psycopg.connect(dbname=fresh, **server) as copy:
            for table, model in TABLES.items():
                columns = ", ".join(_columns(model))
                got = copy.execute(f"SELECT {columns} FROM {table} ORDER BY id").fetchall()  # noqa: S608
                assert [tuple(row) for row in got] == before[table], table
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_puts_back_what_was_deleted(tmp_path: Path) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the embedded database's copy; PostgreSQL's is tested above")
    tournament = tournament_played()
    hands = _rows(Hand)
    dump = tmp_path / "tarabish.sqlite3"
    call_command("backup", str(dump))

    Hand.objects.all().delete()  # and their revisions
    Tournament.objects.filter(pk=tournament.pk).update(name="Renamed after the backup")
    with pytest.raises(CommandError, match="already holds"):
        call_command("restore", str(dump))
    call_command("restore", str(dump), "--replace")

    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name
    assert _rows(Hand) == hands
    assert HandRevision.objects.filter(action="corrected").exists()


def test_a_missing_backup_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no backup at"):
        call_command("restore", str(tmp_path / "nothing.dump"))
