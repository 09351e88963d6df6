"""Reads of the scoring app, shaped for their callers with a flat number of queries.

* :func:`game_list`: games with their teams and seated players joined, filtered;
  :func:`visible_to` keeps those a user may follow (private games are their scorekeepers').
* :func:`game_detail`: one game with seats, teams, counting hands and their disputes, in a
  constant number of queries whatever the number of hands.
* :func:`game_state`: the plain data a score-pad shows (totals, running score, whose deal,
  who is forced, game over, winner, the ruleset in plain words). No rules of its own: every
  figure is the engine's, stored by the services.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from django.db import connections, router
from django.db.models import Count, Prefetch, Q, QuerySet

from scoring import signals
from scoring.engine import Outcome, forced_call
from scoring.models import Game, Hand, HandRevision, MisplayDispute, Player, Side, Team
from scoring.services import user_can_direct
from scoring.wording import ruleset_lines
from tarabish_site.api.errors import NotFound

G = TypeVar("G", bound=Game)


class GameCounts(TypedDict):
    pending_disputes: int


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from scoring.services import AnyUser

    #: A game from :func:`game_list`, with ``pending_disputes`` annotated.
    ListedGame = WithAnnotations[Game, GameCounts]

GAME_JOINS = (
    "team_a",
    "team_b",
    "seat_0",
    "seat_1",
    "seat_2",
    "seat_3",
)


def player_list(*, search: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(Q(display_name__icontains=search) | Q(community__icontains=search))
    return players


def team_list(*, player: Player | int | None = None, search: str = "") -> QuerySet[Team]:
    teams = Team.objects.select_related("player_one", "player_two")
    if player is not None:
        teams = teams.filter(Q(player_one=player) | Q(player_two=player))
    if search:
        teams = teams.filter(
            Q(name__icontains=search)
            | Q(player_one__display_name__icontains=search)
            | Q(player_two__display_name__icontains=search)
        )
    return teams


def visible_to(games: QuerySet[G], user: AnyUser | None) -> QuerySet[G]:
    """The games of ``games`` that ``user`` may follow (see ``services.user_can_see``): the
    public ones, and the private ones they keep score in, direct or play in; directors of
    every game see every game."""
    if user_can_direct(user):
        return games
    if user is None or not user.is_authenticated:
        return games.filter(public=True)
    keeps = Game.scorekeepers.through.objects.filter(user_id=user.pk).values("game_id")
    visible = Q(public=True) | Q(created_by_id=user.pk) | Q(pk__in=keeps)
    for seat in ("seat_0", "seat_1", "seat_2", "seat_3"):  # the games they play in
        visible |= Q(**{f"{seat}__user_id": user.pk})
    for _receiver, directed in signals.games_directed_by.send(sender=Game, user=user):
        if directed is not None:  # the games another app makes them a director of
            visible |= Q(pk__in=directed)
    return games.filter(visible)


def game_list(
    *,
    status: str | None = None,
    team: Team | int | None = None,
    player: Player | int | None = None,
    date: datetime.date | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> QuerySet[ListedGame]:
    """Games, newest first, with teams and seated players joined and the number of misplay
    disputes waiting for a verdict (``pending_disputes``). Dates are local dates of creation."""
    games = (
        Game.objects.select_related(*GAME_JOINS)
        .annotate(
            pending_disputes=Count(
                "hands__disputes",
                filter=Q(hands__disputes__status=MisplayDispute.Status.PENDING),
            )
        )
        .order_by("-created_at", "-id")
    )
    if status:
        games = games.filter(status=status)
    if team is not None:
        games = games.filter(Q(team_a=team) | Q(team_b=team))
    if player is not None:
        games = games.filter(
            Q(seat_0=player) | Q(seat_1=player) | Q(seat_2=player) | Q(seat_3=player)
        )
    if date is not None:
        games = games.filter(created_at__date=date)
    if date_from is not None:
        games = games.filter(created_at__date__gte=date_from)
    if date_to is not None:
        games = games.filter(created_at__date__lte=date_to)
    return games


#: Every column of a game, in the model's order (as ``Model.from_db`` takes them).
_GAME_FIELDS = Game._meta.concrete_fields
_GAME_NAMES = [field.attname for field in _GAME_FIELDS]
#: The columns whose field converts the value read (``Field.from_db_value``, which Django
#: calls whenever a value is loaded: here the JSON columns, which arrive as text).
_GAME_CONVERTED = [
    (index, field) for index, field in enumerate(_GAME_FIELDS) if hasattr(field, "from_db_value")
]
#: One statement of our own for the game's row, its columns named in the model's order.
_GAME_SELECT = (
    "SELECT "  # noqa: S608 - the model's own column names
    + ", ".join(f'"{field.column}"' for field in _GAME_FIELDS)
    + f' FROM "{Game._meta.db_table}" WHERE "id" = %s'
)


def game_row(game_id: int) -> Game | None:
    """The game's own row, nothing joined (``None`` when there is none): the first read of
    every hand entered.

    One statement of our own rather than a queryset, which compiled the same ``SELECT`` anew
    for every hand (0.4 ms of CPU more). On PostgreSQL the row is made a game by
    :meth:`Model.from_db`, as a query makes it, once the fields that convert what is read
    (``from_db_value``, which Django calls whenever a value is loaded) did so: psycopg gives
    every other column its Python type (aware times, yes/no values, numbers) and the backend
    converts nothing itself. Through ``Game.objects.raw`` the same read cost 1.6M
    instructions against 0.45M, most of it finding again, for every read, the columns of the
    answer and what converts them. Elsewhere (SQLite, whose backend converts times and yes/no
    values itself) the raw query maps and converts the row."""
    alias = router.db_for_read(Game)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return next(iter(Game.objects.raw(_GAME_SELECT, [game_id])), None)
    with connection.cursor() as cursor:
        cursor.execute(_GAME_SELECT, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, field in _GAME_CONVERTED:
        values[index] = field.from_db_value(values[index], None, connection)
    return Game.from_db(alias, _GAME_NAMES, values)


def game_detail(game_id: int) -> Game:
    """One game with everything a score-pad or a page shows, in a constant number of queries.

    ``game.hands.all()`` is the hands that count, in order (undone hands are left out), each
    with ``hand.disputes.all()`` prefetched; ``game.scorekeepers.all()`` is prefetched too.
    """
    hands = (
        Hand.objects.active()
        .order_by("number")
        .prefetch_related(Prefetch("disputes", queryset=MisplayDispute.objects.order_by("pk")))
    )
    game = (
        Game.objects.select_related(*GAME_JOINS, "created_by")
        .prefetch_related(Prefetch("hands", queryset=hands), "scorekeepers")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    return game


def hand_list(*, game: Game | int, include_undone: bool = False) -> QuerySet[Hand]:
    """A game's hands in order (the counting ones unless ``include_undone``)."""
    hands = Hand.objects.filter(game=game).select_related("game")
    if not include_undone:
        hands = hands.active()
    return hands.order_by("number", "id")


