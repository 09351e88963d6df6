"""A tournament as data: one JSON document that holds all of it, and CSV tables of its
standings, matches and hands for spreadsheets.

The CSV tables name each team by its name as entered (``team``, ``home``, ``team_a``...) and,
in a column of its own at the end of the row (``display_name``, ``home_display_name``,
``team_a_display_name``...), by the name the tournament's pages show: the same, except where
teams of one name are told apart by their community or a number
(:func:`tournaments.selectors.names_told_apart`).

The document (``FORMAT``, version ``VERSION``) is what :func:`tournaments.services.transfer.
tournament_import` reads back, in this installation or another. Rows refer to each other by
``key`` (the row's id here), never by an id the other installation would have to share:
teams name their players' keys, entries their team's, matches their entries', games their
teams' and seats' players. Players are matched by name and community where it is read back.

Shape (version 1)::

    {"format": "tarabish-tournament", "version": 1, "exported_at": "...",
     "tournament": {name, slug, venue, starts_on, ends_on, ruleset_preset, ruleset,
                    match_format, match_games, status, public, substitutes_allowed,
                    seed_by_rating, check_in_required, entry_cap,
                    quick_results_by_scorekeepers, results_confirmed_by_both,
                    self_registration, registration_opens_at, registration_closes_at,
                    finished_at},   # those after seed_by_rating: optional when read
     "history": [{kind, reason, at}],   # each time it was finished or reopened; optional
                                        # when read
     "players": [{key, display_name, community}],
     "teams": [{key, name, players: [player key, player key]}],
     "entries": [{key, team, seed, status, checked_in, checked_in_at, withdrawn_at,
                  withdrawal_note, substitutes: [player key...], final_place,
                  registered_at}],   # registered_at: optional when read; the order of
                                     # registration numbers teams of one name and orders
                                     # the waiting list (status "waiting")
     "stages": [{key, order, name, kind, status, pool_count, legs, swiss_rounds, swiss_pairing,
                 third_place, grand_final, qualifiers_per_pool, tiebreakers, match_format,
                 match_games,
                 started_at, finished_at,
                 pools: [{key, number, name}],
                 stage_entries: [{entry, pool, seed}],
                 rounds: [{key, side, number, name}],
                 matches: [{key, round, pool, number, bracket_key, home, away, home_source,
                            away_source, table, format, games_planned, state, bye, forfeit,
                            winner, home_games, away_games, home_points, away_points,
                            home_baits, away_baits, held_reason, started_at, finished_at,
                            feeds,   # optional when read: a bracket's slots each result fills
                            games: [{number, game, discarded, discarded_reason}]}],
                 standings: [...]}],   # derived: written for readers, recomputed on import
     "games": [{key, team_a, team_b, seats: [4 player keys], table, public, ruleset,
                ruleset_preset, first_dealer, first_dealer_method, first_dealer_flips, status,
                winner, ended_reason, totals_only, score_a, score_b, hands_played, next_dealer,
                forced_seat, version, created_at, finished_at,
                totals_revisions: [{score_a, score_b, winner, reason, changed_at}],  # the
                    # totals a quick result had before each correction; optional when read
                hands: [{number, undone, version, entry_kind, entry, dealer, caller, trump,
                         outcome, points_a, points_b, card_points_a, card_points_b,
                         run_points_a, run_points_b, bella_points_a, bella_points_b,
                         runs_counted_by, bella_seat, hand_total, result, running_a, running_b,
                         created_at,
                         revisions: [{version, action, entry_kind, entry, result, reason,
                                      changed_at}]}]}]}

Every field of these rows is either written or named in ``LEFT_OUT`` with the reason.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Count, Model, Prefetch, Q
from django.utils import timezone

from scoring.models import Game, Hand, HandRevision, Player, Team, TotalsRevision
from tournaments.models import (
    STANDING_FIELDS,
    Entry,
    Match,
    MatchGame,
    Pool,
    Round,
    Stage,
    StageEntry,
    Standing,
    Tournament,
    TournamentEvent,
)
from tournaments.selectors import entry_display_names, team_display_names

FORMAT = "tarabish-tournament"
VERSION = 1

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "starts_on",
    "ends_on",
    "ruleset_preset",
    "ruleset",
    "match_format",
    "match_games",
    "status",
    "public",
    "substitutes_allowed",
    "seed_by_rating",
    "check_in_required",
    "entry_cap",
    "quick_results_by_scorekeepers",
    "results_confirmed_by_both",
    "self_registration",
    "registration_opens_at",
    "registration_closes_at",
    "finished_at",
)
ENTRY_FIELDS = (
    "seed",
    "status",
    "checked_in",
    "checked_in_at",
    "withdrawn_at",
    "withdrawal_note",
    "final_place",
)
STAGE_FIELDS = (
    "order",
    "name",
    "kind",
    "status",
    "pool_count",
    "legs",
    "swiss_rounds",
    "swiss_pairing",
    "third_place",
    "grand_final",
    "qualifiers_per_pool",
    "tiebreakers",
    "match_format",
    "match_games",
    "started_at",
    "finished_at",
)
POOL_FIELDS = ("number", "name")
ROUND_FIELDS = ("side", "number", "name")
MATCH_FIELDS = (
    "number",
    "home_source",
    "away_source",
    "table",
    "format",
    "games_planned",
    "state",
    "bye",
    "forfeit",
    "home_games",
    "away_games",
    "home_points",
    "away_points",
    "home_baits",
    "away_baits",
    "held_reason",
    "started_at",
    "finished_at",
    "feeds",
)
MATCH_GAME_FIELDS = ("number", "discarded", "discarded_reason")
GAME_FIELDS = (
    "table",
    "public",
    "ruleset",
    "ruleset_preset",
    "first_dealer",
    "first_dealer_method",
    "first_dealer_flips",
    "status",
    "winner",
    "ended_reason",
    "totals_only",
    "score_a",
    "score_b",
    "hands_played",
    "next_dealer",
    "forced_seat",
    "version",
    "created_at",
    "finished_at",
)
HAND_FIELDS = (
    "number",
    "undone",
    "version",
    "entry_kind",
    "entry",
    "dealer",
    "caller",
    "trump",
    "outcome",
    "points_a",
    "points_b",
    "card_points_a",
    "card_points_b",
    "run_points_a",
    "run_points_b",
    "bella_points_a",
    "bella_points_b",
    "runs_counted_by",
    "bella_seat",
    "hand_total",
    "result",
    "running_a",
    "running_b",
    "created_at",
)
REVISION_FIELDS = ("version", "action", "entry_kind", "entry", "result", "reason", "changed_at")
TOTALS_REVISION_FIELDS = ("score_a", "score_b", "winner", "reason", "changed_at")
EVENT_FIELDS = ("kind", "reason", "at")

_KEY = "rows are named by key, never by this installation's ids"
_PARENT = "the row is written inside the row it belongs to"
_BY_KEY = "written as the key of the row it names"
_ACCOUNTS = "accounts are not carried over: the importing account organises and directs"
_BY = "accounts are not carried over"
_SET_HERE = "set as the row is made or changed here"
_RECOMPUTED = "standings are recomputed on import"

# The fields of the rows the document holds that it does not write as they are, and why.
LEFT_OUT: dict[type[Model], dict[str, str]] = {
    Tournament: {
        "id": _KEY,
        "organiser": _ACCOUNTS,
        "directors": _ACCOUNTS,
        "scorekeepers": _ACCOUNTS,
        "version": _SET_HERE,
        "created_at": _SET_HERE,
        "updated_at": _SET_HERE,
    },
    Entry: {
        "id": _KEY,
        "tournament": _PARENT,
        "team": _BY_KEY,
        "substitutes": "written as the keys of the players",
        "registered_at": "written after the fields, optional when read",
        "version": _SET_HERE,
    },
    Stage: {
        "id": _KEY,
        "tournament": _PARENT,
        "standings_dirty": _RECOMPUTED,
        "standings_computed_at": _RECOMPUTED,
        "version": _SET_HERE,
    },
    Pool: {"id": _KEY, "stage": _PARENT},
    Round: {"id": _KEY, "stage": _PARENT},
    StageEntry: {"id": _KEY, "stage": _PARENT, "entry": _BY_KEY, "pool": _BY_KEY},
    Match: {
        "id": _KEY,
        "stage": _PARENT,
        "round": _BY_KEY,
        "pool": _BY_KEY,
        "key": "written as bracket_key (key names the row in the document)",
        "home": _BY_KEY,
        "away": _BY_KEY,
        "winner": _BY_KEY,
        "version": _SET_HERE,
    },
    MatchGame: {"id": _KEY, "match": _PARENT, "game": _BY_KEY, "created_at": _SET_HERE},
    Game: {
        "id": _KEY,
        "team_a": _BY_KEY,
        "team_b": _BY_KEY,
        "seat_0": "written in seats, as a player's key",
        "seat_1": "written in seats, as a player's key",
        "seat_2": "written in seats, as a player's key",
        "seat_3": "written in seats, as a player's key",
        "created_by": _BY,
        "scorekeepers": _BY,
        "updated_at": _SET_HERE,
    },
    Hand: {"id": _KEY, "game": _PARENT, "created_by": _BY, "updated_at": _SET_HERE},
    HandRevision: {"id": _KEY, "hand": _PARENT, "changed_by": _BY},
    TotalsRevision: {"id": _KEY, "game": _PARENT, "changed_by": _BY},
    TournamentEvent: {"id": _KEY, "tournament": _PARENT, "by": _BY},
}


def _value(value: Any) -> Any:
    """Times and dates as ISO 8601 text, to the microsecond (a JSON encoder would cut times to
    the millisecond, and a time read back would no longer be the time written); times in UTC,
    as the database gives them, whatever zone a row just made holds them in."""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):  # datetime too
        return value.isoformat()
    return value


def _values(row: Model, fields: Iterable[str]) -> dict[str, Any]:
    return {name: _value(getattr(row, name)) for name in fields}


def tournament_games(tournament: Tournament) -> list[Game]:
    """Every game played in the tournament's matches (those set aside too), with their hands
    and revisions, in a fixed number of queries."""
    return list(
        Game.objects.filter(match_link__match__stage__tournament=tournament)
        .order_by("pk")
        .prefetch_related(
            Prefetch(
                "hands",
                queryset=Hand.objects.order_by("number", "pk").prefetch_related(
                    Prefetch("revisions", queryset=HandRevision.objects.order_by("version"))
                ),
            ),
            Prefetch(
                "totals_revisions", queryset=TotalsRevision.objects.order_by("changed_at", "pk")
            ),
        )
    )


def tournament_document(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-ready document (see the module's docstring)."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("team")
        .prefetch_related("substitutes")
        .order_by("seed", "pk")
    )
    stages = list(
        Stage.objects.filter(tournament=tournament)
        .order_by("order")
        .prefetch_related(
            Prefetch("pools", queryset=Pool.objects.order_by("number")),
            Prefetch("stage_entries", queryset=StageEntry.objects.order_by("seed")),
            Prefetch("rounds", queryset=Round.objects.order_by("pk")),
            Prefetch(
                "matches",
                queryset=Match.objects.order_by("round_id", "number").prefetch_related(
                    Prefetch("match_games", queryset=MatchGame.objects.order_by("number"))
                ),
            ),
            Prefetch("standings", queryset=Standing.objects.order_by("pool_id", "place", "seed")),
        )
    )
    games = tournament_games(tournament)
    team_ids = {entry.team_id for entry in entries} | {
        team for game in games for team in (game.team_a_id, game.team_b_id)
    }
    teams = list(Team.objects.filter(pk__in=team_ids).order_by("pk"))
    player_ids = (
        {p for team in teams for p in (team.player_one_id, team.player_two_id)}
        | {p for game in games for p in game.seat_ids}
        | {player.pk for entry in entries for player in entry.substitutes.all()}
    )
    players = Player.objects.filter(pk__in=player_ids).order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": _values(tournament, TOURNAMENT_FIELDS),
        "history": [
            _values(event, EVENT_FIELDS)
            for event in TournamentEvent.objects.filter(tournament=tournament).order_by("at", "pk")
        ],
        "players": [
            {"key": p.pk, "display_name": p.display_name, "community": p.community} for p in players
        ],
        "teams": [
            {"key": t.pk, "name": t.name, "players": [t.player_one_id, t.player_two_id]}
            for t in teams
        ],
        "entries": [
            {
                "key": entry.pk,
                "team": entry.team_id,
                **_values(entry, ENTRY_FIELDS),
                "substitutes": sorted(player.pk for player in entry.substitutes.all()),
                "registered_at": _value(entry.registered_at),
            }
            for entry in entries
        ],
        "stages": [_stage(stage) for stage in stages],
        "games": [_game(game) for game in games],
    }


def _stage(stage: Stage) -> dict[str, Any]:
    return {
        "key": stage.pk,
        **_values(stage, STAGE_FIELDS),
        "pools": [{"key": pool.pk, **_values(pool, POOL_FIELDS)} for pool in stage.pools.all()],
        "stage_entries": [
            {"entry": se.entry_id, "pool": se.pool_id, "seed": se.seed}
            for se in stage.stage_entries.all()
        ],
        "rounds": [{"key": r.pk, **_values(r, ROUND_FIELDS)} for r in stage.rounds.all()],
        "matches": [
            {
                "key": match.pk,
                "round": match.round_id,
                "pool": match.pool_id,
                "bracket_key": match.key,
                "home": match.home_id,
                "away": match.away_id,
                "winner": match.winner_id,
                **_values(match, MATCH_FIELDS),
                "games": [
                    {"game": link.game_id, **_values(link, MATCH_GAME_FIELDS)}
                    for link in match.match_games.all()
                ],
            }
            for match in stage.matches.all()
        ],
        "standings": [
            {"entry": row.entry_id, "pool": row.pool_id, **_values(row, STANDING_FIELDS[1:])}
            for row in stage.standings.all()
        ],
    }


def _game(game: Game) -> dict[str, Any]:
    return {
        "key": game.pk,
        "team_a": game.team_a_id,
        "team_b": game.team_b_id,
        "seats": list(game.seat_ids),
        **_values(game, GAME_FIELDS),
        "totals_revisions": [
            _values(r, TOTALS_REVISION_FIELDS) for r in game.totals_revisions.all()
        ],
        "hands": [
            {
                **_values(hand, HAND_FIELDS),
                "revisions": [_values(r, REVISION_FIELDS) for r in hand.revisions.all()],
            }
            for hand in game.hands.all()
        ],
    }


# ------------------------------------------------------------------------------------ CSV
def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def standings_csv(tournament: Tournament) -> str:
    """Every stage's standings, a row per entry (per pool where the stage has pools)."""
    rows = (
        Standing.objects.filter(stage__tournament=tournament)
        .select_related("stage", "pool", "entry__team")
        .order_by("stage__order", "pool__number", "place", "seed")
    )
    counted = STANDING_FIELDS[1:]  # after the pool
    shown = entry_display_names(tournament)
    return _csv(
        ["stage", "pool", "team", *counted, "display_name"],
        (
            [
                row.stage.name,
                row.pool.name if row.pool else "",
                row.entry.team.name,
                *(getattr(row, name) for name in counted),
                shown.get(row.entry_id, row.entry.team.name),
            ]
            for row in rows
        ),
    )


