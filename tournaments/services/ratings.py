"""Player ratings: OpenSkill (Plackett-Luce), one update per finished match, with history.

Only the matches of public tournaments are rated: a private tournament rates nobody, so every
figure the public sees (a rating, its number of matches, its history) comes from matches the
public can see. A tournament made public has its matches rated in their place in time, one made
private has them taken out, and the matches rated after them are rated again.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Min, Q, Subquery
from django.utils import timezone
from openskill.models import PlackettLuce

from tournaments.models import Match, PlayerRating, RatingChange, Tournament

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
    """Bring the players' ratings in line with the result of one match, idempotently.

    A newly finished match is rated once, after the matches rated before it. A match
    already rated whose result has since changed (another winner, a forfeit, a reset) is
    re-rated in its place: every rating change from that match on is taken back and the
    matches are rated again, in the same order, from what they hold now. Byes, forfeits,
    unfinished matches and the matches of a private tournament rate nobody. Running this twice
    changes nothing. Returns whether ratings moved.
    """
    try:
        with transaction.atomic():
            return _update(match_id)
    except IntegrityError:
        # A concurrent run rated this match first.
        return False


def _players(match: Match) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The two pairs of players a match rates, or None if it rates nobody.

    Those who played it: on each side, the two players who sat in most of its counted games
    (the home side sits as team A, seats 0 and 2), a registered player before a substitute
    who sat in as many, so a substitute is rated only for a match they played most of. A
    match with no game recorded rates its entries' registered players. A match of a private
    tournament rates nobody."""
    if (
        not match.stage.tournament.public
        or match.state != Match.State.COMPLETE
        or match.bye
        or match.forfeit
        or match.home is None
        or match.away is None
    ):
        return None
    registered = (
        (match.home.team.player_one_id, match.home.team.player_two_id),
        (match.away.team.player_one_id, match.away.team.player_two_id),
    )
    games = [link.game for link in match.match_games.all() if not link.discarded]
    if not games:
        return registered
    played = []
    for pair, seats in zip(registered, ((0, 2), (1, 3)), strict=True):
        sat = Counter(game.seat_ids[seat] for game in games for seat in seats)
        first, second = sorted(sat, key=lambda pid: (-sat[pid], pid not in pair, pid))[:2]
        played.append((first, second))
    home, away = played
    if set(home) & set(away):  # one player on both sides across games: rate the entries
        return registered
    return home, away


def _results(match: Match) -> tuple[str, str]:
    """The home pair's and the away pair's result."""
    if match.winner_id is None:
        return "draw", "draw"
    return ("win", "loss") if match.winner_id == match.home_id else ("loss", "win")


def _expected(match: Match) -> dict[int, str]:
    """What the rating changes of ``match`` should say: player id -> result."""
    pairs = _players(match)
    if pairs is None:
        return {}
    return {
        pid: result for pair, result in zip(pairs, _results(match), strict=True) for pid in pair
    }


def _lock_ratings(players: set[int]) -> dict[int, PlayerRating]:
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=pid, mu=DEFAULT.mu, sigma=DEFAULT.sigma) for pid in players],
        ignore_conflicts=True,
    )
    return {
        r.player_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(player_id__in=players)
        .order_by("player_id")
    }


def _matches(ids: set[int]) -> dict[int, Match]:
    """The matches with their entries' teams and their games (for who sat in them)."""
    return (
        Match.objects.select_related("stage__tournament", "home__team", "away__team")
        .prefetch_related("match_games__game")
        .in_bulk(ids)
    )


def _update(match_id: int) -> bool:
    match = _matches({match_id}).get(match_id)
    if match is None:
        return False
    expected = _expected(match)
    rated = dict(RatingChange.objects.filter(match_id=match_id).values_list("player_id", "result"))
    if rated == expected:
        return False
    if not rated:
        later = _first_change_after([match])
        if later is not None:
            # Matches that finished after it are rated already (a task run late): it goes in
            # its place in time, and those matches are rated again.
            _rerate_from(later, [match])
            return True
        locked = _lock_ratings(set(expected))
        if RatingChange.objects.filter(match_id=match_id).exists():
            return False
        _rate(match, locked, timezone.now())
        _save_ratings(locked.values())
        return True
    _rerate_from(Subquery(_first_change(match_id)))
    return True


def ratings_update_for_tournament(*, tournament_id: int) -> bool:
    """Bring the ratings in line with every match of one tournament, idempotently (after its
    ``public`` flag changed).

    A public tournament's finished matches not yet rated are rated in their place in time
    (by when they finished) among the matches already rated; a private tournament's rated
    matches are taken out of the ratings. Either way every match rated after the first one
    changed is rated again, in the same order, as it stands now. Returns whether ratings
    moved.
    """
    try:
        with transaction.atomic():
            return _update_tournament(tournament_id)
    except IntegrityError:
        # A concurrent run rated one of these matches first.
        return False


def _update_tournament(tournament_id: int) -> bool:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return False
    ids = set(
        Match.objects.filter(stage__tournament_id=tournament_id)
        .filter(Q(state=Match.State.COMPLETE) | Q(rating_changes__isnull=False))
        .values_list("pk", flat=True)
    )
    matches = _matches(ids)
    rated: dict[int, dict[int, str]] = {}
    for mid, pid, result in RatingChange.objects.filter(match_id__in=ids).values_list(
        "match_id", "player_id", "result"
    ):
        rated.setdefault(mid, {})[pid] = result
    stale = [mid for mid, changes in rated.items() if changes != _expected(matches[mid])]
    new = sorted(
        (m for mid, m in matches.items() if mid not in rated and _expected(m)),
        key=_finished_order,
    )
    if not stale and not new:
        return False
    starts = [
        RatingChange.objects.filter(match_id__in=stale).aggregate(first=Min("id"))["first"],
        _first_change_after(new),
    ]
    known = [start for start in starts if start is not None]
    _rerate_from(min(known) if known else None, new)
    return True


