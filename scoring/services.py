"""Writes of the scoring app: every change to players, teams, games, hands and disputes.

Each function takes keyword-only typed arguments, validates, runs in one transaction and, for
anything that touches a game's hands, locks the game row first (``select_for_update``) so two
score-pads never interleave. Entering a hand, the act every table repeats all evening, is
optimistic instead: it writes only if the game is still at the version it read (see
:func:`hand_record`); every other write to a game moves its version on.

The rules are the engine's: entries are parsed and scored by :mod:`scoring.engine`, and the
game's totals, dealer, forced call, end and winner always come from ``game_progress`` over the
hands that count. Engine errors (:class:`EngineError`) propagate
unchanged (they name the field); other refusals raise the application errors of
:mod:`tarabish_site.api.errors`.

After a commit that changes a game's result, :data:`scoring.signals.game_result_changed` is sent.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, models, transaction
from django.dispatch import Signal
from django.utils import timezone

from scoring import signals
from scoring.engine import (
    PRESETS,
    Accusation,
    EngineError,
    HandResult,
    HandSummary,
    InvalidEntry,
    MisplayCall,
    Ruleset,
    Suit,
    TrickRecord,
    adjudicate,
    check_forced_call,
    choose_first_dealer,
    dealer_of_hand,
    derive_card_points,
    forced_call,
    game_progress,
    parse_card,
    preset,
    score_misplay,
    score_summary,
    score_tricks,
    team_of,
)
from scoring.engine import GameProgress as EngineGameProgress
from scoring.engine.game import game_progress_after
from scoring.models import (
    CUSTOM_RULESET,
    Game,
    Hand,
    HandRevision,
    MisplayDispute,
    Player,
    Side,
    Team,
)
from tarabish_site import rows
from tarabish_site.api.errors import (
    Conflict,
    NotAllowed,
    NotFound,
    PreconditionFailed,
    ValidationFailed,
)
from tarabish_site.api.versioning import IF_MATCH

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

    AnyUser = AbstractBaseUser | AnonymousUser

DIRECT_PERMISSION = "scoring.direct_games"
SIDES = (Side.TEAM_A, Side.TEAM_B)


# ----------------------------------------------------------------------------- permissions


def user_can_direct(user: AnyUser | None, game: Game | None = None) -> bool:
    """Whether ``user`` is a director (reopens games, rules on disputes, corrects the hands of
    finished games): of every game, or with ``game``, of that one.

    Directors of every game are staff accounts and accounts given the ``scoring.direct_games``
    permission. Another app may make someone the director of some games only (a tournament's
    directors direct its match games): it is asked through ``signals.game_directed_by``, only
    when a game is given and the user directs no game otherwise.
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_staff", False):
        return True
    has_perm = getattr(user, "has_perm", None)
    if has_perm is not None and has_perm(DIRECT_PERMISSION):
        return True
    if game is None or game.pk is None:
        return False
    answers = signals.game_directed_by.send(sender=Game, game=game, user=user)
    return any(bool(answer) for _receiver, answer in answers)


def user_can_keep_score(user: AnyUser | None, game: Game) -> bool:
    """Whether ``user`` may write to ``game``: one of its scorekeepers, or its director.

    The cheapest answers come first (the game's creator and staff need no query; a
    scorekeeper one; the director permission two, and a director of the game's tournament one
    more), since every hand entered asks this.
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if game.created_by_id == user.pk or getattr(user, "is_staff", False):
        return True
    return game.scorekeepers.filter(pk=user.pk).exists() or user_can_direct(user, game)


def game_owner_page(game: Game) -> str:
    """The page of the app that runs ``game`` (a tournament match), or "" for a game of its own:
    the first answer to :data:`scoring.signals.game_owner_page`."""
    return _first_answer(signals.game_owner_page, game)


def _first_answer(signal: Signal, game: Game) -> str:
    """The first answer a receiver of ``signal`` gives about ``game``, as text, or ""."""
    for _receiver, answer in signal.send(sender=Game, game=game):
        if answer:
            return str(answer)
    return ""


def game_owner_next(game: Game) -> str:
    """What follows ``game``, over, in the app that runs it (its match's next game, or the
    match or its stage over), in words for the way back there; "" for a game of its own: the
    first answer to :data:`scoring.signals.game_owner_next`."""
    return _first_answer(signals.game_owner_next, game)


def hand_change_refused_why(user: AnyUser | None, game: Game) -> str:
    """Why ``user`` may not correct or dispute the hands of ``game``, in words for them, or ""
    when they may: a running game's scorekeepers and directors, a finished game's directors
    (a change can undo or change its result), while no other app holds its result as final."""
    if game.status == Game.Status.ABANDONED:
        return f"game {game.pk} was ended early: a director reopens it before its hands change"
    if game.status == Game.Status.IN_PROGRESS:
        if user_can_keep_score(user, game):
            return ""
        return "only this game's scorekeepers and directors change its hands"
    if not user_can_direct(user, game):
        return (
            f"game {game.pk} is finished: only a director corrects or disputes its hands, "
            "since that can change its result"
        )
    return result_final_why(game)


def user_can_see(user: AnyUser | None, game: Game) -> bool:
    """Whether ``user`` may follow ``game``: anyone a public game, and a private one only its
    scorekeepers and directors (who may write to it)."""
    return game.public or user_can_keep_score(user, game)


# ----------------------------------------------------------------------------- helpers


def _required_text(value: str, field: str, what: str, max_length: int | None = None) -> str:
    text = (value or "").strip()
    if not text:
        raise ValidationFailed(f"{what} is required", fields={field: [f"{what} is required"]})
    if max_length is not None and len(text) > max_length:
        message = f"{what} is at most {max_length} characters"
        raise ValidationFailed(message, fields={field: [message]})
    return text


def _game_for_update(game: Game | int) -> Game:
    """The game row, locked until the end of the transaction. The game is about to change, so
    this process forgets the game as it last entered a hand to it."""
    pk = game.pk if isinstance(game, Game) else game
    connection = transaction.get_connection()
    _games_written.forget(pk, connection)
    if connection.features.has_select_for_update:
        found = rows.locked(Game, pk, connection)
    else:
        found = Game.objects.filter(pk=pk).first()
    if found is None:
        raise NotFound(f"game {pk} does not exist")
    refuse_if_result_final(found)
    return found


def result_final_why(game: Game) -> str:
    """Why another app holds ``game``'s result as final (a finished tournament's match games, or
    a stage's once a later stage started from its results), or "": asked through
    ``signals.game_result_final``."""
    return _first_answer(signals.game_result_final, game)


def refuse_if_result_final(game: Game) -> None:
    """Refuse (409) a change to a game whose result another app holds as final (see
    :func:`result_final_why`)."""
    message = result_final_why(game)
    if message:
        raise Conflict(message, code="result_final", fields={"game": [message]})


def _copy_model(source: models.Model, target: object) -> None:
    """Let the caller's object see what the service wrote (no query)."""
    if target is source or not isinstance(target, type(source)):
        return
    for field in source._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))


_copy_state = _copy_model


def _on_commit_result_changed(game_id: int) -> None:
    transaction.on_commit(
        lambda: signals.game_result_changed.send(sender=Game, game_id=game_id),
    )


