"""Player ratings: OpenSkill (Plackett-Luce), one update per finished match, with history."""

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from tournaments.models import Match, PlayerRating, RatingChange

MODEL = PlackettLuce()
DEFAULT = MODEL.rating()


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def team_strength(pairs: Sequence[tuple[int, int]]) -> list[float]:
    """The mean conservative rating (mu - 3 sigma) of each pair of players, in one query."""
    wanted = {pid for pair in pairs for pid in pair}
    known = {
        r.player_id: _ordinal(r.mu, r.sigma)
        for r in PlayerRating.objects.filter(player_id__in=wanted).only("player_id", "mu", "sigma")
    }
    default = _ordinal(DEFAULT.mu, DEFAULT.sigma)
    return [(known.get(a, default) + known.get(b, default)) / 2 for a, b in pairs]


def ratings_update_for_match(*, match_id: int) -> bool:
    """Move the four players' ratings by the result of a finished match, once.

    Byes, forfeits and unfinished matches rate nobody. A match already rated is left alone,
    so running this twice changes nothing. Returns whether ratings moved.
    """
    try:
        with transaction.atomic():
            return _update(match_id)
    except IntegrityError:
        # A concurrent run rated this match first.
        return False


def _update(match_id: int) -> bool:
    match = Match.objects.select_related("home__team", "away__team").filter(pk=match_id).first()
    if (
        match is None
        or match.state != Match.State.COMPLETE
        or match.bye
        or match.forfeit
        or match.home is None
        or match.away is None
    ):
        return False
    home = (match.home.team.player_one_id, match.home.team.player_two_id)
    away = (match.away.team.player_one_id, match.away.team.player_two_id)
    players = [*home, *away]
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=pid, mu=DEFAULT.mu, sigma=DEFAULT.sigma) for pid in players],
        ignore_conflicts=True,
    )
    locked = {
        r.player_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(player_id__in=players)
        .order_by("player_id")
    }
    if RatingChange.objects.filter(match_id=match_id).exists():
        return False
    ranks: list[float]
    if match.winner_id is None:
        ranks = [0.0, 0.0]
    else:
        ranks = [0.0, 1.0] if match.winner_id == match.home_id else [1.0, 0.0]
    teams = [
        [MODEL.rating(mu=locked[p].mu, sigma=locked[p].sigma) for p in side]
        for side in (home, away)
    ]
    rated = MODEL.rate(teams, ranks=ranks)
    changes = []
    now = timezone.now()
    for side, new_side in zip((home, away), rated, strict=True):
        for pid, new in zip(side, new_side, strict=True):
            row = locked[pid]
            changes.append(
                RatingChange(
                    player_id=pid,
                    match_id=match_id,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                )
            )
            row.mu, row.sigma, row.matches = new.mu, new.sigma, row.matches + 1
            row.updated_at = now
    RatingChange.objects.bulk_create(changes)
    for row in locked.values():
        PlayerRating.objects.filter(pk=row.pk).update(
            mu=row.mu, sigma=row.sigma, matches=row.matches, updated_at=row.updated_at
        )
    return True