def matches_csv(tournament: Tournament) -> str:
    """Every match, in the order it is played: its round, teams, result and state, and how
    many of its counted games were recorded by their totals only (played on paper)."""
    matches = (
        Match.objects.filter(stage__tournament=tournament)
        .select_related("stage", "round", "pool", "home__team", "away__team", "winner__team")
        .annotate(
            totals_only_games=Count(
                "match_games",
                filter=Q(match_games__discarded=False, match_games__game__totals_only=True),
            )
        )
        .order_by("stage__order", "round_id", "number")
    )
    shown = entry_display_names(tournament)

    def named(entry: Entry | None) -> tuple[str, str]:
        if entry is None:
            return "", ""
        return entry.team.name, shown.get(entry.pk, entry.team.name)

    return _csv(
        [
            "match",
            "stage",
            "round",
            "pool",
            "bracket_key",
            "table",
            "home",
            "away",
            "state",
            "winner",
            "home_games",
            "away_games",
            "home_points",
            "away_points",
            "bye",
            "forfeit",
            "totals_only_games",
            "finished_at",
            "home_display_name",
            "away_display_name",
            "winner_display_name",
        ],
        (
            [
                m.pk,
                m.stage.name,
                m.round.name,
                m.pool.name if m.pool else "",
                m.key,
                m.table,
                named(m.home)[0],
                named(None if m.bye else m.away)[0],
                m.state,
                named(m.winner)[0],
                m.home_games,
                m.away_games,
                m.home_points,
                m.away_points,
                m.bye,
                m.forfeit,
                m.totals_only_games,
                m.finished_at.isoformat() if m.finished_at else "",
                named(m.home)[1],
                named(None if m.bye else m.away)[1],
                named(m.winner)[1],
            ]
            for m in matches
        ),
    )