def _refuse_unless_director(by: User | None, game: Game, doing: str) -> None:
    """Acts of ``game``'s directors: ``by`` None is the service itself (tasks, demo, tournament
    manager)."""
    if by is not None and not user_can_direct(by, game):
        message = f"only a director may {doing}"
        raise NotAllowed(message, code="director_only", fields={"by": [message]})


def _refuse_if_changed(game: Game, expected_version: int | None) -> None:
    """Refuse an act on a game that changed since the actor read it (a hand another score-pad
    entered, say): 412 with the version each side has. ``None`` is a caller that read nothing
    and acts on the game as it is (a task, the demo, a director's bulk action)."""
    _refuse_stale(f"game {game.pk}", game.version, expected_version, "do this")


def _refuse_stale(what: str, version: int, expected_version: int | None, doing: str) -> None:
    """412 (named at ``If-Match``) when ``what`` is at ``version`` but was read at another."""
    if expected_version is not None and version != expected_version:
        message = (
            f"{what} changed since you read it: it is at version {version}, you acted on "
            f"version {expected_version}. Look at it again before you {doing}."
        )
        raise PreconditionFailed(message, fields={IF_MATCH: [message]})


def _refuse_unless_running(game: Game, doing: str) -> None:
    if game.status != Game.Status.IN_PROGRESS:
        state = "finished" if game.status == Game.Status.FINISHED else "ended early"
        message = f"game {game.pk} is {state}: {doing} is not possible"
        if game.status == Game.Status.FINISHED:
            message += " unless a director reopens it"
        raise ValidationFailed(message, code="game_over", fields={"game": [message]})


# ----------------------------------------------------------------------------- players, teams


_WHITESPACE = re.compile(r"\s+")
#: Invisible characters a name never needs (zero-width space, word joiner, byte order mark,
#: soft hyphen...): every format character but the zero-width (non-)joiner some scripts spell with.
_KEPT_FORMAT = frozenset("\u200c\u200d")


def name_normalised(text: str) -> str:
    """A name as it is stored and matched: composed (NFC, so "e" and a combining accent is
    "é"), invisible format characters dropped, every run of whitespace (a no-break space, a
    new line...) one space, trimmed. Names that look the same are then the same."""
    composed = unicodedata.normalize("NFC", text or "")
    visible = "".join(c for c in composed if c in _KEPT_FORMAT or unicodedata.category(c) != "Cf")
    return _WHITESPACE.sub(" ", visible).strip()


def name_refused_why(name: str) -> str:
    """Why the (normalised) ``name`` cannot be a name, in words, or "": it holds a control
    character, or nothing visible."""
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "cannot hold control characters"
    if name and all(c in _KEPT_FORMAT or unicodedata.category(c)[0] in "MZ" for c in name):
        return "needs at least one visible character"
    return ""


def _name_checked(value: str, field: str, what: str, max_length: int) -> str:
    name = name_normalised(value)
    if not name and (value or "").strip():
        message = f"{what} needs at least one visible character"
        raise ValidationFailed(message, fields={field: [message]})
    why = name_refused_why(name)
    if why:
        message = f"{what} {why}"
        raise ValidationFailed(message, fields={field: [message]})
    return _required_text(name, field, what, max_length)


def player_named(display_name: str, community: str = "") -> Player | None:
    """The player of this name in this community, whatever the case each was typed in: "w ann"
    of "sydney", typed on a phone, is W Ann of Sydney, not a second player. Names are
    compared as :func:`name_normalised` stores them."""
    return (
        Player.objects.filter(
            display_name__iexact=name_normalised(display_name),
            community__iexact=name_normalised(community),
        )
        .order_by("pk")
        .first()
    )


@transaction.atomic
def player_create(*, display_name: str, community: str = "", user: User | None = None) -> Player:
    """A new player; the name (normalised, :func:`name_normalised`) must be new in its
    community (in any case)."""
    name = _name_checked(display_name, "display_name", "a display name", 100)
    community = name_normalised(community)
    why = name_refused_why(community)
    if why:
        raise ValidationFailed(f"a community {why}", fields={"community": [f"a community {why}"]})
    if len(community) > 100:
        raise ValidationFailed(
            "a community is at most 100 characters",
            fields={"community": ["a community is at most 100 characters"]},
        )
    existing = player_named(name, community)
    if existing is not None:
        message = f'there is already a player "{existing}" (player {existing.pk})'
        raise Conflict(message, code="player_exists", fields={"display_name": [message]})
    if user is not None and Player.objects.filter(user=user).exists():
        message = "this user account is already linked to a player"
        raise Conflict(message, code="user_has_player", fields={"user": [message]})
    return Player.objects.create(display_name=name, community=community, user=user)


def team_find(*, player_one: Player, player_two: Player) -> Team | None:
    """The team of this pair (in either order), if there is one."""
    for team in Team.objects.filter(
        player_one__in=(player_one, player_two), player_two__in=(player_one, player_two)
    ):
        return team
    return None


@transaction.atomic
def team_create(*, player_one: Player, player_two: Player, name: str = "") -> Team:
    """A partnership of two players. A pair is one team, whatever the order."""
    if player_one.pk == player_two.pk:
        message = "a team is two different players"
        raise ValidationFailed(message, fields={"player_two": [message]})
    existing = team_find(player_one=player_one, player_two=player_two)
    if existing is not None:
        message = (
            f'{player_one} and {player_two} are already team "{existing}" (team {existing.pk})'
        )
        raise Conflict(message, code="team_exists", fields={"player_two": [message]})
    name = (name or "").strip() or f"{player_one.display_name} & {player_two.display_name}"
    if len(name) > 120:
        raise ValidationFailed(
            "a team name is at most 120 characters",
            fields={"name": ["a team name is at most 120 characters"]},
        )
    try:
        with transaction.atomic():
            return Team.objects.create(name=name, player_one=player_one, player_two=player_two)
    except IntegrityError:
        message = f"{player_one} and {player_two} are already a team"
        raise Conflict(message, code="team_exists", fields={"player_two": [message]}) from None


# ----------------------------------------------------------------------------- games


def _ruleset_choice(
    ruleset: Ruleset | Mapping[str, Any] | None, ruleset_preset: str | None
) -> tuple[Ruleset, str]:
    """(ruleset, preset slug or "custom") from a preset slug and/or an explicit ruleset."""
    if ruleset is None:
        slug = ruleset_preset or "cape-breton-standard"
        return preset(slug), slug
    rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset.from_json(ruleset)
    if ruleset_preset and ruleset_preset != CUSTOM_RULESET and preset(ruleset_preset) == rules:
        return rules, ruleset_preset
    for slug, candidate in PRESETS.items():
        if candidate == rules:
            return rules, slug
    return rules, CUSTOM_RULESET


