"""Writes of online play: tables, seats, and every move of a hand, judged by the engine.

A move locks the table row (``select_for_update``), loads the hand's stored position
(``play.snapshot``), asks the engine (``why_illegal``), applies, appends the action to the
hand's log and saves the new position, all in one transaction: two moves racing for one turn
are taken one after the other, and the second is judged against the position the first left
(refused with the engine's reason). A hand that ends is stored as an ordinary scoring hand
(a full trick record through :func:`scoring.services.hand_record`), so the game's totals,
dealer, forced call, end and winner are the scoring app's. After every commit the table's
group is told that it changed (:func:`play.live.table_changed`); each connection then reads
its own seat's view.

Refusals: the engine's :class:`IllegalPlay` (its plain-words reason and code), and the
application errors of :mod:`tarabish_site.api.errors`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from play import action_write, bots, live, snapshot
from play.models import HandAction, OnlineHand, Seat, Spectator, Table
from scoring import selectors as scoring_selectors
from scoring import services as scoring
from scoring.engine import (
    Action,
    Deal,
    EngineError,
    HandLog,
    HandState,
    IllegalPlay,
    Ruleset,
    action_from_json,
    action_to_json,
    cut,
    deal,
    parse_cards,
    shuffled_deck,
)
from scoring.models import Game, Player, Team
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound, ValidationFailed

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser

#: Moves that are not the engine's actions.
TABLE_MOVES = ("start", "cut", "continue")
#: The engine's actions, by their JSON ``type``.
HAND_MOVES = ("pass", "call", "announce_run", "show_run", "bella", "play", "throw_in")


@dataclass(frozen=True)
class Position:
    """A table as read for one move: its seats, its current hand and the engine's state."""

    table: Table
    seats: list[Seat]
    hand: OnlineHand | None
    state: HandState | None


def _required_user(user: AnyUser | None) -> Any:
    if user is None or not user.is_authenticated:
        raise NotAllowed("sign in to take a seat", code="not_signed_in")
    return user


def player_of(user: Any) -> Player:
    """The player a signed-in person plays as: their linked player, made on first need."""
    found = Player.objects.filter(user=user).first()
    if found is not None:
        return found
    name = (user.get_full_name() or user.username).strip()
    taken = Player.objects.filter(display_name__iexact=name, community="").exists()
    community = "online" if taken else ""
    if Player.objects.filter(display_name__iexact=name, community=community).exists():
        name = f"{name} ({user.pk})"
    return Player.objects.create(display_name=name, community=community, user=user)


def bot_player(seat: int) -> Player:
    """The computer player of a seat (one per seat number, so four differ at any table)."""
    player, _ = Player.objects.get_or_create(
        display_name=f"Computer {seat + 1}", community="", user=None
    )
    return player


@transaction.atomic
def table_create(
    *,
    by: AnyUser | None,
    name: str = "",
    ruleset_preset: str | None = None,
    ruleset: Ruleset | Mapping[str, Any] | None = None,
    public: bool = True,
    replace_after: int | None = None,
) -> Table:
    """A new table with four empty seats (the ruleset: a preset by slug, or explicit)."""
    user = _required_user(by)
    from scoring.services.games import _ruleset_choice

    rules, slug = _ruleset_choice(ruleset, ruleset_preset)
    name = (name or "").strip() or f"{user.get_username()}'s table"
    if len(name) > 60:
        message = "a table name is at most 60 characters"
        raise ValidationFailed(message, fields={"name": [message]})
    if replace_after is not None and (
        isinstance(replace_after, bool) or not isinstance(replace_after, int) or replace_after < 5
    ):
        message = "a player is replaced after 5 seconds or more away, or never"
        raise ValidationFailed(message, fields={"replace_after": [message]})
    table = Table.objects.create(
        name=name,
        ruleset=rules.to_json(),
        ruleset_preset=slug,
        public=bool(public),
        replace_after=replace_after,
        created_by=user,
    )
    Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(4)])
    return table


#: The position each table was left in by a move made in this process (the table, its seats
#: with their players, the hand and the engine's state), with the table's version after it.
#: Every change to a table's hand is a move, and every move bumps the version, so while the
#: version read (under the table's lock) is the one kept, the hand row and its snapshot are as
#: kept: the next move of the table here takes them instead of reading the hand and loading
#: its snapshot again, and the connections held here show that version without a query
#: (``play.selectors.table_rows_kept``). A move made by another process moves the version on,
#: and this process reads the table afresh. Kept objects are never changed: a move works on a
#: copy of the hand, and the table kept is a copy of the one the move returns.
_kept: dict[int, tuple[int, Position]] = {}
_KEEP = 5000


