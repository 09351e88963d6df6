"""Telling a table's connections that it changed: each then reads its own seat's view.

The message carries the table's new version only, never a card: what each connection may
see is read by that connection for its seat (``play.views_json``), so nothing hidden travels
through the channel layer. A table is also a live topic (``/ws/watch/table/<id>/``) for pages
that only want to know it changed, such as the lobby.
"""

from __future__ import annotations

from typing import Any

from tarabish_site import live

TABLE = "table"


def can_watch_table(user: Any, key: str) -> bool:
    from play.models import Table
    from play.services import table_watch

    table = Table.objects.filter(pk=int(key)).first() if key.isdigit() else None
    return table is not None and table_watch(table=table, user=user)


def table_changed(pk: int, version: int) -> None:
    """After the commit: every connection of table ``pk`` reads its view again."""
    live.publish(TABLE, pk, version=version)


def table_watched(pk: int, watching: int) -> None:
    """After the commit: the table's connections show how many people watch it."""
    live.publish(TABLE, pk, watching=watching)


def group(pk: int) -> str:
    return live.group_name(TABLE, pk)