def _check_seats(
    team_a: Team,
    team_b: Team,
    seats: Sequence[Player],
    substitutes: Mapping[int, Team] | None = None,
) -> None:
    """Four different players, each team's two opposite each other. A substitute (a player
    id in ``substitutes``, mapped to the team they sit in for) may take a team's seat."""
    if len(seats) != 4:
        raise ValidationFailed(
            "a table has four seats", fields={"seats": ["give the four players in seat order"]}
        )
    if team_a.pk == team_b.pk:
        message = "a game is between two different teams"
        raise ValidationFailed(message, fields={"team_b": [message]})
    shared = team_a.player_ids & team_b.player_ids
    if shared:
        message = "the two teams share a player: a player sits in one seat only"
        raise ValidationFailed(message, fields={"team_b": [message]})
    if len({p.pk for p in seats}) != 4:
        message = "a player sits in one seat only: give four different players"
        raise ValidationFailed(message, code="bad_seats", fields={"seats": [message]})
    for side, team, team_seats in (("team_a", team_a, (0, 2)), ("team_b", team_b, (1, 3))):
        allowed = team.player_ids | {
            pid for pid, sub_team in (substitutes or {}).items() if sub_team.pk == team.pk
        }
        sitting = {seats[s].pk for s in team_seats}
        if not sitting <= allowed:
            message = (
                f'seats {team_seats[0]} and {team_seats[1]} are team "{team}" '
                f"({side}): its two players (or a substitute named for it) sit opposite "
                "each other there"
            )
            raise ValidationFailed(
                message,
                code="bad_seats",
                fields={f"seats.{s}": [message] for s in team_seats if seats[s].pk not in allowed}
                or {f"seats.{team_seats[1]}": [message]},
            )


@transaction.atomic
def game_create(
    *,
    team_a: Team,
    team_b: Team,
    seats: Sequence[Player] | None = None,
    ruleset: Ruleset | Mapping[str, Any] | None = None,
    ruleset_preset: str | None = None,
    first_dealer: int | None = None,
    table: str = "",
    created_by: User | None = None,
    scorekeepers: Iterable[User] = (),
    substitutes: Mapping[int, Team] | None = None,
    public: bool = True,
) -> Game:
    """A new game at a table; anyone may follow it unless ``public`` is false (then only its
    scorekeepers and directors see it).

    ``team_a`` sits at seats 0 and 2, ``team_b`` at seats 1 and 3; ``seats`` gives the four
    players clockwise (default: team A's first player at seat 0, team B's first at seat 1).
    ``substitutes`` maps the id of a player sitting in for a team to that team (the caller,
    e.g. a tournament, decides who may substitute); anyone else must be one of the team's.
    The ruleset is a preset by slug, or an explicit ruleset (a preset's slug is kept when it
    matches one). The first dealer may be given now, or entered / flipped later.
    """
    if seats is None:
        seats = (team_a.player_one, team_b.player_one, team_a.player_two, team_b.player_two)
    seats = tuple(seats)
    _check_seats(team_a, team_b, seats, substitutes)
    rules, slug = _ruleset_choice(ruleset, ruleset_preset)
    if first_dealer is not None and first_dealer not in (0, 1, 2, 3):
        message = f"first dealer must be a seat 0 to 3, not {first_dealer!r}"
        raise ValidationFailed(message, fields={"first_dealer": [message]})
    table = (table or "").strip()
    if len(table) > 60:
        raise ValidationFailed(
            "a table label is at most 60 characters",
            fields={"table": ["a table label is at most 60 characters"]},
        )
    game = Game(
        team_a=team_a,
        team_b=team_b,
        seat_0=seats[0],
        seat_1=seats[1],
        seat_2=seats[2],
        seat_3=seats[3],
        ruleset=rules.to_json(),
        ruleset_preset=slug,
        table=table,
        created_by=created_by,
        public=bool(public),
    )
    if first_dealer is not None:
        game.first_dealer = first_dealer
        game.first_dealer_method = Game.FirstDealerMethod.ENTERED
    _apply_progress(game, game_progress(rules, first_dealer or 0, []), bump=False)
    game.save()
    keepers = {u.pk: u for u in scorekeepers}
    if created_by is not None:
        keepers.setdefault(created_by.pk, created_by)
    if keepers:
        game.scorekeepers.add(*keepers.values())
    return game


@transaction.atomic
def game_public_set(
    *, game: Game, public: bool, by: User | None = None, expected_version: int | None = None
) -> Game:
    """Let anyone follow the game (``public``), or only its scorekeepers and directors. A game
    another app runs (a tournament's match game) is as public as what runs it, and is refused."""
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    if game_owner_page(locked):
        message = (
            f"game {locked.pk} is as public as the tournament it is played for: change the "
            "tournament instead"
        )
        raise Conflict(message, code="game_owned", fields={"public": [message]})
    if locked.public != public:
        locked.public = public
        locked.version += 1
        locked.save(update_fields=["public", "version", "updated_at"])
    _copy_state(locked, game)
    return locked


def games_public_set(*, games: models.QuerySet[Game], public: bool) -> int:
    """Make these games public or private at once (the games of a tournament follow it); each
    game that changes gets a new version. Returns how many changed."""
    changing = games.exclude(public=public)
    return changing.update(
        public=public, version=models.F("version") + 1, updated_at=timezone.now()
    )


def games_scorekeepers_remove(*, games: models.QuerySet[Game], user_ids: Collection[int]) -> int:
    """Take these accounts off the scorekeepers of these games, and off being the ones who
    started them, so that nothing left gives them the right to write to the games (a
    tournament's director taken off its list, from its match games). Each game started by one
    of them gets a new version, so a copy of it kept by any process is read again before its
    next hand. Returns how many games changed starter."""
    if not user_ids:
        return 0
    ids = list(games.values_list("pk", flat=True))
    Game.scorekeepers.through.objects.filter(game_id__in=ids, user_id__in=user_ids).delete()
    return Game.objects.filter(pk__in=ids, created_by_id__in=user_ids).update(
        created_by=None, version=models.F("version") + 1, updated_at=timezone.now()
    )


def _refuse_first_dealer_change(game: Game) -> None:
    if game.hands.active().exists():
        message = "the first dealer cannot change once hands are entered"
        raise ValidationFailed(message, code="hands_entered", fields={"first_dealer": [message]})


@transaction.atomic
def game_first_dealer_set(
    *, game: Game, seat: int, by: User | None = None, expected_version: int | None = None
) -> Game:
    """Enter the first dealer chosen at the table (before the first hand)."""
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    _refuse_unless_running(locked, "choosing the first dealer")
    if seat not in (0, 1, 2, 3) or isinstance(seat, bool):
        message = f"first dealer must be a seat 0 to 3, not {seat!r}"
        raise ValidationFailed(message, fields={"first_dealer": [message]})
    _refuse_first_dealer_change(locked)
    locked.first_dealer = seat
    locked.first_dealer_method = Game.FirstDealerMethod.ENTERED
    locked.first_dealer_flips = []
    _apply_progress(locked, game_progress(locked.engine_ruleset, seat, []))
    locked.save()
    _copy_state(locked, game)
    return locked