def kept_position(pk: int, version: int) -> Position | None:
    """The position kept for table ``pk`` at ``version`` (see ``_kept``), if any."""
    found = _kept.get(pk)
    if found is None or found[0] != version:
        return None
    return found[1]


def kept(pk: int, version: int) -> tuple[OnlineHand, HandState] | None:
    """The hand and position kept for table ``pk`` at ``version`` (see ``_kept``), if any."""
    found = kept_position(pk, version)
    if found is None or found.hand is None or found.state is None:
        return None
    return found.hand, found.state


def _keep(pos: Position, state: HandState) -> None:
    table = copy.copy(pos.table)
    if len(_kept) >= _KEEP and table.pk not in _kept:
        _kept.clear()
    _kept[table.pk] = (table.version, Position(table, pos.seats, pos.hand, state))


def _number(seat: Seat) -> int:
    return seat.number


def table_seats(table: Table | int) -> list[Seat]:
    """The table's four seats in order, each with its player. Sorted here, not by an ORDER
    BY: compiling one costs more than the query."""
    return sorted(Seat.objects.filter(table=table).select_related("player").order_by(), key=_number)


def _table_statement(alias: str, *, lock: bool) -> str:
    """The table's row (locked, or not), with its game's version and time of change (one
    statement of our own: the same ``select_related("game")`` compiled anew for every move
    cost more CPU than the rest of the move's reads)."""
    game = f'g."version" AS "{_GAME_VERSION}", g."updated_at" AS "{_GAME_CHANGED}"'
    tables = f'"{Table._meta.db_table}" t LEFT JOIN "{Game._meta.db_table}" g'
    sql = (
        f"SELECT t.*, {game} FROM {tables} "  # noqa: S608 - the names of our models
        'ON g."id" = t."game_id" WHERE t."id" = %s'
    )
    locks = lock and connections[alias].features.has_select_for_update_of
    return sql + (" FOR UPDATE OF t" if locks else "")


_GAME_VERSION, _GAME_CHANGED = "locked_game_version", "locked_game_updated_at"

#: The game of each table as a move here last read it, by the table's game key, with the
#: game's version and time of change read beside it (as the lock statement gives them). A
#: game changes only by a save that moves its version and time, so while the lock statement
#: reads the same two, the game kept is the row: a move takes a copy instead of reading it.
_games: dict[int, tuple[tuple[Any, Any], Game]] = {}


def _game_at(pk: int, key: tuple[Any, Any]) -> Game:
    found = _games.get(pk)
    if found is not None and found[0] == key:
        return copy.copy(found[1])
    game = scoring_selectors.game_row(pk)
    if game is None:  # deleted since the lock statement read it: as a read of the table would
        raise NotFound(f"game {pk} does not exist")
    if len(_games) >= _KEEP and pk not in _games:
        _games.clear()
    _games[pk] = (key, copy.copy(game))
    return game


def table_row(pk: int, *, lock: bool = False) -> Table | None:
    """Table ``pk`` with its game (None: no such table), the row locked for a move when
    ``lock``: the game as this process last read it while its version and time of change
    are those read with the table (see ``_games``)."""
    alias = router.db_for_write(Table) if lock else router.db_for_read(Table)
    statement = _table_statement(alias, lock=lock)
    found = next(iter(Table.objects.raw(statement, [pk], using=alias)), None)
    if found is None:
        return None
    columns = vars(found)
    key = (columns.pop(_GAME_VERSION), columns.pop(_GAME_CHANGED))
    if found.game_id is not None:
        found.game = _game_at(found.game_id, key)
    return found


def _locked(table: Table | int) -> Position:
    pk = table.pk if isinstance(table, Table) else table
    found = table_row(pk, lock=True)
    if found is None:
        raise NotFound(f"table {pk} does not exist")
    seats = table_seats(found)
    known = kept(pk, found.version)
    if known is not None:
        return Position(found, seats, copy.copy(known[0]), known[1])
    hand = _current_hand(found)
    state = None if hand is None else _state_of(found, hand)
    return Position(found, seats, hand, state)


