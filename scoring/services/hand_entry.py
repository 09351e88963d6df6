"""Entering the next hand of a game, the act every table repeats all evening: optimistic,
written only if the game is still at the version it was read at (see :func:`hand_record`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from scoring.engine import check_forced_call, dealer_of_hand
from scoring.engine.game import game_progress_after
from scoring.models import Game, Hand
from scoring.services import results
from scoring.services._common import (
    _copy_state,
    _refuse_unless_running,
)
from scoring.services.entries import _score, _set_result
from scoring.services.hand_write import hand_insert
from scoring.services.progress import _apply_progress, _stored_progress
from tarabish_site import events, live, metrics
from tarabish_site.api.errors import Conflict, NotFound, ValidationFailed

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tarabish_site.core.models import IdempotencyRecord


def _hand_exists(existing: Hand) -> Conflict:
    when = timezone.localtime(existing.created_at).strftime("%H:%M")
    message = (
        f"hand {existing.number} of game {existing.game_id} already exists "
        f"(entered at {when}, {existing.get_outcome_display()}, "
        f"{existing.points_a}-{existing.points_b}): correct it instead"
    )
    return Conflict(message, code="hand_exists", fields={"number": [message]})


#: Called with the hand and the game as they are about to be stored (every value final, the
#: hand's key not yet given); returns the response to keep for the request's
#: ``Idempotency-Key``, written with the hand (None: no key, nothing kept).
KeptResponse = Callable[[Hand, Game], "IdempotencyRecord | None"]


#: How often entering a hand reads the game again when another write got in first.
_HAND_ATTEMPTS = 5


def hand_record(
    *,
    game: Game | int,
    entry_kind: str,
    entry: Mapping[str, Any],
    by: User | None = None,
    number: int | None = None,
    kept_response: KeptResponse | None = None,
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
    if the game's ``version`` is still the one read (the game's conditional update, the hand
    and the response ``kept_response`` gives, all or nothing: see
    :mod:`scoring.services.hand_write`). When another write got in first, the game is read
    again and the hand scored again, so the answer is as if the row had been locked. A game
    given as a row read earlier is used as it is; it is read again before any refusal is
    final. ``kept_response`` gives the response stored for an ``Idempotency-Key``, built
    from the hand and game about to be written, so a retry gets it. ``check`` is called with
    every game row read here (not the one given) before the hand is scored against it, and
    raises to refuse: a caller that checked its permission against the game it gave checks
    it again against the row as it is when the write found the game changed.

    Returns the hand as stored.
    """
    given = game if isinstance(game, Game) else None
    pk = game.pk if isinstance(game, Game) else game
    snapshot = given if given is not None and given.pk is not None else None
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
        # Only the hand that ends the game changes its result; the hands before it move the
        # score of a game still being played, which no result depends on. That change is
        # recorded with the hand.
        ends = current.status != Game.Status.IN_PROGRESS
        # The game changes now, and the hand is made when it does.
        current.updated_at = hand.created_at = hand.updated_at = timezone.now()
        record = kept_response(hand, current) if kept_response else None
        stored = hand_insert(
            current, read, hand, record, ends=ends, event=_hand_event(hand, current)
        )
        if stored is not None:
            transaction.on_commit(metrics.hand_entered)
            live.publish(live.GAME, pk)  # the pages watching the game look again
            if ends:
                results.result_change_deliver_on_commit(pk)
            if given is not None:
                _copy_state(current, given)
            return stored
    message = f"game {pk} keeps changing while this hand is entered: try again"
    raise Conflict(message, code="game_busy", fields={"game": [message]})


def _hand_event(hand: Hand, game: Game) -> events.Event:
    """The hand entered, as other systems hear of it (``tarabish_site.events``)."""
    return events.Event(
        events.HAND_ENTERED,
        game_id=game.pk,
        data={
            "game": game.pk,
            "hand": hand.number,
            "outcome": hand.outcome,
            "points": [hand.points_a, hand.points_b],
            "totals": [hand.running_a, hand.running_b],
            "game_status": game.status,
        },
    )


def hand_preview(
    *,
    game: Game,
    entry_kind: str,
    entry: Mapping[str, Any],
    by: User | None = None,
    number: int | None = None,
) -> Hand:
    """What entering this hand would store, with nothing stored: the hand as
    :func:`hand_record` would write it, scored by the very same code (so a preview never
    disagrees with the real thing), and ``game`` moved on in memory to its state after the
    hand. Its refusals are ``hand_record``'s, but for a game changed meanwhile, which only a
    write finds out."""
    return _hand_next(game, entry_kind=entry_kind, entry=entry, by=by, number=number)


def _game_read(pk: int) -> Game:
    try:
        return Game.objects.get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(f"game {pk} does not exist") from None


def _hand_next(
    game: Game,
    *,
    entry_kind: str,
    entry: Mapping[str, Any],
    by: User | None,
    number: int | None,
) -> Hand:
    """The next hand of ``game`` as read, scored; ``game`` is moved on to its state after the
    hand (in memory). Every refusal comes before anything changes.

    A hand whose number is already entered is a :class:`Conflict` naming it before anything
    else is looked at: when two score-pads race to enter the hand that ends the game, the
    one that lost finds the game over, but what it must be told is that its hand is there."""
    next_number = game.hands_played + 1
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or number < 1
    ):
        message = f"hand number must be a whole number from 1, not {number!r}"
        raise ValidationFailed(message, fields={"number": [message]})
    if number is not None and number < next_number:
        existing = Hand.objects.active().filter(game=game, number=number).first()
        if existing is None:  # undone since the game was read
            message = f"hand {number} of game {game.pk} was undone since the game was read"
            raise Conflict(message, code="game_changed", fields={"number": [message]})
        raise _hand_exists(existing)
    _refuse_unless_running(game, "entering a hand")
    if game.first_dealer is None:
        message = "choose the first dealer before entering the first hand"
        raise ValidationFailed(message, code="no_first_dealer", fields={"first_dealer": [message]})
    if number is None:
        number = next_number
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