@transaction.atomic
def game_first_dealer_flip(
    *,
    game: Game,
    by: User | None = None,
    rng: random.Random | None = None,
    expected_version: int | None = None,
) -> Game:
    """Choose the first dealer by the ruleset's rule (flip for jacks or high card), and keep
    the cards turned over. Refused once a first dealer is chosen."""
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    _refuse_unless_running(locked, "choosing the first dealer")
    if locked.first_dealer is not None:
        message = f"the first dealer is already chosen: seat {locked.first_dealer}"
        raise Conflict(message, code="first_dealer_chosen", fields={"first_dealer": [message]})
    rules = locked.engine_ruleset
    drawn = choose_first_dealer(rules, rng or random.SystemRandom())
    locked.first_dealer = drawn.dealer
    locked.first_dealer_method = (
        Game.FirstDealerMethod.HIGH_CARD
        if rules.first_dealer == "high_card"
        else Game.FirstDealerMethod.FLIP_FOR_JACKS
    )
    locked.first_dealer_flips = drawn.to_json()["flips"]
    _apply_progress(locked, game_progress(rules, drawn.dealer, []))
    locked.save()
    _copy_state(locked, game)
    return locked


@transaction.atomic
def game_end_early(
    *, game: Game, by: User | None = None, reason: str, expected_version: int | None = None
) -> Game:
    """Stop a running game before anyone reaches the target; it then has no winner."""
    reason = _required_text(reason, "reason", "a reason")
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    _refuse_unless_running(locked, "ending it early")
    locked.status = Game.Status.ABANDONED
    locked.winner = ""
    locked.finished_at = timezone.now()
    locked.ended_reason = reason
    locked.version += 1
    locked.save()
    _on_commit_result_changed(locked.pk)
    _copy_state(locked, game)
    return locked


@transaction.atomic
def game_reopen(*, game: Game, by: User | None = None, expected_version: int | None = None) -> Game:
    """Reopen a finished or ended-early game (a director's act: anyone else is refused).
    Its result then follows the hands again: a game whose hands still end it is finished
    again by the next correction or undo."""
    _refuse_unless_director(by, game, "reopen a game")
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    if locked.status == Game.Status.IN_PROGRESS:
        message = f"game {locked.pk} is not finished: there is nothing to reopen"
        raise ValidationFailed(message, code="game_running", fields={"game": [message]})
    locked.status = Game.Status.IN_PROGRESS
    locked.winner = ""
    locked.finished_at = None
    locked.ended_reason = ""
    locked.version += 1
    locked.save()
    _on_commit_result_changed(locked.pk)
    _copy_state(locked, game)
    return locked


# ----------------------------------------------------------------------------- scoring entries


def _entry_object(entry: object) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise InvalidEntry("a hand entry must be an object", code="bad_json", field="entry")
    return dict(entry)


def _team_number(value: object) -> int:
    names = {"team_a": 0, "a": 0, "team_b": 1, "b": 1}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise InvalidEntry(
        f'the team must be "team_a" or "team_b", not {value!r}',
        code="bad_team",
        field="card_points.team",
    )


def _with_dealer(data: dict[str, Any], dealer: int, number: int) -> dict[str, Any]:
    given = data.get("dealer")
    if given is not None and given != dealer:
        raise InvalidEntry(
            f"hand {number} is dealt by seat {dealer}, not seat {given!r}",
            code="wrong_dealer",
            field="dealer",
        )
    data["dealer"] = dealer
    return data


def _summary_of(entry: Mapping[str, Any], dealer: int, number: int) -> HandSummary:
    """The engine's score-sheet line from a summary entry.

    Card points may be both teams' (``[92, 70]``) or one team's count
    (``{"team": "team_b", "points": 70}``), the other derived by the engine.
    """
    data = _with_dealer(_entry_object(entry), dealer, number)
    card_points = data.get("card_points")
    if isinstance(card_points, Mapping):
        if data.get("thrown_in_by") is not None:
            raise InvalidEntry(
                "a thrown-in hand needs both teams' card points as won when it was thrown in",
                code="card_points_both",
                field="card_points",
            )
        team = _team_number(card_points.get("team"))
        points = card_points.get("points")
        if not isinstance(points, int):
            raise InvalidEntry(
                f"card points must be a whole number, not {points!r}",
                code="card_points_impossible",
                field="card_points.points",
            )
        no_trump = data.get("trump") is None and data.get("caller") is not None
        data["card_points"] = list(derive_card_points(team, points, trump_is_none=no_trump))
    return HandSummary.from_json(data)


def _record_of(entry: Mapping[str, Any], dealer: int, number: int) -> tuple[TrickRecord, Any]:
    """The engine's trick record from a tricks entry, and the misplay call it carries."""
    data = _with_dealer(_entry_object(entry), dealer, number)
    misplay = data.pop("misplay", None)
    return TrickRecord.from_json(data), misplay


def _score(
    rules: Ruleset,
    *,
    entry_kind: str,
    entry: Mapping[str, Any],
    dealer: int,
    number: int,
    dispute: MisplayDispute | None = None,
) -> HandResult:
    """The result of a hand: its entry scored by the engine, with a dispute's decision."""
    decision = None if dispute is None else dispute.decision
    if entry_kind == Hand.EntryKind.SUMMARY:
        summary = _summary_of(entry, dealer, number)
        if decision is None or dispute is None:
            return score_summary(rules, summary)
        call = MisplayCall(called_by=dispute.called_by, proven=decision, accused=dispute.accused)
        stopped = HandSummary(
            dealer=summary.dealer,
            caller=summary.caller,
            trump=summary.trump,
            card_points=None,
            runs=summary.runs,
            run_points=summary.run_points,
            run_counts=summary.run_counts,
            bella_seat=summary.bella_seat,
            misplay=call,
        )
        return score_misplay(rules, stopped, call)
    if entry_kind == Hand.EntryKind.TRICKS:
        record, misplay = _record_of(entry, dealer, number)
        if decision is not None and dispute is not None:
            call = MisplayCall(dispute.called_by, decision, dispute.accused)
            return score_misplay(rules, record, call)
        if misplay is not None:
            return score_misplay(rules, record, MisplayCall.from_json(misplay))
        return score_tricks(rules, record)
    raise InvalidEntry(
        f'entry kind must be "summary" or "tricks", not {entry_kind!r}',
        code="bad_entry_kind",
        field="entry_kind",
    )


def _set_result(hand: Hand, result: HandResult) -> None:
    hand.dealer = result.dealer
    hand.caller = result.caller
    hand.trump = "" if result.trump is None else result.trump.value
    hand.outcome = result.outcome.value
    hand.points_a, hand.points_b = result.points
    hand.card_points_a, hand.card_points_b = result.card_points
    hand.run_points_a, hand.run_points_b = result.run_points
    hand.bella_points_a, hand.bella_points_b = result.bella_points
    hand.runs_counted_by = result.runs_counted_by
    hand.bella_seat = result.bella_seat
    hand.hand_total = result.hand_total
    hand.result = result.to_json()


def _apply_progress(game: Game, progress: EngineGameProgress, *, bump: bool = True) -> None:
    """Store the engine's view of the game on the row (status follows unless ended early)."""
    game.score_a, game.score_b = progress.totals
    game.hands_played = progress.hands_played
    game.next_dealer = None if game.first_dealer is None else progress.next_dealer
    game.forced_seat = progress.forced_seat
    if game.status != Game.Status.ABANDONED:
        if progress.over and progress.winner is not None:
            winner = SIDES[progress.winner]
            if game.status != Game.Status.FINISHED or game.winner != winner:
                game.finished_at = timezone.now()
            game.status = Game.Status.FINISHED
            game.winner = winner
        else:
            game.status = Game.Status.IN_PROGRESS
            game.winner = ""
            game.finished_at = None
    if bump:
        game.version += 1