def _current_hand(table: Table) -> OnlineHand | None:
    if table.game_id is None:
        return None
    return (
        OnlineHand.objects.filter(table=table, game_id=table.game_id)
        .select_related("hand")
        .order_by("-number")
        .first()
    )


def _state_of(table: Table, hand: OnlineHand) -> HandState | None:
    if hand.deal is None or hand.snapshot is None:
        return None
    return snapshot.load(table.engine_ruleset, Deal.from_json(hand.deal), hand.snapshot)


def _changed(table: Table, appended: HandAction | None = None) -> None:
    """Bump the table's version (with the action ``appended`` to its hand's log, written in
    the same statement) and tell its connections after the commit."""
    table.version += 1
    if appended is None:
        table.save(update_fields=action_write.TABLE_FIELDS)
    else:
        action_write.action_append(appended, table)
    live.table_changed(table.pk, table.version)


def _refuse_unless_seating(table: Table) -> None:
    if table.phase not in (Table.Phase.SEATING, Table.Phase.GAME_OVER):
        message = "seats change only between games"
        raise Conflict(message, code="game_running", fields={"seat": [message]})


def _seat_number(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1, 2, 3):
        message = f"a seat is 0 to 3, not {seat!r}"
        raise ValidationFailed(message, fields={"seat": [message]})
    return seat


@transaction.atomic
def table_sit(*, table: Table | int, user: AnyUser | None, seat: int) -> Table:
    """Sit in a free seat (moving from another seat of the same table)."""
    person = _required_user(user)
    number = _seat_number(seat)
    pos = _locked(table)
    _refuse_unless_seating(pos.table)
    chosen = pos.seats[number]
    if chosen.user_id == person.pk:
        return pos.table
    if not chosen.empty:
        message = f"seat {number} is taken"
        raise Conflict(message, code="seat_taken", fields={"seat": [message]})
    for s in pos.seats:
        if s.user_id == person.pk:
            s.player, s.user, s.bot = None, None, False
            s.save()
    chosen.player, chosen.user, chosen.bot, chosen.away_since = (
        player_of(person),
        person,
        False,
        None,
    )
    chosen.save()
    _changed(pos.table)
    return pos.table


@transaction.atomic
def table_stand(*, table: Table | int, user: AnyUser | None) -> Table:
    """Leave one's seat (between games)."""
    person = _required_user(user)
    pos = _locked(table)
    _refuse_unless_seating(pos.table)
    mine = [s for s in pos.seats if s.user_id == person.pk]
    if not mine:
        message = "you do not sit at this table"
        raise ValidationFailed(message, code="not_seated", fields={"seat": [message]})
    for s in mine:
        s.player, s.user, s.bot = None, None, False
        s.save()
    _changed(pos.table)
    return pos.table


@transaction.atomic
def table_fill_with_bots(*, table: Table | int, user: AnyUser | None) -> Table:
    """Computer players take every empty seat (asked by someone seated, or the creator)."""
    person = _required_user(user)
    pos = _locked(table)
    _refuse_unless_seating(pos.table)
    if pos.table.created_by_id != person.pk and all(s.user_id != person.pk for s in pos.seats):
        raise NotAllowed("only the players at a table fill its seats", code="not_seated")
    for s in pos.seats:
        if s.empty:
            s.player, s.bot = bot_player(s.number), True
            s.save()
    _changed(pos.table)
    return pos.table


def table_watch(*, table: Table, user: AnyUser | None, token: str = "") -> bool:
    """Whether ``user`` may watch ``table``; an invite link's token lets a signed-in person in
    for good (a spectator row)."""
    if table.public:
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.created_by_id == user.pk or table.seats.filter(user_id=user.pk).exists():
        return True
    if Spectator.objects.filter(table=table, user_id=user.pk).exists():
        return True
    if token and token == table.invite_token:
        Spectator.objects.get_or_create(table=table, user_id=user.pk)
        return True
    return False


