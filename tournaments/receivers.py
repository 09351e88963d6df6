"""Signal receivers: they enqueue tasks, or answer what scoring asks about a game."""

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.signals import RESULT_TAKEN_LATER
from tournaments.models import Match, Stage, Tournament
from tournaments.selectors import (
    game_directed_by,
    game_is_in_a_match,
    game_kept_by,
    games_directed_by,
    held_change_reopening,
    match_counting_game,
    match_of_game,
    stage_of_game,
)
from tournaments.tasks import match_sync_for_game


def on_game_result_changed(sender: object, *, game_id: int, **kwargs: Any) -> str | None:
    """``scoring.signals.game_result_changed`` (sent after commit): update the game's match.

    Casual games belong to no match, so no task is sent for them: one indexed look-up costs far
    less than a message to the broker. For a match game, the answer keeps the change recorded
    until the task has updated the match (it deletes it), so a message the broker accepted and
    then lost is sent again by scoring's periodic delivery."""
    if game_is_in_a_match(game_id):
        match_sync_for_game.delay(game_id)
        return RESULT_TAKEN_LATER
    return None


def match_page_of_game(sender: object, *, game: Any, **kwargs: Any) -> str | None:
    """``scoring.signals.game_owner_page``: a game played for a match belongs to the match's
    page, where its next game is started (a game started anywhere else would not count)."""
    match_id = match_of_game(game.pk)
    return None if match_id is None else reverse("tournaments:match-detail", args=[match_id])


def match_next_of_game(sender: object, *, game: Any, **kwargs: Any) -> str | None:
    """``scoring.signals.game_owner_next``: what follows a match game that is over, in words
    for the score-pad's way back to the match: its next game, or the match, its stage or its
    tournament over."""
    match = match_counting_game(game.pk)
    if match is None:
        return None
    stage = match.stage
    if stage.tournament.status == Tournament.Status.FINISHED:
        return _("%(tournament)s is over: see its results") % {"tournament": stage.tournament.name}
    if match.state != Match.State.COMPLETE:
        return _("Back to the match for its next game")
    if stage.status == Stage.Status.FINISHED:
        return _("The match and %(stage)s are over: see the results") % {"stage": stage.name}
    return _("The match is over: see its result")


def held_change_warning(sender: object, *, game: Any, **kwargs: Any) -> str | None:
    """``scoring.signals.game_owner_warning``: a game being played in a bracket match that a
    held result change would re-open is told so on its score-pad, at once: if a director
    confirms the change, the game stops counting."""
    if game.status != "in_progress":
        return None
    found = held_change_reopening(game.pk)
    if found is None:
        return None
    held, match = found
    return _(
        "The result of %(held)s was changed and waits for a director: confirming it "
        "re-opens this match (%(match)s), and this game would no longer count. Ask the "
        "director before going on."
    ) % {"held": held.key, "match": match.key}


def director_of_game(sender: object, *, game: Any, user: Any, **kwargs: Any) -> bool:
    """``scoring.signals.game_directed_by``: a tournament's organiser and directors direct the
    games of its matches (rule on their disputes, reopen them), and no other game."""
    return game_directed_by(game.pk, user)


def keeper_of_game(sender: object, *, game: Any, user: Any, **kwargs: Any) -> bool:
    """``scoring.signals.game_kept_by``: a running tournament's named scorekeepers keep score
    in its match games, and a table sheet's account in those played at its table."""
    return game_kept_by(game.pk, user)


def games_of_director(sender: object, *, user: Any, **kwargs: Any) -> Any:
    """``scoring.signals.games_directed_by``: the match games of the tournaments ``user``
    organises or directs (ids, as a query)."""
    return games_directed_by(user)


def final_result_of_game(sender: object, *, game: Any, **kwargs: Any) -> str | None:
    """``scoring.signals.game_result_final``: a match game's result stands once something was
    worked out from it: its tournament's final places (finished), or the next stage, started
    from its stage's results (a pool game corrected then would have changed who qualified,
    with the knockout already under way)."""
    stage = stage_of_game(game.pk)
    if stage is None:
        return None
    if stage.tournament.status == Tournament.Status.FINISHED:
        return _("%(tournament)s is finished: the results of its games stand") % {
            "tournament": stage.tournament.name
        }
    later = stage.later_stage_started()
    if later is not None:
        return _("%(later)s has started from the results of %(stage)s: they stand") % {
            "later": later.name,
            "stage": stage.name,
        }
    return None