def _progress(game: Game, rules: Ruleset, hands: Sequence[Hand]) -> EngineGameProgress:
    """``game_progress`` over these hands (in order), refusing hands after the game's end."""
    assert game.first_dealer is not None  # noqa: S101 - hands exist only after a first dealer
    results = [HandResult.from_json(h.result) for h in hands]
    try:
        return game_progress(rules, game.first_dealer, results)
    except InvalidEntry as exc:
        if exc.code != "game_over":
            raise
        over_after = next(
            i
            for i in range(1, len(results) + 1)
            if game_progress(rules, game.first_dealer, results[:i]).over
        )
        message = (
            f"with this change the game is over after hand {hands[over_after - 1].number}, "
            f"but hand {hands[over_after].number} follows: undo the later hands first"
        )
        raise ValidationFailed(
            message, code="game_over_before_last_hand", fields={"entry": [message]}
        ) from None


def _rerun(game: Game, rules: Ruleset, hands: list[Hand]) -> list[Hand]:
    """Recompute the running totals of ``hands`` and the game's state; return changed hands."""
    progress = _progress(game, rules, hands)
    changed = []
    for hand, (running_a, running_b) in zip(hands, progress.running, strict=True):
        if (hand.running_a, hand.running_b) != (running_a, running_b):
            hand.running_a, hand.running_b = running_a, running_b
            changed.append(hand)
    _apply_progress(game, progress)
    return changed


def _keep_recorded_version(hand: Hand) -> None:
    """Store the version a hand was entered as, before the hand first changes.

    Entering a hand writes no revision: until the hand changes, the hand itself is its first
    version (:meth:`Hand.recorded_revision`). Called with the hand as stored, before anything
    on it changes. A hand entered when the first version was still written with it has that
    row already, and keeps it."""
    if hand.version == 1:
        HandRevision.objects.bulk_create([hand.recorded_revision()], ignore_conflicts=True)


def _revision(hand: Hand, action: str, by: User | None, reason: str = "") -> HandRevision:
    """Store the hand's new version (after ``_keep_recorded_version`` kept the one before)."""
    return HandRevision.objects.create(
        hand=hand,
        version=hand.version,
        action=action,
        entry_kind=hand.entry_kind,
        entry=hand.entry,
        result=hand.result,
        reason=reason,
        changed_by=by,
    )


def _hand_exists(existing: Hand) -> Conflict:
    when = timezone.localtime(existing.created_at).strftime("%H:%M")
    message = (
        f"hand {existing.number} of game {existing.game_id} already exists "
        f"(entered at {when}, {existing.get_outcome_display()}, "
        f"{existing.points_a}-{existing.points_b}): correct it instead"
    )
    return Conflict(message, code="hand_exists", fields={"number": [message]})


# ----------------------------------------------------------------------------- hands


def _stored_progress(game: Game, rules: Ruleset) -> EngineGameProgress:
    """Where the game stands, read from its row: every write stores the engine's reading of
    the hands that count there (totals, hands played), so the hands themselves need not be read
    again. Once a total has reached the target only the hands tell whether they end the game
    (a reopened game; both teams over and level), so they are read and replayed then.
    ``running`` is left empty: only the totals after the next hand are needed."""
    assert game.first_dealer is not None  # noqa: S101 - checked by the callers
    totals = (game.score_a, game.score_b)
    if max(totals) >= rules.target:
        return _progress(game, rules, list(game.hands.active().order_by("number")))
    next_dealer = dealer_of_hand(game.first_dealer, game.hands_played + 1)
    seat, team = forced_call(rules, next_dealer, totals)
    return EngineGameProgress(
        totals=totals,
        running=(),
        hands_played=game.hands_played,
        next_dealer=next_dealer,
        forced_seat=seat,
        forced_team=team,
        over=False,
        winner=None,
    )


#: The columns of a game that entering a hand changes (see ``_apply_progress``).
_PROGRESS_FIELDS = (
    "score_a",
    "score_b",
    "hands_played",
    "next_dealer",
    "forced_seat",
    "status",
    "winner",
    "finished_at",
    "version",
    "updated_at",
)


#: Called with the hand and the game as they are about to be stored (every value final, the
#: hand's key not yet given); returns more new rows to write in the same statement.
AlsoWrite = Callable[[Hand, Game], Sequence[models.Model]]

#: How often entering a hand reads the game again when another write got in first.
_HAND_ATTEMPTS = 5


def hand_record(
    *,
    game: Game | int,
    entry_kind: str,
    entry: Mapping[str, Any],
    by: User | None = None,
    number: int | None = None,
    also_write: AlsoWrite | None = None,
    check: Callable[[Game], None] | None = None,
) -> Hand:
    """Enter the next hand of a game, as a score-sheet summary or a full trick record.

    ``number`` defaults to the next hand; a number that already exists is a :class:`Conflict`
    naming that hand (two score-pads entering the same hand: one wins, the other is told).
    The game's new state is the engine's ``game_progress_after`` from the state stored on
    the game row, so a hand costs the same whatever the number of hands before it.

    The hand is its own first version: no revision is written until it first changes
    (:meth:`Hand.recorded_revision`).

    Concurrency is optimistic: the hand is scored against the game as read, and written only
    if the game's ``version`` is still the one read (the hand and the game's new state in one
    statement on PostgreSQL, so one round trip and no transaction of its own; in a
    transaction elsewhere). When another write got in first, the game is read
    again and the hand scored again, so the answer is as if the row had been locked. A game
    given as a row read earlier is used as it is; it is read again before any refusal is
    final. ``also_write`` adds rows written with the hand, all or nothing (the response
    stored for an ``Idempotency-Key``). ``check`` is called with every game row read here
    (not the one given) before the hand is scored against it, and raises to refuse: a caller
    that checked its permission against a game remembered from an earlier write
    (:func:`game_last_entered`) checks it again against the row as it is.
    """
    given = game if isinstance(game, Game) else None
    pk = game.pk if isinstance(game, Game) else game
    snapshot = given if given is not None and not given._state.adding else None
    connection = transaction.get_connection()
    for _attempt in range(_HAND_ATTEMPTS):
        fresh = snapshot is None
        current = _game_read(pk) if snapshot is None else snapshot
        snapshot = None  # every later attempt reads the game again
        if fresh and check is not None:
            check(current)
        read = (current.version, current.updated_at)
        try:
            hand = _hand_next(current, entry_kind=entry_kind, entry=entry, by=by, number=number)
        except (ValidationFailed, Conflict):
            if fresh:
                raise
            continue  # the refusal may come from an old row: read it again and see
        if _write_new_hand(current, hand, read, also_write):
            _games_written.remember_on_commit(current, connection)
            if current.status != Game.Status.IN_PROGRESS:
                # Only the hand that ends the game changes its result; the hands before it
                # move the score of a game still being played, which no result depends on.
                _on_commit_result_changed(pk)
            if given is not None:
                _copy_state(current, given)
            return hand
        _games_written.forget(pk, connection)
    message = f"game {pk} keeps changing while this hand is entered: try again"
    raise Conflict(message, code="game_busy", fields={"game": [message]})


#: Games as this process last entered a hand to them (see ``game_last_entered``).
_games_written = rows.Remembered(Game)