def seat_of(table: Table | int, user: AnyUser | None) -> int | None:
    """The seat ``user`` sits in at ``table`` (None: not seated). A seat kept for their player
    (a match's, set up before the player had an account) becomes theirs here."""
    if user is None or not user.is_authenticated:
        return None
    pk = table.pk if isinstance(table, Table) else table
    found = (
        Seat.objects.filter(table_id=pk, user_id=user.pk).values_list("number", flat=True).first()
    )
    if found is None:  # their player's seat, waiting for them since before they had an account
        waiting = Seat.objects.filter(
            table_id=pk, user__isnull=True, bot=False, player__user_id=user.pk
        )
        if waiting.update(user_id=user.pk):
            found = waiting.model.objects.get(table_id=pk, user_id=user.pk).number
            live.table_changed(pk, _bump(pk))
    return found


def _bump(pk: int) -> int:
    Table.objects.filter(pk=pk).update(version=F("version") + 1)
    return int(Table.objects.values_list("version", flat=True).get(pk=pk))


def _team(one: Player, two: Player) -> Team:
    return scoring.team_find(player_one=one, player_two=two) or scoring.team_create(
        player_one=one, player_two=two
    )


@transaction.atomic
def table_for_game(
    *,
    game: Game,
    by: AnyUser | None,
    name: str = "",
    table: Table | None = None,
) -> Table:
    """A private table for a game already set up elsewhere (a tournament match's): its four
    players in their seats, each played by the account linked to them. ``table``, the table
    of the same match's game before, once that game is over, takes the new game (its people
    stay where they sit); otherwise a new table is opened. The game's first dealer is flipped
    for at the table when it was not entered.

    A seat whose player has no account waits for them: it is theirs once an account is linked
    to the player and they open the table (:func:`seat_of`), unless a director gives it to a
    computer player first (:func:`seat_to_computer`). The game does not start until every
    seat can play."""
    user: Any = by if by is not None and by.is_authenticated else None
    seated = [Seat(number=n, player=p, user_id=p.user_id) for n, p in enumerate(game.seats)]
    if table is not None:
        pos = _locked(table)
        if pos.table.phase not in (Table.Phase.SEATING, Table.Phase.GAME_OVER):
            message = f"table {pos.table.pk} is still playing a game"
            raise Conflict(message, code="game_running", fields={"table": [message]})
        found = pos.table
        for s, new in zip(pos.seats, seated, strict=True):
            s.player, s.user_id, s.bot, s.away_since = new.player, new.user_id, False, None
        Seat.objects.bulk_update(pos.seats, ["player", "user", "bot", "away_since"])
        found.game, found.phase = game, Table.Phase.SEATING
        if name:
            found.name = name[:60]
            found.save(update_fields=["name"])
        _changed(found)
        return found
    found = Table.objects.create(
        name=(name or game.table or f"Game {game.pk}")[:60],
        ruleset=game.ruleset,
        ruleset_preset=game.ruleset_preset,
        public=False,
        created_by=user,
        game=game,
    )
    for s in seated:
        s.table = found
    Seat.objects.bulk_create(seated)
    return found


@transaction.atomic
def seat_to_computer(*, table: Table | int, user: AnyUser | None, seat: int) -> Table:
    """A director of the table's game gives a seat whose player has no account to a computer
    player, which plays for that player from now on (the game stays theirs on the sheet)."""
    person = _required_user(user)
    number = _seat_number(seat)
    pos = _locked(table)
    game = pos.table.game
    if pos.table.created_by_id != person.pk and (
        game is None or not scoring.user_can_direct(person, game)
    ):
        raise NotAllowed("only a director of the table's game gives a seat to a computer")
    chosen = pos.seats[number]
    if chosen.user_id is not None or chosen.empty:
        message = f"seat {number} is played by its own player's account"
        if chosen.empty:
            message = f"seat {number} is empty: anyone may sit there"
        raise Conflict(message, code="seat_playable", fields={"seat": [message]})
    if not chosen.bot:
        chosen.bot = True
        chosen.save(update_fields=["bot"])
        _changed(pos.table)
    return pos.table


def seat_waiting(seat: Seat) -> bool:
    """A seat with a player but nobody to play it: no account sits there, no computer."""
    return not seat.empty and seat.user_id is None and not seat.bot


