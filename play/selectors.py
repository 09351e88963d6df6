"""What one seat (or a spectator) sees of a table: the one JSON shape every connection and
the HTTP fallback send. Cards appear only in the seat's own hand (from the engine's
``view_for``), on the table (played, or shown as runs), or in the flip for jacks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from play.models import OnlineHand, Seat, Table
from play.services import (
    _current_hand,
    _state_of,
    cutter_of,
    kept,
    kept_position,
    seat_waiting,
    table_row,
    table_seats,
)
from scoring import services as scoring
from scoring.engine import HandState, Play, action_to_json
from scoring.models import Game, Hand

#: The fields of a hand view that belong to its seat alone.
_PRIVATE = ("hand", "kitty", "legal_plays")


def _seats(table: Table) -> list[dict[str, Any]]:
    return _seats_shown(table_seats(table))


def _seats_shown(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """The seats as every connection sees them (with their players, read with them)."""
    return [
        {
            "number": s.number,
            "name": None if s.player is None else s.player.display_name,
            "bot": s.bot,
            "away": s.away_since is not None,
            "waiting": seat_waiting(s),
            "you": False,
        }
        for s in seats
    ]


def _game(game: Game) -> dict[str, Any]:
    hands = list(
        Hand.objects.active()
        .filter(game=game)
        .order_by("number")
        .values_list("number", "dealer", "caller", "trump", "outcome", "points_a", "points_b")
    )
    running = [0, 0]
    sheet = []
    for number, dealer, caller, trump, outcome, a, b in hands:
        running = [running[0] + a, running[1] + b]
        sheet.append(
            {
                "number": number,
                "dealer": dealer,
                "caller": caller,
                "trump": trump or None,
                "outcome": outcome,
                "points": [a, b],
                "running": list(running),
            }
        )
    return {
        "id": game.pk,
        "url": f"/games/{game.pk}/",
        "status": game.status,
        "winner": game.winner or None,
        "score": [game.score_a, game.score_b],
        "hands_played": game.hands_played,
        "first_dealer": game.first_dealer,
        "flips": game.first_dealer_flips,
        "sheet": sheet,
        # a game set up elsewhere (a tournament match's), once over: where what follows is
        "owner": None if game.status == Game.Status.IN_PROGRESS else _owner(game),
    }


def _owner(game: Game) -> dict[str, str] | None:
    page = scoring.game_owner_page(game)
    return {"page": page, "next": scoring.game_owner_next(game)} if page else None


def hand_view(state: HandState, seat: int | None) -> dict[str, Any]:
    """The engine's view for ``seat``, or a spectator's (nobody's cards)."""
    view = state.view_for(0 if seat is None else seat).to_json()
    if seat is None:
        view["seat"] = None
        for key in _PRIVATE:
            view[key] = None if key == "kitty" else []
        return view
    view["legal_actions"] = [
        action_to_json(a) for a in state.legal_actions(seat) if not isinstance(a, Play)
    ]
    if state.to_act == seat and state.phase == "playing":
        reasons = {str(c): state.why_illegal(Play(seat, c)) for c in state.held_cards(seat)}
        view["why_not"] = {c: why for c, why in reasons.items() if why is not None}
    else:
        view["why_not"] = {}
    view["last"] = None if state.last is None else action_to_json(state.last)
    return view


@dataclass(frozen=True)
class TableRows:
    """What a table shows, read once for every seat (see :func:`table_rows`)."""

    table: Table
    seats: list[dict[str, Any]]
    game: dict[str, Any] | None
    hand: OnlineHand | None
    state: HandState | None


def table_rows(table: Table | int) -> TableRows:
    """Read a table for :func:`state_for`: a handful of queries, whatever the seats."""
    if not isinstance(table, Table):
        found = table_row(table)
        if found is None:
            raise Table.DoesNotExist(f"table {table} does not exist")
        table = found
    known = kept(table.pk, table.version)  # the hand as a move here left it, if still so
    hand: OnlineHand | None
    state: HandState | None
    if known is not None:
        hand, state = known
    else:
        hand = _current_hand(table)
        state = None if hand is None else _state_of(table, hand)
    return TableRows(
        table=table,
        seats=_seats(table),
        game=None if table.game is None else _game_kept(table.game),
        hand=hand,
        state=state,
    )


#: A game's part of the table's state, by game, with the game's version (and last change)
#: it was read at: it changes only with a hand stored or the game's own change, each of which
#: bumps the version.
_games: dict[int, tuple[tuple[int, Any], dict[str, Any]]] = {}


def _game_known(game: Game) -> dict[str, Any] | None:
    """The game's part as last read here, if the game is still at that version."""
    found = _games.get(game.pk)
    if found is not None and found[0] == (game.version, game.updated_at):
        return found[1]
    return None


def _game_kept(game: Game) -> dict[str, Any]:
    known = _game_known(game)
    if known is not None:
        return known
    key = (game.version, game.updated_at)
    shown = _game(game)
    if len(_games) >= 5000:
        _games.clear()
    _games[game.pk] = (key, shown)
    return shown


def table_rows_kept(pk: int, version: int) -> TableRows | None:
    """The table at ``version`` as a move made in this process left it, without a query (so
    from the event loop too): None when no move here left it at that version, or the game's
    part was not read here at its version yet."""
    pos = kept_position(pk, version)
    if pos is None:
        return None
    table = pos.table
    game = None
    if table.game_id is not None:
        assert table.game is not None  # noqa: S101 - read with the table, under its lock
        game = _game_known(table.game)
        if game is None:
            return None
    return TableRows(
        table=table, seats=_seats_shown(pos.seats), game=game, hand=pos.hand, state=pos.state
    )


def state_for(rows: TableRows, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see of the table read as ``rows``."""
    table, hand, state = rows.table, rows.hand, rows.state
    out: dict[str, Any] = {
        "event": "state",
        "table": table.pk,
        "version": table.version,
        "name": table.name,
        "phase": table.phase,
        "public": table.public,
        "ruleset": table.ruleset_preset,
        "rules": table.ruleset,
        "replace_after": table.replace_after,
        "watching": table.watching,
        "you": seat,
        "seats": [{**s, "you": s["number"] == seat} for s in rows.seats],
        "game": rows.game,
        "hand": None,
    }
    if hand is not None:
        view = None if state is None else hand_view(state, seat)
        if view is not None and seat is None:
            view["last"] = (
                None if state is None or state.last is None else action_to_json(state.last)
            )
        out["hand"] = {
            "number": hand.number,
            "dealer": hand.dealer,
            "cutter": cutter_of(hand.dealer),
            "cut": hand.cut_at,
            "actions": hand.actions_count,
            "view": view,
            "result": None if hand.hand is None else hand.hand.result,
        }
    return out


def table_state(table: Table | int, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see of the table now."""
    return state_for(table_rows(table), seat)