def game_last_entered(pk: int) -> Game | None:
    """The game as this process left it when it last entered one of its hands, if it still
    remembers it, to give to :func:`hand_record` instead of reading the game: a score-pad
    enters hand after hand of one game, and its next hand comes to this process again about
    one time in as many as there are worker processes (always, with one).

    It may be out of date (another process or a director changed the game since), which
    ``hand_record`` finds out as it writes, the write being conditional on the game's version
    and time of change: it then reads the game and scores the hand again. Nothing else may
    rely on it, least of all on a refusal based on it."""
    return _games_written.recall(pk, transaction.get_connection())


def forget_entered_games() -> None:
    """Forget every game remembered by :func:`game_last_entered` (the database was emptied
    or restored, and a key may name another game now)."""
    _games_written.clear()


def _game_read(pk: int) -> Game:
    found = rows.by_pk(Game, pk, transaction.get_connection())  # every hand entered starts here
    if found is None:
        raise NotFound(f"game {pk} does not exist")
    return found


def _hand_next(
    game: Game,
    *,
    entry_kind: str,
    entry: Mapping[str, Any],
    by: User | None,
    number: int | None,
) -> Hand:
    """The next hand of ``game`` as read, scored; ``game`` is moved on to its state after the
    hand (in memory). Every refusal comes before anything changes."""
    _refuse_unless_running(game, "entering a hand")
    if game.first_dealer is None:
        message = "choose the first dealer before entering the first hand"
        raise ValidationFailed(message, code="no_first_dealer", fields={"first_dealer": [message]})
    next_number = game.hands_played + 1
    if number is None:
        number = next_number
    elif isinstance(number, bool) or not isinstance(number, int) or number < 1:
        message = f"hand number must be a whole number from 1, not {number!r}"
        raise ValidationFailed(message, fields={"number": [message]})
    elif number < next_number:
        existing = Hand.objects.active().filter(game=game, number=number).first()
        if existing is None:  # undone since the game was read
            message = f"hand {number} of game {game.pk} was undone since the game was read"
            raise Conflict(message, code="game_changed", fields={"number": [message]})
        raise _hand_exists(existing)
    elif number > next_number:
        message = f"the next hand of game {game.pk} is hand {next_number}, not hand {number}"
        raise ValidationFailed(message, code="hand_number_gap", fields={"number": [message]})
    rules = game.engine_ruleset
    before = _stored_progress(game, rules)
    if before.over:
        message = (
            f"the hands entered already end game {game.pk}: "
            "correct or undo a hand before entering another"
        )
        raise ValidationFailed(message, code="game_over", fields={"game": [message]})
    dealer = dealer_of_hand(game.first_dealer, number)
    result = _score(rules, entry_kind=entry_kind, entry=entry, dealer=dealer, number=number)
    check_forced_call(rules, dealer, before.totals, result.caller)
    progress = game_progress_after(rules, before, result)
    hand = Hand(game=game, number=number, entry_kind=entry_kind, entry=dict(entry), created_by=by)
    _set_result(hand, result)
    hand.running_a, hand.running_b = progress.totals
    _apply_progress(game, progress)
    return hand


def _write_new_hand(
    game: Game,
    hand: Hand,
    read: tuple[int, datetime],
    also_write: AlsoWrite | None,
) -> bool:
    """Insert the hand and store the game's new state, if the game is still the row read, at
    version and time of change ``read``; False (nothing written) when it is not.

    On PostgreSQL the writes are one statement: the game's conditional ``UPDATE`` first, and
    every insert takes its rows from it, so a game that moved on inserts nothing. Elsewhere
    they go through the ORM in one transaction.
    """
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        with transaction.atomic():
            values = {}
            for name in _PROGRESS_FIELDS:
                field = Game._meta.get_field(name)
                assert isinstance(field, models.Field)  # noqa: S101 - columns of the game
                values[field.attname] = field.pre_save(game, False)
            version, updated_at = read
            moved = Game.objects.filter(pk=game.pk, version=version, updated_at=updated_at).update(
                **values
            )
            if not moved:
                return False
            hand.save()
            for row in also_write(hand, game) if also_write else ():
                row.save()
        return True
    game_state = rows.update_row(game, connection, _PROGRESS_FIELDS)
    # The hand is the game's and made when the game changed: those values come from the
    # game's row, and each value travels once. The statement keeps under the 50 parameters
    # up to which the database driver caches the parsing of its SQL.
    hand.created_at = hand.updated_at = game.updated_at
    new_hand = rows.insert_row(
        hand,
        connection,
        expressions={"game_id": "g.id", "created_at": "g.updated_at", "updated_at": "g.updated_at"},
    )
    extra = (
        [rows.insert_row(row, connection) for row in also_write(hand, game)] if also_write else []
    )
    # Every primary key here is the column "id" (DEFAULT_AUTO_FIELD).
    sql = (
        f"WITH g AS (UPDATE {game_state.table} SET {game_state.set_sql()} "  # noqa: S608
        "WHERE id = %s AND version = %s AND updated_at = %s RETURNING id, updated_at), "
        f"h AS ({new_hand.select_sql('g')} RETURNING id)"
        + "".join(f", x{n} AS ({row.select_sql('g')})" for n, row in enumerate(extra))
        + " SELECT h.id FROM h"
    )
    params = [
        *game_state.params,
        game.pk,
        *read,
        *new_hand.params,
        *(param for row in extra for param in row.params),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        written = cursor.fetchone()
    if written is None:
        return False
    rows.mark_saved(hand, written[0], connection)
    return True


def _hand_for_update(hand: Hand | int) -> tuple[Game, Hand, list[Hand]]:
    """Lock the hand's game; return it, the hand as stored, and the game's counting hands."""
    hand_id = hand.pk if isinstance(hand, Hand) else hand
    game_id = Hand.objects.filter(pk=hand_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"hand {hand_id} does not exist")
    game = _game_for_update(game_id)
    hands = list(game.hands.active().order_by("number"))
    for h in hands:
        if h.pk == hand_id:
            return game, h, hands
    message = f"hand {hand_id} was undone: it no longer counts"
    raise ValidationFailed(message, code="hand_undone", fields={"hand": [message]})


def _deciding_dispute(hand: Hand) -> MisplayDispute | None:
    """The latest dispute on the hand whose verdict (or ruling) decides it."""
    for dispute in hand.disputes.exclude(status=MisplayDispute.Status.PENDING).order_by("-pk"):
        if dispute.decision is not None:
            return dispute
    return None


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    entry: Mapping[str, Any],
    reason: str,
    by: User | None = None,
    expected_version: int,
    entry_kind: str | None = None,
) -> Hand:
    """Correct a hand: a new version with the new entry; every later running total and the
    game's end and winner are recomputed (a correction can end, un-end or change a game).

    ``expected_version`` is the hand version the corrector saw; a newer one is
    :class:`PreconditionFailed`. The game row is locked, so corrections never interleave.
    """
    reason = _required_text(reason, "reason", "a reason for the correction")
    game, stored, hands = _hand_for_update(hand)
    if stored.version != expected_version:
        message = (
            f"hand {stored.number} was changed since you read it: it is at version "
            f"{stored.version}, you corrected version {expected_version}"
        )
        raise PreconditionFailed(message, fields={IF_MATCH: [message]})
    if game.status == Game.Status.ABANDONED:
        _refuse_unless_running(game, "correcting a hand")
    if game.status == Game.Status.FINISHED:
        # A correction can change or undo the result of a finished game: a director's act.
        _refuse_unless_director(by, game, "correct a hand of a finished game")
    kind = entry_kind or stored.entry_kind
    rules = game.engine_ruleset
    result = _score(
        rules,
        entry_kind=kind,
        entry=entry,
        dealer=stored.dealer,
        number=stored.number,
        dispute=_deciding_dispute(stored),
    )
    earlier = [h for h in hands if h.number < stored.number]
    check_forced_call(
        rules,
        stored.dealer,
        (earlier[-1].running_a, earlier[-1].running_b) if earlier else (0, 0),
        result.caller,
    )
    _keep_recorded_version(stored)
    stored.entry_kind = kind
    stored.entry = dict(entry)
    _set_result(stored, result)
    stored.version += 1
    changed = _rerun(game, rules, hands)
    stored.save()
    Hand.objects.bulk_update(
        [h for h in changed if h.pk != stored.pk], ["running_a", "running_b", "updated_at"]
    )
    _revision(stored, HandRevision.Action.CORRECTED, by, reason)
    game.save()
    _on_commit_result_changed(game.pk)
    _copy_model(stored, hand)
    return stored