def _start(pos: Position, rng: random.Random) -> None:
    table, seats = pos.table, pos.seats
    given = table.game
    waiting = [s for s in seats if seat_waiting(s)]
    if waiting:
        names = ", ".join(f"seat {s.number}" for s in waiting)
        message = (
            f"{names} waits for its player to sign in, or for a director to give it to a "
            "computer player"
        )
        raise Conflict(message, code="seat_waiting", fields={"seat": [message]})
    if (
        given is not None
        and given.status == Game.Status.IN_PROGRESS
        and not OnlineHand.objects.filter(game=given).exists()
    ):  # a game set up for this table (a match's): played here from its first hand
        if given.first_dealer is None:
            given = scoring.game_first_dealer_flip(game=given, rng=rng)
        table.game = given
        _new_hand(table, given, rng)
        return
    if given is not None and scoring.game_owner_page(given):
        message = "this table plays the games its match sets up: the next one starts there"
        raise Conflict(message, code="games_set_up_elsewhere", fields={"type": [message]})
    if any(s.empty for s in seats):
        message = "a game starts when all four seats are taken"
        raise Conflict(message, code="seats_empty", fields={"seat": [message]})
    players = [s.player for s in seats]
    assert all(p is not None for p in players)  # noqa: S101 - checked just above
    p = [x for x in players if x is not None]
    game = scoring.game_create(
        team_a=_team(p[0], p[2]),
        team_b=_team(p[1], p[3]),
        seats=p,
        ruleset=table.engine_ruleset,
        ruleset_preset=table.ruleset_preset,
        table=table.name,
        created_by=table.created_by,
        public=table.public,
    )
    game = scoring.game_first_dealer_flip(game=game, rng=rng)
    table.game = game
    _new_hand(table, game, rng)


def _new_hand(table: Table, game: Game, rng: random.Random) -> OnlineHand:
    assert game.next_dealer is not None  # noqa: S101 - a running game has its next dealer
    table.phase = Table.Phase.CUTTING
    return OnlineHand.objects.create(
        table=table,
        game=game,
        number=game.hands_played + 1,
        dealer=game.next_dealer,
        scores=[game.score_a, game.score_b],
        deck=[str(c) for c in shuffled_deck(rng)],
    )


def cutter_of(dealer: int) -> int:
    """The seat that cuts: the player on the dealer's right."""
    return (dealer + 3) % 4


def _cut(pos: Position, seat: int, at: object) -> None:
    hand = pos.hand
    if pos.table.phase != Table.Phase.CUTTING or hand is None:
        raise IllegalPlay("the deck is not waiting to be cut", code="not_cutting", field="cut")
    if seat != cutter_of(hand.dealer):
        raise IllegalPlay(
            f"seat {cutter_of(hand.dealer)}, on the dealer's right, cuts the deck",
            code="out_of_turn",
            field="cut",
        )
    if isinstance(at, bool) or not isinstance(at, int):
        raise IllegalPlay(f"a cut is a whole number, not {at!r}", code="bad_cut", field="cut")
    try:
        deck = cut(parse_cards(" ".join(hand.deck)), at)
    except EngineError as exc:
        raise IllegalPlay(str(exc), code=exc.code, field="cut") from None
    dealt = deal(deck, hand.dealer)
    state = HandState.start(
        pos.table.engine_ruleset, hand.dealer, dealt, (hand.scores[0], hand.scores[1])
    )
    hand.cut_at = at
    hand.deal = dealt.to_json()
    hand.snapshot = snapshot.dump(state)
    hand.save(update_fields=["cut_at", "deal", "snapshot"])
    pos.table.phase = Table.Phase.PLAYING


def _bella_pending(state: HandState) -> bool:
    """The hand is over but the last card's player may still call bella."""
    return state.done and any(bots.urgent(state, s) is not None for s in range(4))


def _act(pos: Position, action: Action) -> tuple[HandState, HandAction | None]:
    """The position after ``action``, and the action's row of the log when it is still to be
    written, with the table's new version (``_changed``); a hand that ends is written here."""
    hand, state = pos.hand, pos.state
    if pos.table.phase != Table.Phase.PLAYING or hand is None or state is None:
        raise IllegalPlay("no hand is being played", code="not_playing", field="action")
    state = state.apply(action)
    row = HandAction(
        online_hand=hand, seq=hand.actions_count, seat=action.seat, action=action_to_json(action)
    )
    hand.actions_count += 1
    hand.snapshot = snapshot.dump(state)
    if state.done and not _bella_pending(state):
        row.save()
        hand.save(update_fields=action_write.HAND_FIELDS)
        _finish(pos, hand, state)
        return state, None
    return state, row


