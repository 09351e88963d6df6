"""Reads of the tournaments app, shaped for the API, the admin and the pages.

Each selector loads what its caller shows with a fixed number of queries, whatever the
number of entries or matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Prefetch,
    Q,
    QuerySet,
)

from scoring.models import MisplayDispute, Player
from scoring.services.names import name_normalised
from tournaments.algorithms.bracket import bracket_document, dependents
from tournaments.algorithms.seeding import bracket_size
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    PlayerRating,
    Pool,
    RatingChange,
    ResultReport,
    Round,
    Stage,
    StageEntry,
    Standing,
    TableKey,
    TeamRegistration,
    Tournament,
    TournamentEvent,
)
from tournaments.services._common import keeps_score_at, kept_by
from tournaments.services.matches import bracket_build, bracket_of, bracket_results

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    Viewer = User | AnonymousUser | None
else:
    Viewer = object


# ------------------------------------------------------------------------------ visibility
def tournaments_visible(user: Viewer) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see: public ones, and those they organise or direct."""
    qs = Tournament.objects.all()
    if user is not None and user.is_authenticated:
        if getattr(user, "is_superuser", False):
            return qs
        return qs.filter(
            Q(public=True)
            | Q(organiser=user)
            | Q(directors=user)
            | Q(scorekeepers=user)
            | Q(table_keys__account=user, table_keys__revoked_at=None)
        ).distinct()
    return qs.filter(public=True)


def tournament_directed_by(tournament: Tournament, user: Viewer) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False) or tournament.organiser_id == user.pk:
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def game_kept_by(game_id: int, user: Viewer) -> bool:
    """Whether ``user`` keeps score in a scoring game as the tournament it counts for lets
    them (a named scorekeeper, or the account of its table's sheet); one query."""
    kept = kept_by(user, "match__")
    if kept is None:
        return False
    return MatchGame.objects.filter(kept, game_id=game_id, discarded=False).exists()


def match_kept_by(match: Match, user: Viewer) -> bool:
    """Whether ``user`` keeps score at ``match``'s table as its tournament lets them (and so
    starts its next game); one query."""
    return keeps_score_at(match, user)


def table_key_live(tournament: Tournament, table: int) -> TableKey | None:
    """The key a table's sheet prints now, or None (no sheet issued, or its last revoked)."""
    return TableKey.objects.filter(tournament=tournament, table=table, revoked_at=None).first()


def table_keys(tournament: Tournament) -> dict[int, TableKey]:
    """The live key of each table of ``tournament`` that has one, by table number."""
    keys = TableKey.objects.filter(tournament=tournament, revoked_at=None)
    return {key.table: key for key in keys}


def tournament_tables(tournament: Tournament) -> list[int]:
    """The table numbers the tournament's matches are played at, and those a sheet was
    issued for, in order."""
    played = Match.objects.filter(stage__tournament=tournament, table__isnull=False)
    numbers = set(played.values_list("table", flat=True))
    numbers |= set(table_keys(tournament))
    return sorted(n for n in numbers if n is not None)


def table_match_now(tournament: Tournament, table: int) -> Match | None:
    """The match a table's scorekeeper keeps score in now: the one being played at the
    table, else the first ready to start there, else None."""
    qs = Match.objects.filter(stage__tournament=tournament, table=table).select_related(
        "stage", "round"
    )
    playing = qs.filter(state=Match.State.IN_PROGRESS).order_by("stage__order", "round_id")
    found = playing.first()
    if found is None:
        ready = qs.filter(state=Match.State.READY).order_by("stage__order", "round_id", "number")
        found = ready.first()
    return found


def tournament_scorekeepers(tournament: Tournament) -> list[Any]:
    """The accounts a tournament names its scorekeepers, by name."""
    return list(tournament.scorekeepers.order_by("username"))


def with_directors(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """``tournaments`` with their directors and their history, in two more queries."""
    accounts = get_user_model().objects.only("id", "username").order_by("username")
    events = TournamentEvent.objects.select_related("by").order_by("at", "id")
    return tournaments.prefetch_related(
        Prefetch("directors", queryset=accounts), Prefetch("events", queryset=events)
    )


def with_counts(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """``tournaments`` with their organiser and their active entry and stage counts."""
    return tournaments.select_related("organiser").annotate(
        entry_count=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE), distinct=True),
        stage_count=Count("stages", distinct=True),
    )


def tournament_list(user: Viewer) -> QuerySet[Tournament]:
    """Visible tournaments with their organiser and their entry and stage counts (one query)."""
    return with_counts(tournaments_visible(user)).order_by("-starts_on", "name")


