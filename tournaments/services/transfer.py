"""Reading back a tournament document (:mod:`tournaments.exports`): the tournament with its
history (each time it was finished or reopened), entries (those waiting for a place too),
stages, pools, rounds, matches, games (with the totals a quick result had before each
correction), hands and their revisions, made anew in this installation, all or nothing.

Players are matched by name and community (as :func:`scoring.services.player_named` compares
them) or created; teams by their pair of players or created. The importing account becomes
the tournament's organiser and director; accounts of the other installation (scorekeepers,
who entered or corrected what) are not carried over. Standings are recomputed, and a public
tournament's finished matches are rated in their place in time.

A document that cannot be read is refused, naming the field by its path in the document
(``stages.0.matches.3.home``) and the reason, before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import IntegrityError, models, transaction
from rest_framework import serializers

from scoring import services as scoring_services
from scoring.models import Game, Hand, HandRevision, Player, Team, TotalsRevision
from tarabish_site.api.errors import ApplicationError, NotAllowed, ValidationFailed
from tarabish_site.api.exceptions import flatten_errors
from tournaments import exports
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    Pool,
    Round,
    Stage,
    StageEntry,
    Tournament,
    TournamentEvent,
)
from tournaments.services._common import Actor
from tournaments.services.standings import standings_recompute
from tournaments.services.tournaments import can_create_tournament


def _model_serializer(
    model: type[models.Model], names: Sequence[str], **declared: Any
) -> type[serializers.ModelSerializer]:  # type: ignore[type-arg]
    """A serializer that checks ``names`` of ``model`` as the model defines them (types,
    choices, lengths), with ``declared`` fields (keys that point elsewhere in the document)."""
    meta = type(
        "Meta",
        (),
        {"model": model, "fields": [*names, *declared], "validators": []},
    )
    times = {
        name: serializers.DateTimeField(allow_null=True, required=False)
        for name in names
        if name in {"created_at", "changed_at"}
    }
    return type(
        f"{model.__name__}In",
        (serializers.ModelSerializer,),
        {"Meta": meta, **times, **declared},
    )


def _key() -> serializers.IntegerField:
    return serializers.IntegerField()


def _ref(*, null: bool = False) -> serializers.IntegerField:
    return serializers.IntegerField(allow_null=null, required=not null)


def _refs(length: int | None = None) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(), min_length=length, max_length=length
    )


_Revision = _model_serializer(HandRevision, exports.REVISION_FIELDS)
_Hand = _model_serializer(Hand, exports.HAND_FIELDS, revisions=_Revision(many=True))
_Game = _model_serializer(
    Game,
    exports.GAME_FIELDS,
    key=_key(),
    team_a=_ref(),
    team_b=_ref(),
    seats=_refs(4),
    hands=_Hand(many=True),
    # documents written before quick results were corrected have none
    totals_revisions=_model_serializer(TotalsRevision, exports.TOTALS_REVISION_FIELDS)(
        many=True, required=False
    ),
)


class _Feed(serializers.Serializer):  # type: ignore[type-arg]
    """A slot a bracket match's result fills (:func:`tournaments.algorithms.bracket.feed_lists`),
    naming the match it goes to by its ``bracket_key``."""

    outcome = serializers.ChoiceField(choices=["winner", "loser", "decides"])
    match = serializers.CharField(max_length=12)
    slot = serializers.IntegerField(min_value=0, max_value=1, allow_null=True)
    reset = serializers.BooleanField(required=False)


_MatchGame = _model_serializer(MatchGame, exports.MATCH_GAME_FIELDS, game=_ref())
_Match = _model_serializer(
    Match,
    exports.MATCH_FIELDS,
    key=_key(),
    round=_ref(),
    pool=_ref(null=True),
    bracket_key=serializers.CharField(max_length=12, allow_blank=True),
    home=_ref(null=True),
    away=_ref(null=True),
    winner=_ref(null=True),
    games=_MatchGame(many=True),
    # not editable in forms, so declared; documents written before it have none (the
    # bracket is then placed whole after each result, as for a stage started before it)
    feeds=serializers.ListField(child=_Feed(), allow_null=True, required=False),
)
_Stage = _model_serializer(
    Stage,
    exports.STAGE_FIELDS,
    key=_key(),
    pools=_model_serializer(Pool, exports.POOL_FIELDS, key=_key())(many=True),
    stage_entries=serializers.ListField(
        child=_model_serializer(StageEntry, ("seed",), entry=_ref(), pool=_ref(null=True))()
    ),
    rounds=_model_serializer(Round, exports.ROUND_FIELDS, key=_key())(many=True),
    matches=_Match(many=True),
)
_Entry = _model_serializer(
    Entry,
    exports.ENTRY_FIELDS,
    key=_key(),
    team=_ref(),
    substitutes=_refs(),
    registered_at=serializers.DateTimeField(allow_null=True, required=False),
)
_Tournament = _model_serializer(Tournament, exports.TOURNAMENT_FIELDS)


class _Player(serializers.Serializer):  # type: ignore[type-arg]
    key = _key()
    display_name = serializers.CharField(max_length=100)
    community = serializers.CharField(max_length=100, allow_blank=True, required=False)


class _Team(serializers.Serializer):  # type: ignore[type-arg]
    key = _key()
    name = serializers.CharField(max_length=120, allow_blank=True)
    players = _refs(2)


class _Document(serializers.Serializer):  # type: ignore[type-arg]
    format = serializers.ChoiceField(choices=[exports.FORMAT])
    version = serializers.ChoiceField(choices=[exports.VERSION])
    tournament = _Tournament()
    # documents written before tournaments were reopened have none
    history = _model_serializer(
        TournamentEvent,
        exports.EVENT_FIELDS,
        at=serializers.DateTimeField(),
    )(many=True, required=False)
    players = _Player(many=True)
    teams = _Team(many=True)
    entries = _Entry(many=True)
    stages = _Stage(many=True)
    games = _Game(many=True)


def _refused(path: str, reason: str) -> ValidationFailed:
    return ValidationFailed(f"{path}: {reason}", code="invalid_document", fields={path: [reason]})


class _Keys:
    """The rows a document names by key, as made here, and the check that a key names one."""

    def __init__(self, what: str, rows: Iterable[Mapping[str, Any]], path: str) -> None:
        self.what = what
        self.known: dict[int, Any] = {}
        for index, row in enumerate(rows):
            if row["key"] in self.known:
                raise _refused(f"{path}.{index}.key", f"{what} {row['key']} is given twice")
            self.known[row["key"]] = None

    def check(self, key: int | None, path: str) -> None:
        if key is not None and key not in self.known:
            raise _refused(path, f"{self.what} {key} is not in the document")

    def __getitem__(self, key: int) -> Any:
        return self.known[key]

    def get(self, key: int | None) -> Any:
        return None if key is None else self.known[key]


def _read(document: object) -> dict[str, Any]:
    if not isinstance(document, Mapping):
        raise _refused("document", "a tournament document is a JSON object")
    reader = _Document(data=document)
    if not reader.is_valid():
        fields = flatten_errors(reader.errors)
        path, reasons = next(iter(fields.items()))
        raise ValidationFailed(f"{path}: {reasons[0]}", code="invalid_document", fields=fields)
    return dict(reader.validated_data)


def _cross_check(data: dict[str, Any]) -> dict[str, _Keys]:
    keys = {
        "players": _Keys("player", data["players"], "players"),
        "teams": _Keys("team", data["teams"], "teams"),
        "entries": _Keys("entry", data["entries"], "entries"),
        "games": _Keys("game", data["games"], "games"),
    }
    for i, team in enumerate(data["teams"]):
        for j, player in enumerate(team["players"]):
            keys["players"].check(player, f"teams.{i}.players.{j}")
    for i, entry in enumerate(data["entries"]):
        keys["teams"].check(entry["team"], f"entries.{i}.team")
        for j, player in enumerate(entry["substitutes"]):
            keys["players"].check(player, f"entries.{i}.substitutes.{j}")
    for i, game in enumerate(data["games"]):
        keys["teams"].check(game["team_a"], f"games.{i}.team_a")
        keys["teams"].check(game["team_b"], f"games.{i}.team_b")
        for j, player in enumerate(game["seats"]):
            keys["players"].check(player, f"games.{i}.seats.{j}")
    linked: set[int] = set()
    for s, stage in enumerate(data["stages"]):
        pools = _Keys("pool", stage["pools"], f"stages.{s}.pools")
        rounds = _Keys("round", stage["rounds"], f"stages.{s}.rounds")
        for i, row in enumerate(stage["stage_entries"]):
            keys["entries"].check(row["entry"], f"stages.{s}.stage_entries.{i}.entry")
            pools.check(row["pool"], f"stages.{s}.stage_entries.{i}.pool")
        bracket_keys = {match["bracket_key"] for match in stage["matches"]}
        for m, match in enumerate(stage["matches"]):
            at = f"stages.{s}.matches.{m}"
            for f, feed in enumerate(match.get("feeds") or ()):
                if feed["match"] not in bracket_keys:
                    reason = f"no match of this stage has the bracket_key {feed['match']!r}"
                    raise _refused(f"{at}.feeds.{f}.match", reason)
            rounds.check(match["round"], f"{at}.round")
            pools.check(match["pool"], f"{at}.pool")
            for side in ("home", "away", "winner"):
                keys["entries"].check(match[side], f"{at}.{side}")
            for g, link in enumerate(match["games"]):
                keys["games"].check(link["game"], f"{at}.games.{g}.game")
                if link["game"] in linked:
                    raise _refused(f"{at}.games.{g}.game", f"game {link['game']} is in two matches")
                linked.add(link["game"])
    return keys


def _player(row: Mapping[str, Any], path: str) -> Player:
    found = scoring_services.player_named(row["display_name"], row.get("community", ""))
    if found is not None:
        return found
    try:
        return scoring_services.player_create(
            display_name=row["display_name"], community=row.get("community", "")
        )
    except ApplicationError as exc:
        raise _refused(path, exc.message) from exc


def _team(row: Mapping[str, Any], players: _Keys) -> Team:
    one, two = (players[key] for key in row["players"])
    return scoring_services.team_find(
        player_one=one, player_two=two
    ) or scoring_services.team_create(player_one=one, player_two=two, name=row["name"])


def _made(model: type[models.Model], rows: list[Any]) -> list[Any]:
    made = model.objects.bulk_create(rows)  # type: ignore[attr-defined]
    return list(made)


def _keep_created_at(
    model: type[models.Model], rows: list[Any], times: list[Any], field: str = "created_at"
) -> None:
    """``created_at`` (or ``field``) is set to now as a row is made: put back the time the
    document gives."""
    for row, when in zip(rows, times, strict=True):
        if when is not None:
            setattr(row, field, when)
    model.objects.bulk_update(  # type: ignore[attr-defined]
        [row for row, when in zip(rows, times, strict=True) if when is not None],
        [field],
        batch_size=500,
    )


def tournament_import(
    *, document: object, actor: Actor, slug: str = "", name: str = ""
) -> Tournament:
    """Make the tournament of ``document`` here, with ``slug`` and ``name`` instead of its own
    when given (a tournament of that slug may already be here)."""
    if not can_create_tournament(actor):
        raise NotAllowed("only a director of games may create tournaments")
    if isinstance(document, Mapping) and isinstance(document.get("tournament"), Mapping):
        document = {
            **document,
            "tournament": {
                **document["tournament"],
                **({"slug": slug} if slug else {}),
                **({"name": name} if name else {}),
            },
        }
    data = _read(document)
    keys = _cross_check(data)
    try:
        with transaction.atomic():
            tournament = _write(data, keys, actor)
    except IntegrityError as exc:
        raise ValidationFailed(
            f"the document breaks a rule of the database: {exc}", code="invalid_document"
        ) from exc
    return tournament


def _write(data: dict[str, Any], keys: dict[str, _Keys], actor: Actor) -> Tournament:
    user = actor if actor is not None and actor.is_authenticated else None
    players, teams, entries, games = (keys[k] for k in ("players", "teams", "entries", "games"))
    for index, row in enumerate(data["players"]):
        players.known[row["key"]] = _player(row, f"players.{index}.display_name")
    for index, row in enumerate(data["teams"]):
        try:
            teams.known[row["key"]] = _team(row, players)
        except ApplicationError as exc:
            raise _refused(f"teams.{index}.players", exc.message) from exc

    tournament = Tournament.objects.create(**data["tournament"], organiser=user)
    if user is not None:
        tournament.directors.add(user)
    history = data.get("history", [])
    events = _made(
        TournamentEvent,
        [
            TournamentEvent(tournament=tournament, kind=row["kind"], reason=row.get("reason", ""))
            for row in history
        ],
    )
    _keep_created_at(TournamentEvent, events, [row["at"] for row in history], "at")
    made = _made(
        Entry,
        [
            Entry(
                tournament=tournament,
                team=teams[row["team"]],
                **{k: row[k] for k in exports.ENTRY_FIELDS if k in row},
            )
            for row in data["entries"]
        ],
    )
    # the order of registration tells teams of one name apart: keep it
    _keep_created_at(
        Entry, made, [row.get("registered_at") for row in data["entries"]], "registered_at"
    )
    for row, entry in zip(data["entries"], made, strict=True):
        entries.known[row["key"]] = entry
        if row["substitutes"]:
            entry.substitutes.set([players[key] for key in row["substitutes"]])

    made_games = _made(Game, [_game(row, teams, players) for row in data["games"]])
    _keep_created_at(Game, made_games, [row.get("created_at") for row in data["games"]])
    hands: list[Hand] = []
    hand_rows: list[Mapping[str, Any]] = []
    for row, game in zip(data["games"], made_games, strict=True):
        games.known[row["key"]] = game
        for hand in row["hands"]:
            fields = {k: hand[k] for k in exports.HAND_FIELDS if k in hand and k != "created_at"}
            hands.append(Hand(game=game, **fields))
            hand_rows.append(hand)
    _made(
        TotalsRevision,
        [
            TotalsRevision(game=game, **revision)
            for row, game in zip(data["games"], made_games, strict=True)
            for revision in row.get("totals_revisions", ())
        ],
    )
    hands = _made(Hand, hands)
    _keep_created_at(Hand, hands, [row.get("created_at") for row in hand_rows])
    _made(
        HandRevision,
        [
            HandRevision(hand=hand, **revision)
            for hand, row in zip(hands, hand_rows, strict=True)
            for revision in row["revisions"]
        ],
    )
    for row in data["stages"]:
        _stage(tournament, row, entries, games)
    for stage in tournament.stages.exclude(status=Stage.Status.PENDING):
        standings_recompute(stage_id=stage.pk, force=True)
    if tournament.public:
        from tournaments.tasks import ratings_update_tournament

        transaction.on_commit(lambda: ratings_update_tournament.delay(tournament.pk))
    return tournament


def _game(row: Mapping[str, Any], teams: _Keys, players: _Keys) -> Game:
    fields = {k: row[k] for k in exports.GAME_FIELDS if k in row and k != "created_at"}
    seats = {f"seat_{i}": players[key] for i, key in enumerate(row["seats"])}
    return Game(team_a=teams[row["team_a"]], team_b=teams[row["team_b"]], **seats, **fields)


def _stage(tournament: Tournament, row: Mapping[str, Any], entries: _Keys, games: _Keys) -> Stage:
    stage = Stage.objects.create(
        tournament=tournament, **{k: row[k] for k in exports.STAGE_FIELDS if k in row}
    )
    pools = _by_key(
        row["pools"],
        _made(Pool, [Pool(stage=stage, number=p["number"], name=p["name"]) for p in row["pools"]]),
    )
    rounds = _by_key(
        row["rounds"],
        _made(
            Round,
            [Round(stage=stage, **{k: r[k] for k in exports.ROUND_FIELDS}) for r in row["rounds"]],
        ),
    )
    _made(
        StageEntry,
        [
            StageEntry(
                stage=stage, entry=entries[se["entry"]], pool=pools[se["pool"]], seed=se["seed"]
            )
            for se in row["stage_entries"]
        ],
    )
    matches = _made(
        Match,
        [
            Match(
                stage=stage,
                round=rounds[m["round"]],
                pool=pools[m["pool"]],
                key=m["bracket_key"],
                home=entries.get(m["home"]),
                away=entries.get(m["away"]),
                winner=entries.get(m["winner"]),
                **{k: m[k] for k in exports.MATCH_FIELDS if k in m},
            )
            for m in row["matches"]
        ],
    )
    _made(
        MatchGame,
        [
            MatchGame(
                match=match,
                game=games[link["game"]],
                **{k: link[k] for k in exports.MATCH_GAME_FIELDS if k in link},
            )
            for m, match in zip(row["matches"], matches, strict=True)
            for link in m["games"]
        ],
    )
    return stage


def _by_key(rows: Sequence[Mapping[str, Any]], made: Sequence[Any]) -> dict[int | None, Any]:
    """The rows made, by the key the document gives them (None: none)."""
    found: dict[int | None, Any] = {row["key"]: item for row, item in zip(rows, made, strict=True)}
    found[None] = None
    return found