def _finish(pos: Position, hand: OnlineHand, state: HandState) -> None:
    table = pos.table
    assert table.game_id is not None  # noqa: S101 - a hand is played in a game
    stored = scoring.hand_record(
        game=table.game_id, entry_kind="tricks", entry=state.record().to_json()
    )
    hand.hand = stored
    hand.save(update_fields=["hand"])
    game = Game.objects.get(pk=table.game_id)
    table.game = game
    if game.status == Game.Status.IN_PROGRESS:
        table.phase = Table.Phase.HAND_OVER
    else:
        table.phase = Table.Phase.GAME_OVER


def _continue(pos: Position, rng: random.Random) -> None:
    table = pos.table
    if table.phase == Table.Phase.PLAYING and pos.state is not None and pos.hand is not None:
        if not _bella_pending(pos.state):
            raise IllegalPlay("the hand is not over yet", code="hand_not_over", field="action")
        _finish(pos, pos.hand, pos.state)
        return
    if table.phase == Table.Phase.HAND_OVER and table.game is not None:
        _new_hand(table, table.game, rng)
        return
    raise IllegalPlay("there is nothing to go on to", code="nothing_next", field="action")


def move(
    *,
    table: Table | int,
    seat: int,
    data: Mapping[str, Any],
    rng: random.Random | None = None,
    by_computer: bool = False,
) -> Table:
    """Take one move for ``seat`` (the caller decides who sits there): ``data`` is
    ``{"type": ...}`` with the engine's action fields (``card``, ``trump``, ``cards``), or
    ``start`` (flip for jacks, first deal), ``cut`` (``at``), ``continue`` (the next hand, or
    the end of a hand without bella). Raises :class:`IllegalPlay` with the engine's reason."""
    with transaction.atomic():
        return _move(_locked(table), seat, data, rng, by_computer=by_computer)