def hands_csv(tournament: Tournament) -> str:
    """Every hand of every game of the tournament's matches, as the score sheet has it."""
    hands = (
        Hand.objects.filter(game__match_link__match__stage__tournament=tournament)
        .select_related("game__team_a", "game__team_b", "game__match_link")
        .order_by("game__match_link__match_id", "game__match_link__number", "number", "pk")
    )
    shown = team_display_names(tournament)
    return _csv(
        [
            "match",
            "game_in_match",
            "game",
            "team_a",
            "team_b",
            "hand",
            "undone",
            "dealer",
            "caller",
            "trump",
            "outcome",
            "card_points_a",
            "card_points_b",
            "run_points_a",
            "run_points_b",
            "bella_points_a",
            "bella_points_b",
            "points_a",
            "points_b",
            "running_a",
            "running_b",
            "team_a_display_name",
            "team_b_display_name",
        ],
        (
            [
                h.game.match_link.match_id,
                h.game.match_link.number,
                h.game_id,
                h.game.team_a.name,
                h.game.team_b.name,
                h.number,
                h.undone,
                h.dealer,
                h.caller,
                h.trump,
                h.outcome,
                h.card_points_a,
                h.card_points_b,
                h.run_points_a,
                h.run_points_b,
                h.bella_points_a,
                h.bella_points_b,
                h.points_a,
                h.points_b,
                h.running_a,
                h.running_b,
                shown.get(h.game.team_a_id, h.game.team_a.name),
                shown.get(h.game.team_b_id, h.game.team_b.name),
            ]
            for h in hands
        ),
    )


CSV_TABLES = {"standings": standings_csv, "matches": matches_csv, "hands": hands_csv}