class _RolledBack(Exception):
    """Raised to roll back a dry run after reading what the service would store."""


@dataclass(frozen=True)
class CorrectionPreview:
    """What :func:`hand_correct` would store: the hand's new result and the game after it (its
    score, end and winner), nothing written."""

    hand: Hand
    game: Game


def hand_correct_preview(
    *,
    hand: Hand,
    entry: Mapping[str, Any],
    reason: str,
    by: User | None = None,
    expected_version: int,
    entry_kind: str | None = None,
) -> CorrectionPreview:
    """A dry run of :func:`hand_correct`: the very same service, in a transaction always rolled
    back, so what it says can never disagree with the correction itself. Refuses what
    :func:`hand_correct` refuses, with the same errors; ``hand`` is left as it was."""
    try:
        with transaction.atomic():
            corrected = hand_correct(
                hand=Hand(pk=hand.pk),
                entry=entry,
                reason=reason,
                by=by,
                expected_version=expected_version,
                entry_kind=entry_kind,
            )
            after = Game.objects.get(pk=corrected.game_id)
            raise _RolledBack
    except _RolledBack:
        return CorrectionPreview(hand=corrected, game=after)


@transaction.atomic
def hand_undo_last(
    *,
    game: Game,
    by: User | None = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Hand:
    """Undo the last hand of a running game. The hand and its history are kept (marked undone),
    and its number can be entered again. ``expected_version`` is the game version the
    scorekeeper saw: a hand entered since by another score-pad is not undone unseen."""
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    _refuse_unless_running(locked, "undoing a hand")
    hands = list(locked.hands.active().order_by("number"))
    if not hands:
        message = f"game {locked.pk} has no hand to undo"
        raise ValidationFailed(message, code="no_hands", fields={"game": [message]})
    last = hands.pop()
    _keep_recorded_version(last)
    last.undone = True
    last.version += 1
    last.save(update_fields=["undone", "version", "updated_at"])
    _revision(last, HandRevision.Action.UNDONE, by, reason.strip())
    _rerun(locked, locked.engine_ruleset, hands)
    locked.save()
    _on_commit_result_changed(locked.pk)
    _copy_state(locked, game)
    return last


# ----------------------------------------------------------------------------- disputes


@dataclass(frozen=True)
class _Evidence:
    record: TrickRecord
    data: dict[str, Any]


def dispute_needs_evidence(hand: Hand) -> bool:
    """Whether a misplay called on ``hand`` must come with its trick record: a hand entered as
    a summary (every score-pad hand) has no tricks of its own for the engine to judge."""
    return hand.entry_kind != Hand.EntryKind.TRICKS


def _evidence(hand: Hand, evidence: Mapping[str, Any] | None) -> _Evidence:
    if evidence is None:
        if dispute_needs_evidence(hand):
            message = "a hand entered as a summary needs the trick record as evidence"
            raise ValidationFailed(
                message, code="evidence_required", fields={"evidence": [message]}
            )
        record, _ = _record_of(hand.entry, hand.dealer, hand.number)
    else:
        try:
            data = _with_dealer(_entry_object(evidence), hand.dealer, hand.number)
            data.pop("misplay", None)
            record = TrickRecord.from_json(data)
        except EngineError as exc:
            raise exc.nested("evidence") from None
        _refuse_other_hand(hand, record)
    return _Evidence(record, record.to_json())


def _refuse_other_hand(hand: Hand, record: TrickRecord) -> None:
    """Evidence must be the record of this hand: the same caller and trump as entered."""

    def caller_words(seat: int | None) -> str:
        return "nobody (all passed)" if seat is None else f"seat {seat}"

    def trump_words(letter: str) -> str:
        return Suit(letter).label if letter else "no trump"

    trump = "" if record.trump is None else record.trump.value
    if record.caller != hand.caller:
        field = "caller"
        what = (
            f"{caller_words(record.caller)} called, "
            f"hand {hand.number} says {caller_words(hand.caller)}"
        )
    elif trump != hand.trump:
        field = "trump"
        what = (
            f"the trump is {trump_words(trump)}, hand {hand.number} says {trump_words(hand.trump)}"
        )
    else:
        return
    message = f"this trick record is of another hand: in it {what}"
    raise ValidationFailed(
        message, code="evidence_other_hand", fields={f"evidence.{field}": [message]}
    )


@transaction.atomic
def dispute_open(
    *,
    hand: Hand,
    called_by: int,
    accused: int,
    trick: int,
    proof_card: str | None = None,
    evidence: Mapping[str, Any] | None = None,
    by: User | None = None,
) -> MisplayDispute:
    """Call a misplay on a hand. The engine judges it from the trick record (the hand's own
    when it was entered as tricks) in a Celery task started after commit. On a finished game
    the verdict can change the result, so only its directors call one there, as only they
    correct its hands."""
    game, stored, _ = _hand_for_update(hand)
    if game.status == Game.Status.ABANDONED:
        _refuse_unless_running(game, "disputing a hand")
    if game.status == Game.Status.FINISHED:
        _refuse_unless_director(by, game, "dispute a hand of a finished game")
    for field, seat in (("called_by", called_by), ("accused", accused)):
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            message = f"{field.replace('_', ' ')} must be a seat 0 to 3, not {seat!r}"
            raise ValidationFailed(message, fields={field: [message]})
    if called_by == accused:
        message = f"seat {called_by} cannot call a misplay on themselves: choose who is accused"
        raise ValidationFailed(message, code="accused_caller", fields={"accused": [message]})
    if team_of(called_by) == team_of(accused):
        message = f"seat {called_by} cannot call a misplay on seat {accused}: they are partners"
        raise ValidationFailed(message, code="accused_partner", fields={"accused": [message]})
    if isinstance(trick, bool) or not isinstance(trick, int) or not 1 <= trick <= 9:
        message = f"trick must be a trick number 1 to 9, not {trick!r}"
        raise ValidationFailed(message, fields={"trick": [message]})
    card = ""
    if proof_card:
        try:
            card = str(parse_card(proof_card))
        except EngineError as exc:
            raise exc.nested("proof_card") if exc.field is None else exc from None
    if stored.disputes.filter(status=MisplayDispute.Status.PENDING).exists():
        message = f"hand {stored.number} already has a misplay dispute waiting for its verdict"
        raise Conflict(message, code="dispute_pending", fields={"hand": [message]})
    proof = _evidence(stored, evidence)
    dispute = MisplayDispute.objects.create(
        hand=stored,
        called_by=called_by,
        accused=accused,
        trick=trick,
        proof_card=card,
        evidence=proof.data,
        created_by=by,
    )
    game.version += 1
    game.save(update_fields=["version", "updated_at"])

    from scoring.tasks import dispute_adjudicate as adjudicate_task

    adjudicate_task.delay_on_commit(dispute.pk)  # type: ignore[attr-defined]
    return dispute


def _dispute_for_update(dispute: MisplayDispute | int) -> tuple[Game, MisplayDispute]:
    pk = dispute.pk if isinstance(dispute, MisplayDispute) else dispute
    game_id = MisplayDispute.objects.filter(pk=pk).values_list("hand__game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"misplay dispute {pk} does not exist")
    game = _game_for_update(game_id)
    return game, MisplayDispute.objects.select_related("hand").get(pk=pk)


def _apply_disputes(game: Game, hand: Hand, by: User | None, note: str) -> None:
    """Rescore a hand after a dispute changed and recompute the game."""
    if hand.undone:
        return
    rules = game.engine_ruleset
    result = _score(
        rules,
        entry_kind=hand.entry_kind,
        entry=hand.entry,
        dealer=hand.dealer,
        number=hand.number,
        dispute=_deciding_dispute(hand),
    )
    if result.to_json() == hand.result:
        game.version += 1
        return
    hands = list(game.hands.active().order_by("number"))
    for i, h in enumerate(hands):
        if h.pk == hand.pk:
            hands[i] = hand
    _keep_recorded_version(hand)
    _set_result(hand, result)
    hand.version += 1
    changed = _rerun(game, rules, hands)
    hand.save()
    Hand.objects.bulk_update(
        [h for h in changed if h.pk != hand.pk], ["running_a", "running_b", "updated_at"]
    )
    _revision(hand, HandRevision.Action.DISPUTE, by, note)
    _on_commit_result_changed(game.pk)


@transaction.atomic
def dispute_adjudicate(*, dispute_id: int, rerun: bool = False) -> MisplayDispute:
    """Judge a dispute with the engine and let the hand follow the verdict.

    Idempotent: a dispute with a verdict is left as it is unless ``rerun`` asks to judge it
    again (a director's ruling is kept either way). A record the engine finds impossible is
    ``record_rejected`` with the engine's reason, and the hand is left as it was.
    """
    game, dispute = _dispute_for_update(dispute_id)
    if dispute.status != MisplayDispute.Status.PENDING and not rerun:
        return dispute
    rules = game.engine_ruleset
    accusation = Accusation(
        accused=dispute.accused,
        trick=dispute.trick,
        proof_card=parse_card(dispute.proof_card) if dispute.proof_card else None,
        called_by=dispute.called_by,
    )
    try:
        verdict = adjudicate(rules, TrickRecord.from_json(dispute.evidence), accusation)
    except EngineError as exc:
        dispute.status = MisplayDispute.Status.RECORD_REJECTED
        dispute.verdict = exc.to_json()
        dispute.reason = str(exc)
    else:
        dispute.status = (
            MisplayDispute.Status.PROVEN if verdict.proven else MisplayDispute.Status.NOT_PROVEN
        )
        dispute.verdict = verdict.to_json()
        dispute.reason = verdict.reason
    if dispute.ruling != MisplayDispute.Ruling.NONE and dispute.decision is None:
        # a rejected record leaves nothing to rule on
        dispute.ruling = MisplayDispute.Ruling.NONE
    dispute.adjudicated_at = timezone.now()
    dispute.version += 1
    dispute.save()
    try:
        with transaction.atomic():
            _apply_disputes(
                game, dispute.hand, None, f"misplay dispute {dispute.pk}: {dispute.reason}"
            )
    except ValidationFailed as exc:
        # The verdict stands; the hand could not follow it (the game would have ended before
        # hands that were entered). A director corrects or undoes those hands, then re-runs.
        dispute.reason = f"{dispute.reason} (the hand was left as it was: {exc.message})"
        dispute.save(update_fields=["reason"])
        game.version += 1
    game.save()
    return dispute


@transaction.atomic
def dispute_rule(
    *,
    dispute: MisplayDispute,
    ruling: str,
    note: str = "",
    by: User | None = None,
    expected_version: int | None = None,
) -> MisplayDispute:
    """A director's ruling on the engine's verdict (anyone else is refused):
    ``upheld`` lets it stand, ``overruled`` decides the opposite. Both stay visible, and the
    hand and the game follow the ruling.

    Only the hand's latest dispute decides it, so an earlier one, superseded, is not ruled
    on (409). ``expected_version`` is the dispute's version the director read (412 when it
    changed since: another director ruled, say); ``None`` rules on it as it is."""
    game, stored = _dispute_for_update(dispute)
    _refuse_unless_director(by, game, "rule on a misplay dispute")
    _refuse_stale(f"misplay dispute {stored.pk}", stored.version, expected_version, "rule")
    later = (
        stored.hand.disputes.filter(pk__gt=stored.pk)
        .exclude(status=MisplayDispute.Status.RECORD_REJECTED)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    if later is not None:
        message = (
            f"misplay dispute {later} on this hand came after this one and decides the hand: "
            "rule on that one"
        )
        raise Conflict(message, code="dispute_superseded", fields={"ruling": [message]})
    if ruling not in (MisplayDispute.Ruling.UPHELD, MisplayDispute.Ruling.OVERRULED):
        message = f'a ruling is "upheld" or "overruled", not {ruling!r}'
        raise ValidationFailed(message, fields={"ruling": [message]})
    if stored.status == MisplayDispute.Status.PENDING:
        message = "the engine has not judged this dispute yet: rule once its verdict is in"
        raise ValidationFailed(message, code="dispute_pending", fields={"ruling": [message]})
    if stored.status == MisplayDispute.Status.RECORD_REJECTED:
        message = (
            "the trick record was rejected, so there is no verdict to rule on: "
            "open a new dispute with a record that could have happened"
        )
        raise ValidationFailed(message, code="record_rejected", fields={"ruling": [message]})
    note = (note or "").strip()
    if ruling == MisplayDispute.Ruling.OVERRULED and not note:
        message = "say why the verdict is overruled"
        raise ValidationFailed(message, fields={"note": [message]})
    stored.ruling = ruling
    stored.ruling_note = note
    stored.ruled_by = by
    stored.ruled_at = timezone.now()
    stored.version += 1
    stored.save()
    _apply_disputes(
        game,
        stored.hand,
        by,
        f"misplay dispute {stored.pk} {ruling}" + (f": {note}" if note else ""),
    )
    game.save()
    _copy_model(stored, dispute)
    return stored
