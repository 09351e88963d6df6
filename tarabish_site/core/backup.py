"""Backups of the whole database, and their restore on a new host.

PostgreSQL is dumped with ``pg_dump`` in its custom format (compressed, restored table by table
by ``pg_restore``), with no owners or grants, so the dump restores into a database owned by
whichever role the new host uses. A SQLite database (the embedded default) is copied with
SQLite's online backup, which is consistent while the service writes.

A restore goes into the database ``DATABASE_URL`` names, in one transaction: it lands whole or
not at all. It refuses a database that already holds the service's tables unless told to
replace them, so a backup is never restored over live data by mistake. After a restore,
``manage.py migrate`` brings the schema up to the code's (a backup from an older release).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connection


class BackupError(Exception):
    """A backup or a restore could not be done; the message says why."""


def _postgres_environment(settings: dict[str, Any]) -> dict[str, str]:
    """The connection for the PostgreSQL tools, in their own environment variables (the
    password never on a command line, where other users of the host could read it)."""
    env = dict(os.environ)
    for variable, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
        ("PGDATABASE", "NAME"),
    ):
        value = settings.get(key)
        if value:
            env[variable] = str(value)
        else:
            env.pop(variable, None)
    return env


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client tools "
            f"(Debian: apt-get install postgresql-client)"
        )
    return path


def _run(command: list[str], env: dict[str, str]) -> None:
    finished = subprocess.run(  # noqa: S603 - a fixed tool, arguments from settings
        command, env=env, capture_output=True, text=True, check=False
    )
    if finished.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {finished.stderr.strip()}")


def backup_database(target: Path) -> Path:
    """Write a backup of the default database to ``target`` and return it."""
    settings = connection.settings_dict
    target.parent.mkdir(parents=True, exist_ok=True)
    if connection.vendor == "postgresql":
        command = [
            _tool("pg_dump"),
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            f"--file={target}",
        ]
        _run(command, _postgres_environment(settings))
    elif connection.vendor == "sqlite":
        source = sqlite3.connect(settings["NAME"])
        copy = sqlite3.connect(target)
        try:
            with copy:
                source.backup(copy)
        finally:
            copy.close()
            source.close()
    else:
        raise BackupError(f"no backup for a {connection.vendor} database")
    return target


def database_holds_service() -> bool:
    """Whether the default database already holds the service's tables (any table of an
    installed model: a migrated database has them all, as has one whose tables were made from
    the models)."""
    return bool(connection.introspection.django_table_names(only_existing=True))


def restore_database(source: Path, *, replace: bool = False) -> None:
    """Restore the backup ``source`` into the default database.

    Refuses a database that already holds the service unless ``replace``: then what it holds
    is dropped and replaced by the backup, in the same transaction as the restore.
    """
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    if database_holds_service() and not replace:
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} already holds the service's "
            "tables: restore into an empty database, or pass --replace to drop what it holds"
        )
    settings = connection.settings_dict
    connection.close()
    if connection.vendor == "postgresql":
        command = [
            _tool("pg_restore"),
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={settings['NAME']}",
        ]
        if replace:
            command += ["--clean", "--if-exists"]
        _run([*command, str(source)], _postgres_environment(settings))
    elif connection.vendor == "sqlite":
        backup = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        live = sqlite3.connect(settings["NAME"])
        try:
            backup.execute("PRAGMA quick_check")
            with live:
                backup.backup(live)
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{source} is not a SQLite backup: {exc}") from exc
        finally:
            live.close()
            backup.close()
    else:
        raise BackupError(f"no restore for a {connection.vendor} database")
