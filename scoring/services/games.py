"""A game's life outside its hands: created at a table, made public or private, its
first dealer chosen, ended early, reopened."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import models, transaction
from django.utils import timezone

from scoring.engine import (
    PRESETS,
    Ruleset,
    choose_first_dealer,
    final_winner,
    game_progress,
    preset,
)
from scoring.models import CUSTOM_RULESET, Game, Player, Side, Team, TotalsRevision
from scoring.services._common import (
    SIDES,
    _copy_state,
    _game_for_update,
    _on_commit_result_changed,
    _refuse_if_changed,
    _refuse_unless_director,
    _refuse_unless_running,
    _required_text,
)
from scoring.services.permissions import game_owner_page
from scoring.services.progress import _apply_progress
from tarabish_site.api.errors import Conflict, ValidationFailed

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
def game_record_totals(
    *,
    team_a: Team,
    team_b: Team,
    totals: tuple[int, int],
    winner: str | None = None,
    seats: Sequence[Player] | None = None,
    ruleset: Ruleset | Mapping[str, Any] | None = None,
    ruleset_preset: str | None = None,
    table: str = "",
    created_by: User | None = None,
    scorekeepers: Iterable[User] = (),
    substitutes: Mapping[int, Team] | None = None,
    public: bool = True,
) -> Game:
    """A game played on paper, recorded by its final totals only: it is stored finished,
    with no hands, marked ``totals_only``, its winner found by the rules from the totals
    (``winner``, a side, is needed only when the totals cannot tell: both over under the
    caller's rule). Its result counts like any other game's, and what follows a result
    (a match, standings, ratings) follows it. Teams, seats and ruleset as :func:`game_create`.
    """
    if winner not in (None, *SIDES):
        message = f"the winner is team_a or team_b, not {winner!r}"
        raise ValidationFailed(message, fields={"winner": [message]})
    rules, _slug = _ruleset_choice(ruleset, ruleset_preset)
    won = final_winner(
        rules, (totals[0], totals[1]), None if winner is None else SIDES.index(Side(winner))
    )
    game = game_create(
        team_a=team_a,
        team_b=team_b,
        seats=seats,
        ruleset=ruleset,
        ruleset_preset=ruleset_preset,
        table=table,
        created_by=created_by,
        scorekeepers=scorekeepers,
        substitutes=substitutes,
        public=public,
    )
    game.totals_only = True
    game.score_a, game.score_b = totals
    game.status = Game.Status.FINISHED
    game.winner = SIDES[won]
    game.finished_at = timezone.now()
    game.next_dealer = game.forced_seat = None
    game.version += 1
    game.save()
    _on_commit_result_changed(game.pk)
    return game


@transaction.atomic
def game_correct_totals(
    *,
    game: Game,
    totals: tuple[int, int],
    reason: str,
    winner: str | None = None,
    by: User | None = None,
    expected_version: int | None = None,
) -> Game:
    """Correct the final totals of a game recorded by its totals only (a director's act): the
    winner is found again from them by the rules (``winner``, a side, only when the totals
    cannot tell), the totals before are kept with who changed them and why
    (:class:`~scoring.models.TotalsRevision`), and what follows a result (a match, standings,
    ratings) follows the change as it follows a corrected hand. A game played hand by hand is
    refused: its hands are corrected instead."""
    _refuse_unless_director(by, game, "correct a game's final totals")
    reason = _required_text(reason, "reason", "a reason", max_length=500)
    if winner not in (None, *SIDES):
        message = f"the winner is team_a or team_b, not {winner!r}"
        raise ValidationFailed(message, fields={"winner": [message]})
    locked = _game_for_update(game)
    _refuse_if_changed(locked, expected_version)
    if not locked.totals_only:
        message = (
            f"game {locked.pk} was played hand by hand: correct its hands, not its final totals"
        )
        raise Conflict(message, code="not_totals_only", fields={"game": [message]})
    rules = Ruleset.from_json(locked.ruleset)
    won = SIDES[
        final_winner(
            rules, (totals[0], totals[1]), None if winner is None else SIDES.index(Side(winner))
        )
    ]
    if (locked.score_a, locked.score_b, locked.winner) == (*totals, won):
        message = f"game {locked.pk} already has these totals and this winner"
        raise ValidationFailed(message, code="totals_unchanged", fields={"totals": [message]})
    TotalsRevision.objects.create(
        game=locked,
        score_a=locked.score_a,
        score_b=locked.score_b,
        winner=locked.winner,
        reason=reason,
        changed_by=by,
    )
    locked.score_a, locked.score_b = totals
    locked.winner = won
    locked.version += 1
    locked.save()
    _on_commit_result_changed(locked.pk)
    _copy_state(locked, game)
    return locked


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
    if locked.totals_only:
        message = (
            f"game {locked.pk} was recorded by its final totals, without hands: there are no "
            "hands to play on from"
        )
        raise Conflict(message, code="totals_only", fields={"game": [message]})
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
