"""Who keeps score at a tournament's tables: the keys its table sheets print (a QR code and a
short PIN), and the accounts its directors name its scorekeepers.

A table key is one table of one tournament. Opening it signs the phone in as the key's own
account, which scoring lets keep score in the games of the matches played at that table while
the tournament runs, on its days (see :func:`tournaments.selectors.game_kept_by`), and nothing
else: no rulings, no forfeits, no other table. Issuing a new sheet for a table revokes the key
it replaces and switches its account off, so the old sheet and every phone signed in with it
open nothing from then on.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from tarabish_site.api.errors import Conflict, NotFound
from tournaments.models import TABLE_MAX, TableKey, Tournament
from tournaments.services._common import Actor, invalid, require_director

#: Digits of a table's PIN: a million codes a table, tried at the sign-in rate at most.
PIN_DIGITS = 6


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def _check_table(table: int) -> None:
    if not 1 <= table <= TABLE_MAX:
        raise invalid("table", f"tables are numbered from 1 to {TABLE_MAX}.")


def _new_key(tournament: Tournament, table: int, actor: Actor) -> TableKey:
    token = secrets.token_urlsafe(18)
    pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
    account = get_user_model().objects.create_user(
        username=f"table-{tournament.pk}-{table}-{secrets.token_hex(4)}",
        first_name=f"Table {table}",
        last_name=f"({tournament.name})"[:150],
    )
    issued_by = actor if actor is not None and actor.is_authenticated else None
    return TableKey.objects.create(
        tournament=tournament,
        table=table,
        token=token,
        pin=pin,
        account=account,
        issued_by=issued_by,
    )


def _revoke(key: TableKey) -> None:
    key.revoked_at = timezone.now()
    key.save(update_fields=["revoked_at"])
    account = key.account
    account.is_active = False
    account.save(update_fields=["is_active"])


@transaction.atomic
def table_key_issue(*, tournament_id: int, actor: Actor, table: int) -> TableKey:
    """A new sheet for a table (by a director): a new QR code and PIN; the table's key until
    now is revoked, its account switched off (the old sheet opens nothing)."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    _check_table(table)
    live = TableKey.objects.select_for_update().filter(
        tournament=tournament, table=table, revoked_at=None
    )
    for key in live.select_related("account"):
        _revoke(key)
    return _new_key(tournament, table, actor)


@transaction.atomic
def table_key_for_sheet(*, tournament_id: int, actor: Actor, table: int) -> TableKey:
    """The key a table's sheet prints (for a director): the table's live key, or a first one."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    _check_table(table)
    key = TableKey.objects.filter(tournament=tournament, table=table, revoked_at=None).first()
    return key if key is not None else _new_key(tournament, table, actor)


@transaction.atomic
def table_key_revoke(*, tournament_id: int, actor: Actor, table: int) -> int:
    """Revoke a table's key without a new one (by a director): nobody keeps score there by
    its sheet. The number of keys revoked (0 or 1)."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    live = TableKey.objects.select_for_update().filter(
        tournament=tournament, table=table, revoked_at=None
    )
    keys = list(live.select_related("account"))
    for key in keys:
        _revoke(key)
    return len(keys)


def table_key_refused_why(key: TableKey) -> str:
    """Why a table key opens nothing now, in words for the one holding its sheet, or "" when
    it opens its table: revoked (a new sheet was printed), its tournament finished or past
    its last day."""
    tournament = key.tournament
    if key.revoked_at is not None:
        return (
            f"This sheet of table {key.table} was replaced by a new one: ask the director "
            "for the table's sheet in use."
        )
    if tournament.status == Tournament.Status.FINISHED:
        return f"{tournament.name} is finished: its table sheets open nothing."
    if tournament.ends_on < timezone.localdate():
        return (
            f"{tournament.name} was played until {tournament.ends_on:%Y-%m-%d}: its table "
            "sheets open nothing now."
        )
    return ""


def table_key_open(key: TableKey) -> TableKey:
    """``key``, if it opens its table now; refused (409, ``table_key_closed``) otherwise."""
    why = table_key_refused_why(key)
    if why:
        raise Conflict(why, code="table_key_closed")
    return key


def table_key_by_token(token: str) -> TableKey:
    """The key a QR code carries, as found (refused or not: see :func:`table_key_open`); 404
    for a code that was never issued."""
    key = (
        TableKey.objects.select_related("tournament", "account").filter(token=token).first()
        if token
        else None
    )
    if key is None:
        raise NotFound("This code is not a table sheet's code.")
    return key


def table_key_by_pin(*, tournament: Tournament, table: int | None, pin: str) -> TableKey:
    """The live key of a tournament's table with this PIN; 400 naming the field otherwise
    (the same answer whether the table or the PIN is wrong, so neither is learned alone)."""
    if table is None:
        raise invalid("table", "give the table's number, printed on its sheet.")
    digits = pin.strip()
    if not digits.isdigit():
        raise invalid("pin", "give the PIN printed on the table's sheet (digits).")
    key = (
        TableKey.objects.select_related("tournament", "account")
        .filter(tournament=tournament, table=table, revoked_at=None)
        .first()
    )
    if key is None or not secrets.compare_digest(key.pin, digits):
        raise invalid("pin", f"this is not the PIN of table {table}'s sheet in use.")
    return table_key_open(key)


@transaction.atomic
def tournament_scorekeeper_add(*, tournament_id: int, actor: Actor, username: str) -> Tournament:
    """Name an account a scorekeeper of the tournament (by a director): it keeps score at
    every table while the tournament runs, and directs nothing."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    name = username.strip()
    if not name:
        raise invalid("username", "give the account's user name.")
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if user is None:
        raise invalid("username", f"there is no active account {name!r}.")
    if TableKey.objects.filter(account=user).exists():
        raise invalid("username", f"{name!r} is a table sheet's account, for its table only.")
    tournament.scorekeepers.add(user)
    return tournament


@transaction.atomic
def tournament_scorekeeper_remove(*, tournament_id: int, actor: Actor, user_id: int) -> Tournament:
    """Take an account off the tournament's scorekeepers (by a director)."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    if not tournament.scorekeepers.filter(pk=user_id).exists():
        raise invalid("user", f"account {user_id} is not a scorekeeper of {tournament.name}.")
    tournament.scorekeepers.remove(user_id)
    return tournament