# ------------------------------------------------------------------------------ entries
def with_substitutes(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """``entries`` with their substitutes (id and name, by name), in one more query."""
    players = Player.objects.only("id", "display_name").order_by("display_name", "id")
    return entries.prefetch_related(Prefetch("substitutes", queryset=players))


# ------------------------------------------------------------------------------ names
def _key(text: str) -> str:
    return name_normalised(text).casefold()


def names_told_apart(teams: Sequence[tuple[str, str]]) -> list[str]:
    """A name to show for each of ``teams`` (``(name, community)`` pairs in the order they
    registered), no two alike (whatever the case): the name alone where no other team has
    it; else the name with its community, "Alphonse & Marie (Chéticamp)", where that tells
    it from the others of its name; else the name with its place among them by registration,
    "Alphonse & Marie (2)". A name that is itself another's label ("X (2)") keeps its own
    name and the label moves on to the next free number."""
    by_name: dict[str, list[int]] = {}
    for index, (name, _community) in enumerate(teams):
        by_name.setdefault(_key(name), []).append(index)
    shown: list[str] = [""] * len(teams)
    used: set[str] = set()
    # the names alone first (they are unique already), then the communities, then numbers
    for same in by_name.values():
        if len(same) == 1:
            shown[same[0]] = name_normalised(teams[same[0]][0])
            used.add(_key(shown[same[0]]))
    numbered: list[tuple[int, int]] = []
    for same in by_name.values():
        if len(same) == 1:
            continue
        communities: dict[str, int] = {}
        for index in same:
            community = _key(teams[index][1])
            communities[community] = communities.get(community, 0) + 1
        for place, index in enumerate(same, start=1):
            name, community = (name_normalised(part) for part in teams[index])
            label = f"{name} ({community})"
            if community and communities[_key(community)] == 1 and _key(label) not in used:
                shown[index] = label
                used.add(_key(label))
            else:
                numbered.append((index, place))
    for index, place in numbered:
        name = name_normalised(teams[index][0])
        while _key(f"{name} ({place})") in used:
            place += 1
        shown[index] = f"{name} ({place})"
        used.add(_key(shown[index]))
    return shown


def team_community(one: str, two: str) -> str:
    """Where a team comes from: its players' community, or both ("Chéticamp / Arichat")."""
    places = [name_normalised(p) for p in (one, two) if name_normalised(p)]
    if len(places) == 2 and _key(places[0]) == _key(places[1]):
        places = places[:1]
    return " / ".join(places)


def _told_apart(entries: QuerySet[Entry]) -> list[tuple[int, int, int, str]]:
    """``(entry id, tournament id, team id, told-apart name)`` for each of ``entries``, every
    tournament's names told apart among that tournament's entries alone (one query)."""
    rows = list(
        entries.order_by("tournament_id", "registered_at", "pk").values_list(
            "pk",
            "tournament_id",
            "team_id",
            "team__name",
            "team__player_one__community",
            "team__player_two__community",
        )
    )
    by_tournament: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_tournament.setdefault(row[1], []).append(row)
    told: list[tuple[int, int, int, str]] = []
    for same in by_tournament.values():
        shown = names_told_apart([(name, team_community(a, b)) for *_, name, a, b in same])
        told.extend((*row[:3], label) for row, label in zip(same, shown, strict=True))
    return told


def entry_display_names(tournament: Tournament | int) -> dict[int, str]:
    """Each entry of ``tournament`` by id: its team's name as :func:`names_told_apart` tells
    it from the others registered in the tournament (one query)."""
    return {
        entry: label
        for entry, _, _, label in _told_apart(Entry.objects.filter(tournament=tournament))
    }


def team_display_names(tournament: Tournament | int) -> dict[int, str]:
    """Each team registered in ``tournament`` by its id: its told-apart name there (one
    query)."""
    return {
        team: label
        for _, _, team, label in _told_apart(Entry.objects.filter(tournament=tournament))
    }


def team_display_names_in(
    tournament_ids: Iterable[int] = (), *, teams: Iterable[int] = ()
) -> dict[tuple[int, int], str]:
    """Every team registered in the tournaments ``tournament_ids`` and in those where any of
    ``teams`` is registered, by ``(tournament id, team id)``: its told-apart name in that
    tournament (one query, whatever their number)."""
    registered = Entry.objects.filter(team_id__in=set(teams)).values("tournament_id")
    entries = Entry.objects.filter(
        Q(tournament_id__in=set(tournament_ids)) | Q(tournament_id__in=registered)
    )
    return {(tournament, team): label for _, tournament, team, label in _told_apart(entries)}


def name_entries(
    tournament: Tournament | int,
    things: Iterable[Any],
    names: Mapping[int, str] | None = None,
) -> None:
    """Give every entry in ``things`` (entries, matches, standings rows) its told-apart
    ``display_name`` (one query, whatever their number; none when the caller already holds
    the tournament's :func:`entry_display_names` as ``names``)."""
    if names is None:
        names = entry_display_names(tournament)
    for thing in things:
        if isinstance(thing, Entry):
            entries: Iterable[Entry | None] = (thing,)
        elif isinstance(thing, Match):
            entries = (
                thing.home if thing.home_id else None,
                thing.away if thing.away_id else None,
                thing.winner if thing.winner_id else None,
            )
        else:
            entries = (getattr(thing, "entry", None),)
        for entry in entries:
            if entry is not None and entry.pk in names:
                entry.display_name = names[entry.pk]


# ------------------------------------------------------------------------------ overview
@dataclass
class TournamentOverview:
    tournament: Tournament
    stages: list[Stage]
    entries: list[Entry]
    match_counts: dict[str, int]
    placements: list[Entry] = field(default_factory=list)

    @property
    def current_stage(self) -> Stage | None:
        running = [s for s in self.stages if s.status == Stage.Status.RUNNING]
        return running[0] if running else None


def entries_in_seed_order(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """``entries`` as a tournament lists them: the seeded ones by seed, then the others in the
    order they registered."""
    return entries.order_by(F("seed").asc(nulls_last=True), "registered_at", "id")


def tournament_overview(tournament: Tournament) -> TournamentOverview:
    """The tournament page: stages, entries (the seeded ones by seed, then the others in the
    order they registered), match counts by state, every placing."""
    stages = list(tournament.stages.order_by("order"))
    entries = list(entries_in_seed_order(tournament.entries.select_related("team")))
    counts = dict(
        Match.objects.filter(stage__tournament=tournament)
        .values_list("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    # entries are in seed order already: a shared place lists the better seed first
    placed = sorted((e for e in entries if e.final_place), key=lambda e: e.final_place or 0)
    name_entries(tournament, entries)
    return TournamentOverview(tournament, stages, entries, counts, placed)


# ------------------------------------------------------------------------------ standings
@dataclass
class PoolStandings:
    pool: Pool | None
    rows: list[Standing]


def stage_standings(stage: Stage) -> list[PoolStandings]:
    """Stored standings of a stage, pool by pool, with each entry's team (two queries)."""
    pools = {p.pk: p for p in stage.pools.all()}
    rows = Standing.objects.filter(stage=stage).select_related(
        "entry__team__player_one", "entry__team__player_two"
    )
    grouped: dict[int | None, list[Standing]] = {}
    ordered = list(rows.order_by("pool_id", "place", "seed"))
    name_entries(stage.tournament_id, ordered)
    for row in ordered:
        grouped.setdefault(row.pool_id, []).append(row)
    return [
        PoolStandings(pools.get(pool_id) if pool_id else None, r) for pool_id, r in grouped.items()
    ]


# ------------------------------------------------------------------------------ matches
def matches_for(stage_or_tournament: Stage | Tournament) -> QuerySet[Match]:
    """Matches with everything a schedule or a bracket shows, in one query."""
    if isinstance(stage_or_tournament, Stage):
        qs = Match.objects.filter(stage=stage_or_tournament)
    else:
        qs = Match.objects.filter(stage__tournament=stage_or_tournament)
    return qs.select_related(
        "stage", "round", "pool", "home__team", "away__team", "winner__team"
    ).order_by("stage__order", "round_id", "number")


def tournament_schedule(
    tournament: Tournament,
    *,
    states: Sequence[str] = (),
    entry: int | None = None,
    names: Mapping[int, str] | None = None,
) -> list[Match]:
    """The day's matches with round, table and teams, in playing order; with ``entry``, only
    the matches that entry plays (or played). ``names``: the tournament's
    :func:`entry_display_names`, when the caller has read them already."""
    qs = matches_for(tournament).exclude(state=Match.State.VOID)
    if states:
        qs = qs.filter(state__in=states)
    if entry is not None:
        qs = qs.filter(Q(home_id=entry) | Q(away_id=entry))
    matches = list(qs)
    name_entries(tournament, matches, names)
    return matches


def match_of_game(game_id: int) -> int | None:
    """The id of the match a scoring game counts for, or None (a casual game)."""
    link = MatchGame.objects.filter(game_id=game_id, discarded=False).values_list("match_id")
    found = link.first()
    return None if found is None else int(found[0])


def stage_of_game(game_id: int) -> Stage | None:
    """The stage a scoring game was played in (counted or discarded), with its tournament;
    None for a casual game."""
    return (
        Stage.objects.select_related("tournament")
        .filter(matches__match_games__game_id=game_id)
        .first()
    )


def match_counting_game(game_id: int) -> Match | None:
    """The match a scoring game counts for, with its stage and tournament; None for a casual
    game (or one no longer counted)."""
    return (
        Match.objects.select_related("stage__tournament")
        .filter(match_games__game_id=game_id, match_games__discarded=False)
        .first()
    )


def held_change_reopening(game_id: int) -> tuple[Match, Match] | None:
    """For a game being played in a bracket match that confirming a held result change would
    re-open: the match holding the change and the game's match; None otherwise (two queries
    for a match game, mostly the first alone)."""
    match = match_counting_game(game_id)
    if match is None or not match.stage.is_bracket or not match.key:
        return None
    held = list(
        Match.objects.filter(stage=match.stage, state=Match.State.COMPLETE)
        .exclude(held_reason="")
        .exclude(key="")
    )
    if not held:
        return None
    bracket = bracket_of(match.stage)
    for other in held:
        if match.key in dependents(bracket, other.key):
            return other, match
    return None


def game_directed_by(game_id: int, user: Viewer) -> bool:
    """Whether ``user`` directs the tournament a scoring game is played for (its organiser or
    one of its directors), which makes them a director of the game; a game no longer counted
    for its match (discarded) too, since its history stays the tournament's."""
    games = games_directed_by(user)
    return games is not None and games.filter(game_id=game_id).exists()


def games_directed_by(user: Viewer) -> QuerySet[Any] | None:
    """The ids of the scoring games of the tournaments ``user`` organises or directs (a query,
    to filter games by), or None for no user."""
    if user is None or not user.is_authenticated:
        return None
    tournament = Q(match__stage__tournament__organiser_id=user.pk) | Q(
        match__stage__tournament__directors=user.pk
    )
    return MatchGame.objects.filter(tournament).values("game_id")


def game_is_in_a_match(game_id: int) -> bool:
    """Whether a scoring game was played for a match (casual games have nothing to update).

    Asked each time a game ends, casual or not, as the hand that ends it is answered: one
    fixed statement, without building an ORM query every time."""
    quote = connection.ops.quote_name
    table = quote(MatchGame._meta.db_table)
    column = quote(MatchGame._meta.get_field("game").column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE {column} = %s LIMIT 1", [game_id])  # noqa: S608 - quoted names
        return cursor.fetchone() is not None


def rating_table() -> QuerySet[PlayerRating]:
    """Every rated player, the strongest first by the conservative rating (mu - 3 sigma, the
    one the pages show), with the player (one query a page)."""
    ordinal = ExpressionWrapper(F("mu") - 3 * F("sigma"), output_field=FloatField())
    return (
        PlayerRating.objects.select_related("player")
        .annotate(rank_by=ordinal)
        .order_by("-rank_by", "player__display_name", "pk")
    )


def match_detail(match_id: int) -> Match | None:
    """A match with its stage, teams (told apart) and its games in order (three queries)."""
    games = MatchGame.objects.select_related("game__team_a", "game__team_b").order_by("number")
    match = (
        Match.objects.select_related(
            "stage__tournament",
            "round",
            "pool",
            "home__team__player_one",
            "home__team__player_two",
            "away__team__player_one",
            "away__team__player_two",
            "winner__team",
        )
        .prefetch_related(Prefetch("match_games", queryset=games))
        .filter(pk=match_id)
        .first()
    )
    if match is not None:
        name_entries(match.stage.tournament_id, [match])
    return match


@dataclass(frozen=True)
class MatchGameRow:
    """A game of a match as its page lists it: the scores under the match's home and away
    columns, or, for a game played by other teams (set aside when an earlier result changed
    who reached this match), who played it."""

    link: MatchGame
    home: int | None
    away: int | None
    played_by: str = ""


def match_game_rows(match: Match) -> list[MatchGameRow]:
    """The games of ``match`` (fetched with :func:`match_detail`) as its page lists them."""
    home = match.home.team_id if match.home else None
    away = match.away.team_id if match.away else None
    rows = []
    for link in match.match_games.all():
        game = link.game
        if (game.team_a_id, game.team_b_id) == (home, away):
            rows.append(MatchGameRow(link, game.score_a, game.score_b))
        elif (game.team_a_id, game.team_b_id) == (away, home):
            rows.append(MatchGameRow(link, game.score_b, game.score_a))
        else:
            played = f"{game.team_a.name} {game.score_a}-{game.score_b} {game.team_b.name}"
            rows.append(MatchGameRow(link, None, None, played))
    return rows


@dataclass(frozen=True)
class MatchDirectorActions:
    """What a director is offered on a match's page, besides starting its next game: a
    forfeit while the match is still to be decided by play (or already decided by one, to
    give it to the other team), and, when the match holds a result change that waits for a
    director, confirming that change or keeping the result as it stands."""

    forfeit: bool
    held: bool

    @property
    def any(self) -> bool:
        return self.forfeit or self.held


def match_director_actions(match: Match) -> MatchDirectorActions:
    """The actions of :class:`MatchDirectorActions` open on ``match`` (no query: what
    :func:`match_detail` fetched). A finished tournament's results stand: none."""
    if match.stage.tournament.status == Tournament.Status.FINISHED:
        return MatchDirectorActions(forfeit=False, held=False)
    both = match.home_id is not None and match.away_id is not None and not match.bye
    open_ = match.state in (Match.State.READY, Match.State.IN_PROGRESS)
    forfeit = both and (open_ or (match.state == Match.State.COMPLETE and match.forfeit))
    return MatchDirectorActions(forfeit=forfeit, held=bool(match.held_reason))


# ------------------------------------------------------------------------------ bracket
def stage_bracket_document(stage: Stage) -> dict[str, Any]:
    """The drawable bracket of an elimination stage, with each match's id, table and state.

    Four queries: the stage's entries, their names told apart, its rounds and its matches,
    read as plain rows. The
    matches hold where every entry stands (each result places them as the bracket says),
    so the document is written from them; a stage started before its matches kept where
    they feed is drawn by replaying its results (:func:`_replayed_bracket_document`).
    """
    entries = list(
        StageEntry.objects.filter(stage=stage)
        .order_by("seed")
        .values_list("seed", "entry_id", "entry__team__name")
    )
    told_apart = entry_display_names(stage.tournament_id)
    names: dict[int | None, str | None] = {
        entry: told_apart.get(entry, name) for _, entry, name in entries
    }
    names[None] = None
    rounds = {
        pk: (side, number, name)
        for pk, side, number, name in Round.objects.filter(stage=stage).values_list(
            "pk", "side", "number", "name"
        )
    }
    rows = list(
        Match.objects.filter(stage=stage).order_by("round_id", "number").values_list(*_BRACKET_ROW)
    )
    if not rows or any(row[-1] is None for row in rows):
        return _replayed_bracket_document(stage)
    double = stage.kind == Stage.Kind.DOUBLE_ELIM
    columns: dict[tuple[str, int], tuple[str, list[dict[str, Any]]]] = {}
    status_of: dict[str, str] = {}
    winner_of: dict[str, int | None] = {}
    for row in rows:
        (pk, key, round_id, number, home, away, winner, state, table, forfeit) = row[:10]
        (home_games, away_games, home_points, away_points, held, home_source) = row[10:16]
        away_source, feeds = row[16], row[17]
        side, round_number, round_name = rounds[round_id]
        status = _BRACKET_STATUS[state]
        winner_slot = None
        loser = None
        if status == "decided":
            winner_slot = 0 if winner == home else 1
            loser = away if winner_slot == 0 else home
        status_of[key], winner_of[key] = status, winner
        slots = [
            {
                "source": {k: source.get(k) for k in ("kind", "seed", "match")},
                "label": source.get("label"),
                "entry": entry,
                "name": names.get(entry, str(entry)),
            }
            for source, entry in ((home_source, home), (away_source, away))
        ]
        item = {
            "key": key,
            "side": side,
            "round": round_number,
            "number": number,
            "reset_of": "GF1" if double and key == "GF2" else None,
            "status": status,
            "slots": slots,
            "winner_slot": winner_slot,
            "winner": winner,
            "loser": loser,
            "feeds": [
                {"outcome": f["outcome"], "match": f["match"], "slot": f["slot"]}
                for f in feeds
                if f["outcome"] != "decides" and not f.get("reset")
            ],
            "id": pk,
            "table": table,
            "state": state,
            "forfeit": forfeit,
            "score": [home_games, away_games],
            "points": [home_points, away_points],
            "held_reason": held,
        }
        columns.setdefault((side, round_number), (round_name, []))[1].append(item)
    sides = []
    for side in ("winners", "losers", "final"):
        numbers = sorted(n for s, n in columns if s == side)
        if numbers:
            side_rounds = [
                {"round": n, "name": columns[(side, n)][0], "matches": columns[(side, n)][1]}
                for n in numbers
            ]
            sides.append({"side": side, "rounds": side_rounds})
    champion = _champion(stage, status_of, winner_of, len(entries))
    return {
        "format": "double_elimination" if double else "single_elimination",
        "size": bracket_size(len(entries)),
        "grand_final": stage.grand_final if double else None,
        "third_place": stage.third_place and not double,
        "entries": [{"seed": seed, "entry": entry, "name": name} for seed, entry, name in entries],
        "sides": sides,
        "match_count": len(rows),
        "round_count": len(columns),
        "champion": champion,
        "champion_name": names.get(champion),
        "finished": champion is not None
        and all(status in ("decided", "void") for status in status_of.values()),
        "stage": {"id": stage.pk, "name": stage.name, "kind": stage.kind},
    }


def _champion(
    stage: Stage, status_of: dict[str, str], winner_of: dict[str, int | None], entries: int
) -> int | None:
    """The bracket's champion from its last matches, as the bracket resolves it."""
    if "GF2" in status_of and stage.kind == Stage.Kind.DOUBLE_ELIM:
        if status_of["GF2"] == "decided":
            return winner_of["GF2"]
        if status_of["GF2"] != "void":
            return None
    if "GF1" in status_of and stage.kind == Stage.Kind.DOUBLE_ELIM:
        final = "GF1"
    else:
        final = f"W{bracket_size(entries).bit_length() - 1}-1"
    return winner_of[final] if status_of[final] == "decided" else None


#: A match's state as the bracket document says it (a match being played is ready).
_BRACKET_STATUS = {
    Match.State.PENDING: "pending",
    Match.State.READY: "ready",
    Match.State.IN_PROGRESS: "ready",
    Match.State.COMPLETE: "decided",
    Match.State.VOID: "void",
}

_BRACKET_ROW = (
    "pk",
    "key",
    "round_id",
    "number",
    "home_id",
    "away_id",
    "winner_id",
    "state",
    "table",
    "forfeit",
    "home_games",
    "away_games",
    "home_points",
    "away_points",
    "held_reason",
    "home_source",
    "away_source",
    "feeds",
)


def _replayed_bracket_document(stage: Stage) -> dict[str, Any]:
    """The bracket document by replaying the stage's results over its bracket."""
    stage_entries = list(
        StageEntry.objects.filter(stage=stage).select_related("entry__team").order_by("seed")
    )
    bracket = bracket_build(stage, [se.entry_id for se in stage_entries])
    matches = {m.key: m for m in Match.objects.filter(stage=stage).only(*_BRACKET_COLUMNS)}
    told_apart = entry_display_names(stage.tournament_id)
    names: dict[int | str, str] = {
        se.entry_id: told_apart.get(se.entry_id, se.entry.team.name) for se in stage_entries
    }
    document = bracket_document(bracket, bracket_results(matches.values()), names=names)
    for side in document["sides"]:
        for rnd in side["rounds"]:
            for item in rnd["matches"]:
                match = matches[item["key"]]
                item.update(
                    id=match.pk,
                    table=match.table,
                    state=match.state,
                    forfeit=match.forfeit,
                    score=[match.home_games, match.away_games],
                    points=[match.home_points, match.away_points],
                    held_reason=match.held_reason,
                )
    document["stage"] = {"id": stage.pk, "name": stage.name, "kind": stage.kind}
    return document


_BRACKET_COLUMNS = (
    "pk",
    "key",
    "home_id",
    "away_id",
    "winner_id",
    "state",
    "bye",
    "forfeit",
    "table",
    "home_games",
    "away_games",
    "home_points",
    "away_points",
    "held_reason",
)


# ------------------------------------------------------------------------------ teams, players
def team_results(team_id: int, user: Viewer) -> list[Match]:
    """Every finished match a team played in the tournaments ``user`` may see, newest first
    (one query)."""
    return list(
        Match.objects.filter(Q(home__team_id=team_id) | Q(away__team_id=team_id))
        .filter(state=Match.State.COMPLETE, bye=False)
        .filter(stage__tournament__in=tournaments_visible(user))
        .select_related("stage__tournament", "round", "home__team", "away__team")
        .order_by("-finished_at", "-id")
    )


def team_entries(team_id: int, user: Viewer) -> QuerySet[Entry]:
    """A team's tournaments that ``user`` may see, with its seed and final place."""
    return (
        Entry.objects.filter(team_id=team_id, tournament__in=tournaments_visible(user))
        .select_related("tournament")
        .order_by("-tournament__starts_on")
    )


@dataclass
class RatingHistory:
    current: PlayerRating | None
    changes: list[RatingChange]


def player_rating_history(player_id: int, user: Viewer) -> RatingHistory:
    """A player's rating now (None before a rated match) and after every rated match, oldest
    first (two queries).

    Only public tournaments' matches are rated, so the rating now, its number of matches and
    the history agree with what anyone may see. The history is still limited to the
    tournaments ``user`` may see, for the moment between a tournament made private and its
    matches taken out of the ratings.
    """
    current = PlayerRating.objects.filter(player_id=player_id).first()
    changes = list(
        RatingChange.objects.filter(
            player_id=player_id, match__stage__tournament__in=tournaments_visible(user)
        )
        .select_related("match__stage__tournament", "match__round")
        .order_by("created_at", "id")
    )
    return RatingHistory(current, changes)


def rating_leaders(limit: int = 50) -> QuerySet[PlayerRating]:
    return PlayerRating.objects.select_related("player").order_by("-mu")[:limit]


# ------------------------------------------------------------------------------ director
@dataclass
class DayAtAGlance:
    tournament: Tournament
    #: Ready matches that can start now: teams and table free.
    ready: list[Match]
    in_progress: list[Match]
    waiting: list[Match]
    held: list[Match]
    disputes: list[MisplayDispute]
    checked_in: int
    entries: int
    next_step: NextStep | None = None
    #: Ready matches that wait for a team (playing, or due at an earlier match) or a table.
    queued: list[Match] = field(default_factory=list)
    #: Teams on the waiting list (the tournament is full), first to be promoted first.
    waiting_list: list[Entry] = field(default_factory=list)


@dataclass(frozen=True)
class NextStep:
    """What the director does next once play has run out: ``action`` is ``"pair_round"`` (the
    next Swiss round of ``stage``), ``"advance"`` (start ``stage``, the next stage, from the
    results of ``finished``) or ``"finish"`` (every stage over: store the final places)."""

    action: str
    stage: Stage | None = None
    finished: Stage | None = None
    round_number: int = 0

    @property
    def stage_id(self) -> int | None:
        return self.stage.pk if self.stage is not None else None


def director_next_step(tournament: Tournament) -> NextStep | None:
    """The step that moves a running tournament on when nothing is left to play: pair the next
    Swiss round, start the next stage, or finish the tournament (None while play goes on)."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    stages = list(
        Stage.objects.filter(tournament=tournament)
        .annotate(
            round_count=Count("rounds", distinct=True),
            open_matches=Count(
                "matches",
                filter=~Q(matches__state__in=[Match.State.COMPLETE, Match.State.VOID]),
                distinct=True,
            ),
        )
        .order_by("order")
    )
    running = [s for s in stages if s.status == Stage.Status.RUNNING]
    if running:
        stage = running[0]
        rounds = stage.round_count
        if (
            stage.kind == Stage.Kind.SWISS
            and not stage.open_matches
            and rounds < (stage.swiss_rounds or 0)
        ):
            return NextStep("pair_round", stage=stage, round_number=rounds + 1)
        return None
    finished = [s for s in stages if s.status == Stage.Status.FINISHED]
    pending = [s for s in stages if s.status == Stage.Status.PENDING]
    last = finished[-1] if finished else None
    if pending:
        return NextStep("advance", stage=pending[0], finished=last)
    return NextStep("finish", finished=last)


def now_playing(tournament: Tournament, limit: int) -> tuple[list[Match], int]:
    """Matches being played, then those ready, round by round and by table within a round:
    the first ``limit`` and how many more there are ("in_progress" sorts before "ready"). A
    round robin makes every round ready at once: its first round comes first."""
    playing = matches_for(tournament).filter(state__in=[Match.State.IN_PROGRESS, Match.State.READY])
    order = ("state", "stage__order", "round__number", F("table").asc(nulls_last=True), "pk")
    shown = list(playing.order_by(*order)[:limit])
    name_entries(tournament, shown)
    return shown, max(0, playing.count() - len(shown))


def games_under_way(matches: Sequence[Match]) -> dict[int, Any]:
    """The game being played in each of ``matches`` that has one, by match id (one query):
    its points, home first (the home entry's team sits as team A)."""
    ids = [match.pk for match in matches if match.state == Match.State.IN_PROGRESS]
    if not ids:
        return {}
    links = MatchGame.objects.filter(
        match_id__in=ids, discarded=False, game__status="in_progress"
    ).select_related("game")
    return {link.match_id: link.game for link in links}


def director_day(tournament: Tournament) -> DayAtAGlance:
    """What a director watches: matches ready, being played, waiting, held; open disputes."""
    matches = list(
        matches_for(tournament).filter(
            state__in=[Match.State.READY, Match.State.IN_PROGRESS, Match.State.PENDING]
        )
    )
    held = list(matches_for(tournament).exclude(held_reason=""))
    queue = waiting_list(tournament)
    name_entries(tournament, [*matches, *held, *queue])
    disputes = list(
        MisplayDispute.objects.filter(hand__game__match_link__match__stage__tournament=tournament)
        .filter(Q(status=MisplayDispute.Status.PENDING) | Q(ruling=MisplayDispute.Ruling.NONE))
        .select_related(
            "hand__game__match_link__match",
            *(f"hand__game__seat_{seat}" for seat in range(4)),
        )
        .order_by("created_at")
    )
    counts = tournament.entries.aggregate(
        entries=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        checked_in=Count("id", filter=Q(status=Entry.Status.ACTIVE, checked_in=True)),
    )
    # round by round, then by table (a round robin makes every round ready at once)
    by_table = sorted(
        matches, key=lambda m: (m.stage.order, m.round.number, m.table or 10_000, m.pk)
    )
    in_progress = [m for m in by_table if m.state == Match.State.IN_PROGRESS]
    ready, queued = startable_now(
        [m for m in by_table if m.state == Match.State.READY], in_progress
    )
    return DayAtAGlance(
        tournament=tournament,
        ready=ready,
        queued=queued,
        in_progress=in_progress,
        waiting=[m for m in matches if m.state == Match.State.PENDING],
        held=held,
        disputes=disputes,
        checked_in=counts["checked_in"],
        entries=counts["entries"],
        next_step=director_next_step(tournament),
        waiting_list=queue,
    )


def waiting_list(tournament: Tournament) -> list[Entry]:
    """The teams waiting for a place in ``tournament``, in the order they are promoted."""
    return list(
        tournament.entries.filter(status=Entry.Status.WAITING)
        .select_related("team")
        .order_by("registered_at", "pk")
    )


def startable_now(ready: list[Match], playing: list[Match]) -> tuple[list[Match], list[Match]]:
    """Split ``ready`` (in the order they should be played) into the matches that can start
    now and those that wait: a match waits while either team is playing or due to play an
    earlier one, or while its table is taken by a match being played or listed before it."""
    busy_teams = {e for m in playing for e in (m.home_id, m.away_id) if e is not None}
    busy_tables = {m.table for m in playing if m.table is not None}
    now: list[Match] = []
    later: list[Match] = []
    for match in ready:
        teams = {e for e in (match.home_id, match.away_id) if e is not None}
        if teams & busy_teams or (match.table is not None and match.table in busy_tables):
            later.append(match)
        else:
            now.append(match)
            if match.table is not None:
                busy_tables.add(match.table)
        busy_teams |= teams
    return now, later


def director_tournaments(user: Viewer) -> QuerySet[Tournament]:
    """Tournaments ``user`` runs that are not finished."""
    if user is None or not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if getattr(user, "is_superuser", False):
        return qs
    return qs.filter(Q(organiser=user) | Q(directors=user)).distinct()


def team_registrations_of(user: Viewer) -> QuerySet[TeamRegistration]:
    """The team registrations an account made or is named partner in, newest first, with
    what a list of them shows (the tournament, both accounts); none for no account."""
    if user is None or not user.is_authenticated:
        return TeamRegistration.objects.none()
    return (
        TeamRegistration.objects.filter(Q(requested_by=user.pk) | Q(partner=user.pk))
        .select_related("tournament", "requested_by", "partner")
        .order_by("-created_at", "-pk")
    )


def team_registrations_waiting(tournament: Tournament, user: Viewer) -> list[TeamRegistration]:
    """The registrations of ``user`` waiting for a partner's answer in ``tournament``."""
    waiting = team_registrations_of(user).filter(
        tournament=tournament, status=TeamRegistration.Status.PENDING
    )
    return list(waiting)


def team_registrations_pending(tournament: Tournament) -> list[TeamRegistration]:
    """The registrations of ``tournament`` waiting for a partner, first made first."""
    waiting = tournament.team_registrations.filter(status=TeamRegistration.Status.PENDING)
    return list(waiting.select_related("requested_by", "partner").order_by("created_at", "pk"))


# ------------------------------------------------------------------------------ result reports
def result_reports() -> QuerySet[ResultReport]:
    """Results reported by players, latest first, with the accounts a report names."""
    return ResultReport.objects.select_related("reported_by", "disputed_by", "decided_by").order_by(
        "-created_at", "-pk"
    )


def match_result_reports(match_id: int) -> list[ResultReport]:
    """The results reported for a match, latest first (one query)."""
    return list(result_reports().filter(match_id=match_id))


def result_reports_open(*, tournament_id: int) -> list[ResultReport]:
    """A tournament's reports waiting to be confirmed or decided, disputed ones first, each
    with its match and teams (the director's list; one query)."""
    reports = (
        ResultReport.objects.filter(
            match__stage__tournament_id=tournament_id,
            status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
        )
        .select_related(
            "match__round",
            "match__home__team",
            "match__away__team",
            "reported_by",
            "disputed_by",
        )
        # "disputed" sorts before "pending"
        .order_by("status", "created_at", "pk")
    )
    return list(reports)