def _finished_order(match: Match) -> tuple[Any, int]:
    return (match.finished_at or timezone.now(), match.pk)


def _first_change_after(matches: Sequence[Match]) -> int | None:
    """The first rating change of the matches rated that finished after the first of
    ``matches`` finished: where ``matches`` go in, in their place in time."""
    finished = [m.finished_at for m in matches if m.finished_at is not None]
    if not finished:
        return None
    later = RatingChange.objects.filter(match__finished_at__gt=min(finished))
    found = later.exclude(match_id__in=[m.pk for m in matches]).aggregate(first=Min("id"))
    return found["first"]  # type: ignore[no-any-return]


def _rerate_from(start: Any, inserted: Sequence[Match] = ()) -> None:
    """Take back every rating change from the change ``start`` on (an id, or a query of one;
    None: take back nothing), and rate those matches again in the order they were first
    rated, as they stand now, with the matches ``inserted`` (never rated, in the order they
    finished) each put in before the first of them that finished after it."""
    order: list[int] = []
    if start is not None:
        order = list(
            RatingChange.objects.values("match_id")
            .annotate(first=Min("id"))
            .filter(first__gte=start)
            .order_by("first")
            .values_list("match_id", flat=True)
        )
    undone = list(
        RatingChange.objects.filter(match_id__in=order)
        .order_by("id")
        .values("player_id", "mu_before", "sigma_before")
    )
    matches = _matches(set(order))
    players = {row["player_id"] for row in undone}
    for match in [*matches.values(), *inserted]:
        players |= set(_expected(match))
    locked = _lock_ratings(players)
    restored: set[int] = set()
    for row in undone:
        rating = locked[row["player_id"]]
        if row["player_id"] not in restored:
            rating.mu, rating.sigma = row["mu_before"], row["sigma_before"]
            restored.add(row["player_id"])
        rating.matches -= 1
    RatingChange.objects.filter(match_id__in=order).delete()
    now = timezone.now()
    for match in _in_place([matches[mid] for mid in order if mid in matches], inserted):
        _rate(match, locked, now)
    _save_ratings(locked.values())


def _in_place(rated: Sequence[Match], inserted: Sequence[Match]) -> list[Match]:
    """``rated`` in their order, each of ``inserted`` (in the order they finished) put in
    before the first of ``rated`` that finished after it."""
    merged: list[Match] = []
    waiting = sorted(inserted, key=_finished_order)
    for match in rated:
        while (
            waiting
            and match.finished_at is not None
            and _finished_order(waiting[0]) < _finished_order(match)
        ):
            merged.append(waiting.pop(0))
        merged.append(match)
    return merged + waiting


def _first_change(match_id: int) -> Any:
    return RatingChange.objects.filter(match_id=match_id).order_by("id").values("id")[:1]


def _rate(match: Match, locked: dict[int, PlayerRating], now: Any) -> None:
    """Rate one match from the players' ratings in ``locked`` (moved in place), with history."""
    pairs = _players(match)
    if pairs is None:
        return
    ranks = {"win": 0.0, "draw": 0.0, "loss": 1.0}
    results = _results(match)
    order = [ranks[r] for r in results]
    teams = [[MODEL.rating(mu=locked[p].mu, sigma=locked[p].sigma) for p in side] for side in pairs]
    new_teams = MODEL.rate(teams, ranks=order)
    changes = []
    for side, new_side, result in zip(pairs, new_teams, results, strict=True):
        for pid, new in zip(side, new_side, strict=True):
            row = locked[pid]
            changes.append(
                RatingChange(
                    player_id=pid,
                    match_id=match.pk,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    result=result,
                )
            )
            row.mu, row.sigma, row.matches = new.mu, new.sigma, row.matches + 1
            row.updated_at = now
    RatingChange.objects.bulk_create(changes)


def _save_ratings(rows: Iterable[PlayerRating]) -> None:
    """Store the ratings moved; a player left with no rated match (theirs taken out) has no
    rating any more."""
    unrated = []
    for row in rows:
        if row.matches <= 0:
            unrated.append(row.pk)
            continue
        PlayerRating.objects.filter(pk=row.pk).update(
            mu=row.mu, sigma=row.sigma, matches=row.matches, updated_at=timezone.now()
        )
    PlayerRating.objects.filter(pk__in=unrated).delete()


def ratings_repair(*, since_hours: int = 24) -> list[int]:
    """The periodic safety net: bring the ratings in line with every tournament that is
    running or had a match finish in the last ``since_hours`` (a rating task was never sent,
    or its worker died with it), as :func:`ratings_update_for_tournament` does. Returns the
    ids of the tournaments whose ratings moved."""
    recent = timezone.now() - timedelta(hours=since_hours)
    ids = (
        Tournament.objects.filter(
            Q(status=Tournament.Status.RUNNING) | Q(stages__matches__finished_at__gte=recent)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    return [tid for tid in list(ids) if ratings_update_for_tournament(tournament_id=tid)]