def _move(
    pos: Position,
    seat: int,
    data: Mapping[str, Any],
    rng: random.Random | None,
    *,
    by_computer: bool,
) -> Table:
    """:func:`move` at ``pos``, the table locked and read in the current transaction."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind not in TABLE_MOVES + HAND_MOVES:
        names = ", ".join(TABLE_MOVES + HAND_MOVES)
        raise IllegalPlay(
            f"{kind!r} is not a move: use one of {names}", code="bad_move", field="type"
        )
    given = data.get("seat", seat)
    if given != seat:
        raise IllegalPlay(
            f"you sit in seat {seat} and act for it only", code="not_your_seat", field="seat"
        )
    action = action_from_json({**data, "seat": seat}) if kind in HAND_MOVES else None
    rng = rng or random.SystemRandom()
    after: HandState | None = None
    appended: HandAction | None = None
    if kind == "start":
        if pos.table.phase not in (Table.Phase.SEATING, Table.Phase.GAME_OVER):
            raise IllegalPlay("a game is being played", code="game_running", field="type")
        _start(pos, rng)
    elif kind == "cut":
        _cut(pos, seat, data.get("at"))
    elif kind == "continue":
        _continue(pos, rng)
    else:
        assert action is not None  # noqa: S101 - every hand move reads as an action
        after, appended = _act(pos, action)
    seated = pos.seats[seat]
    if not by_computer and seated.away_since is not None:
        seated.away_since = None
        seated.save(update_fields=["away_since"])
    if after is not None and pos.hand is not None and pos.table.phase == Table.Phase.PLAYING:
        # kept before the table's connections hear of the new version (the callbacks run in
        # order, and _changed's is next): those held here find it kept
        transaction.on_commit(lambda: _keep(pos, after))
    _changed(pos.table, appended)
    return pos.table


def _computer_seats(pos: Position, now: datetime) -> set[int]:
    """Seats a computer plays for now: its own, and people away longer than the table allows."""
    after = pos.table.replace_after
    out = set()
    for s in pos.seats:
        if s.bot or (
            after is not None
            and s.away_since is not None
            and (now - s.away_since).total_seconds() >= after
        ):
            out.add(s.number)
    return out


def bella_owed(state: HandState | None, computers: set[int]) -> bool:
    """A person (not a computer) may call bella now: it is called right after the card, so
    the computers hold their next move for a while (``PLAY_BELLA_WAIT``)."""
    return state is not None and any(
        bots.urgent(state, s) is not None for s in range(4) if s not in computers
    )


def _computer_move(pos: Position, now: datetime, rng: random.Random) -> tuple[int, dict[str, Any]]:
    computers = _computer_seats(pos, now)
    table, state, hand = pos.table, pos.state, pos.hand
    waited = (now - table.updated_at).total_seconds()
    if waited < settings.PLAY_BELLA_WAIT and bella_owed(state, computers):
        return -1, {}
    if table.phase == Table.Phase.CUTTING and hand is not None:
        seat = cutter_of(hand.dealer)
        if seat in computers:
            return seat, {"type": "cut", "at": rng.randint(4, 32)}
    if table.phase == Table.Phase.HAND_OVER and len(computers) == 4:
        return 0, {"type": "continue"}
    if table.phase == Table.Phase.PLAYING and state is not None:
        for seat in sorted(computers):
            urgent = bots.urgent(state, seat)
            if urgent is not None:
                return seat, action_to_json(urgent)
        seat_to_act = state.to_act
        if seat_to_act is not None and seat_to_act in computers:
            chosen = bots.choose(state, seat_to_act)
            if chosen is not None:
                return seat_to_act, action_to_json(chosen)
    return -1, {}


def computer_move(
    *,
    table: Table | int,
    version: int | None = None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> bool:
    """Make the one move a computer player owes at the table now, if any (and if the table is
    still at ``version``). True when a move was made. Computer players only ever play what
    the engine allows; the one who cuts cuts at a random place."""
    now = now or timezone.now()
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        pos = _locked(table)
        if version is not None and pos.table.version != version:
            return False
        seat, data = _computer_move(pos, now, rng)
        if seat < 0:
            return False
        _move(pos, seat, data, rng, by_computer=True)
        return True


def computer_moves_due(*, table: Table) -> int:
    """Make every move the computer players owe at ``table`` whose pause is over (one, unless
    the pause is nothing), as an open socket would, for a client that polls; ``table`` is
    read again after each. The number of moves made."""
    low, _ = settings.PLAY_COMPUTER_DELAY
    made = 0
    while made < 40 and timezone.now() - table.updated_at >= timedelta(seconds=low):
        if not computer_move(table=table, version=table.version):
            break
        made += 1
        table.refresh_from_db()
    return made


def seat_away(*, table: Table | int, seat: int, away: bool) -> None:
    """Note that the person in ``seat`` left (or came back): gone long enough, a computer
    plays for them (when the table says so)."""
    pk = table.pk if isinstance(table, Table) else table
    Seat.objects.filter(table_id=pk, number=seat, bot=False).update(
        away_since=timezone.now() if away else None
    )


def table_watched(*, table: int, by: int) -> None:
    """A spectator's connection opened (``by`` 1) or closed (-1): the table's count of
    watchers moves, and everyone at the table is told the count (the table's version, and so
    every view, stays as it is)."""
    Table.objects.filter(pk=table).update(watching=Greatest(F("watching") + by, 0))
    count = Table.objects.filter(pk=table).values_list("watching", flat=True).first()
    if count is not None:
        live.table_watched(table, count)


def hand_replayed(hand: OnlineHand) -> HandState:
    """The hand's position rebuilt from its log alone (the truth the snapshot must match)."""
    return HandLog(
        Ruleset.from_json(hand.table.ruleset),
        hand.dealer,
        Deal.from_json(hand.deal),
        tuple(action_from_json(a.action) for a in hand.actions.order_by("seq")),
        (hand.scores[0], hand.scores[1]),
    ).final()


def hand_stored_state(hand: OnlineHand) -> HandState | None:
    """The hand's position as its snapshot stores it."""
    return _state_of(hand.table, hand)


__all__ = [
    "HAND_MOVES",
    "TABLE_MOVES",
    "Position",
    "bella_owed",
    "bot_player",
    "computer_move",
    "computer_moves_due",
    "cutter_of",
    "hand_replayed",
    "hand_stored_state",
    "kept_position",
    "move",
    "player_of",
    "seat_away",
    "seat_of",
    "seat_to_computer",
    "seat_waiting",
    "table_create",
    "table_fill_with_bots",
    "table_for_game",
    "table_row",
    "table_seats",
    "table_sit",
    "table_stand",
    "table_watch",
    "table_watched",
]