def hand_detail(hand_id: int) -> Hand:
    """One hand with its game, its revisions (oldest first; see ``Hand.history``) and its
    disputes."""
    hand = (
        Hand.objects.select_related("game", "created_by")
        .prefetch_related(
            Prefetch(
                "revisions",
                queryset=HandRevision.objects.select_related("changed_by").order_by("version"),
            ),
            Prefetch("disputes", queryset=MisplayDispute.objects.order_by("pk")),
        )
        .filter(pk=hand_id)
        .first()
    )
    if hand is None:
        raise NotFound(f"hand {hand_id} does not exist")
    return hand


def dispute_list(
    *, game: Game | int | None = None, status: str | None = None
) -> QuerySet[MisplayDispute]:
    disputes = MisplayDispute.objects.select_related("hand", "hand__game", "ruled_by")
    if game is not None:
        disputes = disputes.filter(hand__game=game)
    if status:
        disputes = disputes.filter(status=status)
    return disputes.order_by("-created_at", "-id")


def dispute_detail(dispute_id: int) -> MisplayDispute:
    dispute = dispute_list().filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(f"misplay dispute {dispute_id} does not exist")
    return dispute


def _seat(game: Game, seat: int | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    player = game.seats[seat]
    return {
        "seat": seat,
        "side": Side.TEAM_A.value if seat % 2 == 0 else Side.TEAM_B.value,
        "player_id": player.pk,
        "name": player.display_name,
    }


def game_state(game: Game) -> dict[str, Any]:
    """What a score-pad needs, as plain data (no rules of its own on the pad).

    Reads the game's stored figures (the engine's, written by the services) and its counting
    hands (prefetched by :func:`game_detail`, else one query). Seats and players should be
    joined (both selectors here do).
    """
    rules = game.engine_ruleset
    hands = list(game.hands.all()) if _hands_prefetched(game) else list(hand_list(game=game))
    running = [
        {
            "number": h.number,
            "dealer": h.dealer,
            "caller": h.caller,
            "trump": h.trump or None,
            "outcome": h.outcome,
            "outcome_label": Outcome(h.outcome).label,
            "points": {"team_a": h.points_a, "team_b": h.points_b},
            "running": {"team_a": h.running_a, "team_b": h.running_b},
            "version": h.version,
        }
        for h in hands
    ]
    running_game = game.status == Game.Status.IN_PROGRESS
    forced_team = None
    if running_game and game.next_dealer is not None:
        _, team = forced_call(rules, game.next_dealer, (game.score_a, game.score_b))
        forced_team = None if team is None else (Side.TEAM_A, Side.TEAM_B)[team].value
    winner = game.winner or None
    return {
        "game_id": game.pk,
        "version": game.version,
        "status": game.status,
        "status_label": game.get_status_display(),
        "over": game.status != Game.Status.IN_PROGRESS,
        "winner": winner,
        "winning_team": (
            None
            if winner is None
            else {"id": game.team_of_side(winner).pk, "name": str(game.team_of_side(winner))}
        ),
        "ended_reason": game.ended_reason,
        "teams": {
            "team_a": {"id": game.team_a_id, "name": game.team_a.name, "seats": [0, 2]},
            "team_b": {"id": game.team_b_id, "name": game.team_b.name, "seats": [1, 3]},
        },
        "seats": [_seat(game, s) for s in range(4)],
        "totals": {"team_a": game.score_a, "team_b": game.score_b},
        "target": rules.target,
        "hands_played": game.hands_played,
        "totals_only": game.totals_only,
        "hands": running,
        "first_dealer": game.first_dealer,
        "first_dealer_method": game.first_dealer_method,
        "first_dealer_flips": game.first_dealer_flips,
        "next_hand": game.hands_played + 1 if running_game else None,
        "next_dealer": game.next_dealer if running_game else None,
        "forced_seat": game.forced_seat if running_game else None,
        "forced_team": forced_team,
        "ruleset_preset": game.ruleset_preset,
        "ruleset": rules.to_json(),
        "ruleset_described": [{"label": k, "value": v} for k, v in ruleset_lines(rules)],
    }


def _hands_prefetched(game: Game) -> bool:
    cache = getattr(game, "_prefetched_objects_cache", {})
    return "hands" in cache
