"""Celery tasks of the tournaments app: ids in, one service call, idempotent."""

from typing import Any

from celery import shared_task

from tournaments.services import matches, ratings, standings

RETRY_ON = (ConnectionError, TimeoutError)
#: What every task that takes an id declares: acknowledged once done, retried with backoff when
#: the broker or the database is briefly out of reach (running one twice changes nothing).
RETRIED: dict[str, Any] = {
    "ignore_result": True,
    "acks_late": True,
    "autoretry_for": RETRY_ON,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(**RETRIED, soft_time_limit=30, time_limit=60)
def match_sync_for_game(game_id: int) -> None:
    """A game's result changed: update the match it belongs to (if any) and its bracket."""
    matches.match_sync_for_game(game_id=game_id)


@shared_task(**RETRIED, soft_time_limit=30, time_limit=60)
def standings_recompute(stage_id: int) -> None:
    """Recompute a stage's standings if its results changed since the last run."""
    standings.standings_unschedule(stage_id=stage_id)
    standings.standings_recompute(stage_id=stage_id)


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=240, time_limit=300)
def standings_recompute_all() -> None:
    """Periodic safety net (celery beat): set right every match whose games say otherwise
    (its update was lost), then recompute every running stage's standings."""
    matches.matches_repair()
    standings.standings_recompute_all()


@shared_task(**RETRIED, soft_time_limit=30, time_limit=60)
def ratings_update(match_id: int) -> None:
    """Rate the players of a finished match, or re-rate it if its result changed (idempotent)."""
    ratings.ratings_update_for_match(match_id=match_id)


@shared_task(**RETRIED, soft_time_limit=120, time_limit=180)
def ratings_update_tournament(tournament_id: int) -> None:
    """A tournament was made public or private: rate its matches in their place, or take them
    out, re-rating the matches rated after them (idempotent)."""
    ratings.ratings_update_for_tournament(tournament_id=tournament_id)


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=240, time_limit=300)
def ratings_repair() -> None:
    """Periodic safety net (celery beat): ratings in line with every running or recently
    played tournament, whatever rating task was lost."""
    ratings.ratings_repair()
