"""Tournaments and entries: creation, registration, check-in, CSV import, substitutes."""

import csv
import io
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from scoring import services as scoring_services
from scoring.engine import PRESETS, EngineError, Ruleset, preset
from scoring.models import Game, Player, Team
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from tarabish_site.api.versioning import ensure_version
from tarabish_site.celery import send_on_commit
from tournaments.models import SEED_MAX, Entry, Tournament
from tournaments.services._common import (
    Actor,
    integrity_as_conflict,
    invalid,
    require_director,
    require_status,
)

Status = Tournament.Status
#: Slugs that name pages under /tournaments/ rather than a tournament.
RESERVED_SLUGS = frozenset({"new"})


def _ruleset_json(
    ruleset_preset: str, ruleset: dict[str, Any] | None
) -> tuple[str, dict[str, Any]]:
    """The preset slug (empty for custom) and the full ruleset to store."""
    if ruleset is not None:
        try:
            value = Ruleset.from_json(ruleset)
        except EngineError as exc:
            field_name = f"ruleset.{exc.field}" if exc.field else "ruleset"
            raise ValidationFailed(
                str(exc), code=exc.code, fields={field_name: [str(exc)]}
            ) from exc
        slug = next((s for s, r in PRESETS.items() if r == value), "")
        return slug, value.to_json()
    slug = ruleset_preset or "cape-breton-standard"
    try:
        return slug, preset(slug).to_json()
    except EngineError as exc:
        raise invalid(
            "ruleset_preset", f"{slug!r} is not a preset; choose from {', '.join(PRESETS)}."
        ) from exc


def check_match_format(match_format: str, match_games: int) -> None:
    if match_format not in Tournament.MatchFormat.values:
        raise invalid("match_format", "must be best_of or fixed.")
    if match_games < 1:
        raise invalid("match_games", "must be at least 1.")
    if match_format == Tournament.MatchFormat.BEST_OF and match_games % 2 == 0:
        raise invalid("match_games", f"best of {match_games} can end level; use an odd number.")
    if match_games > 9:
        raise invalid("match_games", "at most 9 games per match.")


def can_create_tournament(actor: Actor) -> bool:
    """A director of every game (staff, or the ``scoring.direct_games`` permission) creates
    tournaments: an organiser, who then names each tournament's other directors."""
    return actor is None or scoring_services.user_can_direct(actor)


def tournament_create_check(
    *,
    name: str,
    starts_on: date,
    ends_on: date | None,
    slug: str,
    ruleset_preset: str,
    ruleset: dict[str, Any] | None,
    match_format: str,
    match_games: int,
) -> tuple[str, date, str, dict[str, Any]]:
    """The checks of :func:`tournament_create` (also run by the admin's add form before it
    calls the service). Returns the slug, the last day, the preset slug and the ruleset."""
    if not name.strip():
        raise invalid("name", "a tournament needs a name.")
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise invalid("ends_on", "the tournament cannot end before it starts.")
    slug = slugify(slug or name)[:80]
    if not slug:
        raise invalid("slug", "give a slug of letters, digits and hyphens.")
    if slug in RESERVED_SLUGS:
        raise invalid("slug", f"{slug!r} names a page of the site: choose another slug.")
    if Tournament.objects.filter(slug=slug).exists():
        raise Conflict(
            f"A tournament with the slug {slug!r} already exists.",
            code="slug_taken",
            fields={"slug": ["already used by another tournament"]},
        )
    check_match_format(match_format, match_games)
    preset_slug, ruleset_json = _ruleset_json(ruleset_preset, ruleset)
    return slug, ends_on, preset_slug, ruleset_json


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    name: str,
    starts_on: date,
    ends_on: date | None = None,
    slug: str = "",
    venue: str = "",
    ruleset_preset: str = "",
    ruleset: dict[str, Any] | None = None,
    match_format: str = Tournament.MatchFormat.BEST_OF,
    match_games: int = 1,
    public: bool = True,
    substitutes_allowed: bool = False,
    seed_by_rating: bool = False,
    check_in_required: bool = False,
    quick_results_by_scorekeepers: bool = False,
    results_confirmed_by_both: bool = False,
    entry_cap: int | None = None,
    self_registration: bool = False,
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
) -> Tournament:
    """Create a tournament in draft; ``actor`` becomes its organiser and first director.

    Without ``check_in_required`` every team registered is checked in at once, and the first
    stage starts with all of them (their seeds closed up); with it, teams check in on the day
    and the director processes check-in before the first stage.

    Only a director of every game (staff, or the ``scoring.direct_games`` permission) creates
    a tournament; its directors then direct its match games only.
    """
    if not can_create_tournament(actor):
        raise NotAllowed("Only a director may create a tournament.", code="director_only")
    slug, ends_on, preset_slug, ruleset_json = tournament_create_check(
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        slug=slug,
        ruleset_preset=ruleset_preset,
        ruleset=ruleset,
        match_format=match_format,
        match_games=match_games,
    )
    _check_cap(entry_cap)
    _check_window(registration_opens_at, registration_closes_at)
    organiser = actor if actor is not None and actor.is_authenticated else None
    with integrity_as_conflict(f"A tournament with the slug {slug!r} already exists."):
        tournament = Tournament.objects.create(
            name=name.strip(),
            slug=slug,
            venue=venue,
            starts_on=starts_on,
            ends_on=ends_on,
            organiser=organiser,
            ruleset_preset=preset_slug,
            ruleset=ruleset_json,
            match_format=match_format,
            match_games=match_games,
            public=public,
            substitutes_allowed=substitutes_allowed,
            seed_by_rating=seed_by_rating,
            check_in_required=check_in_required,
            quick_results_by_scorekeepers=quick_results_by_scorekeepers,
            results_confirmed_by_both=results_confirmed_by_both,
            entry_cap=entry_cap,
            self_registration=self_registration,
            registration_opens_at=registration_opens_at,
            registration_closes_at=registration_closes_at,
        )
    if organiser is not None:
        tournament.directors.add(organiser)
    return tournament


def _check_cap(cap: int | None) -> None:
    if cap is not None and not 2 <= cap <= SEED_MAX:
        raise invalid("entry_cap", f"a tournament is at least two teams: from 2 to {SEED_MAX}.")


def _check_window(opens: datetime | None, closes: datetime | None) -> None:
    if opens is not None and closes is not None and closes <= opens:
        raise invalid("registration_closes_at", "registration must close after it opens.")


UPDATABLE = {
    "entry_cap",
    "name",
    "venue",
    "starts_on",
    "ends_on",
    "public",
    "substitutes_allowed",
    "seed_by_rating",
    "check_in_required",
    "quick_results_by_scorekeepers",
    "results_confirmed_by_both",
    "match_format",
    "match_games",
    "ruleset_preset",
    "ruleset",
    "self_registration",
    "registration_opens_at",
    "registration_closes_at",
}


@transaction.atomic
def tournament_update(
    *, tournament_id: int, actor: Actor, expected_version: int, changes: dict[str, Any]
) -> Tournament:
    """Change the details of a tournament. The ruleset and match format only before play."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    ensure_version(current=tournament.version, expected=expected_version, thing="tournament")
    unknown = set(changes) - UPDATABLE
    if unknown:
        name = min(unknown)
        raise invalid(name, "cannot be changed here.")
    started = tournament.status in {Status.RUNNING, Status.FINISHED}
    if started and {"ruleset", "ruleset_preset", "match_format", "match_games"} & set(changes):
        raise Conflict(
            "The ruleset and match format cannot change once play has started.",
            code="already_started",
        )
    if started and "check_in_required" in changes:
        raise Conflict(
            "Check-in cannot be turned on or off once play has started.",
            code="already_started",
            fields={"check_in_required": ["play has started"]},
        )
    if "entry_cap" in changes:
        _cap_change(tournament, changes["entry_cap"], started=started)
    if "ruleset" in changes or "ruleset_preset" in changes:
        tournament.ruleset_preset, tournament.ruleset = _ruleset_json(
            changes.get("ruleset_preset", ""), changes.get("ruleset")
        )
    was_public = tournament.public
    for name in ("name", "venue", "starts_on", "ends_on", "public"):
        if name in changes:
            setattr(tournament, name, changes[name])
    if tournament.public != was_public:
        tournament_public_follow(tournament=tournament)
    if changes.get("check_in_required") is False and tournament.check_in_required:
        # No check-in after all: every team still registered plays.
        tournament.entries.filter(status=Entry.Status.ACTIVE, checked_in=False).update(
            checked_in=True, checked_in_at=timezone.now()
        )
    for name in (
        "substitutes_allowed",
        "seed_by_rating",
        "check_in_required",
        "quick_results_by_scorekeepers",
        "results_confirmed_by_both",
        "match_format",
        "match_games",
        "self_registration",
        "registration_opens_at",
        "registration_closes_at",
    ):
        if name in changes:
            setattr(tournament, name, changes[name])
    check_match_format(tournament.match_format, tournament.match_games)
    _check_window(tournament.registration_opens_at, tournament.registration_closes_at)
    if tournament.ends_on < tournament.starts_on:
        raise invalid("ends_on", "the tournament cannot end before it starts.")
    tournament.version += 1
    tournament.save()
    if "entry_cap" in changes:
        waiting_promote(tournament=tournament)
    return tournament


def _cap_change(tournament: Tournament, cap: int | None, *, started: bool) -> None:
    """Set the cap: refused once play has started (the teams playing are fixed), or below the
    teams already in (they keep their places; withdraw one first)."""
    _check_cap(cap)
    if started:
        raise Conflict(
            "The cap cannot change once play has started.",
            code="already_started",
            fields={"entry_cap": ["play has started"]},
        )
    playing = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    if cap is not None and cap < playing:
        message = (
            f"{playing} teams are in already: a cap under that would take places from teams "
            "that have them. Withdraw teams first, or choose a cap of at least that."
        )
        raise Conflict(message, code="cap_below_entries", fields={"entry_cap": [message]})
    tournament.entry_cap = cap


def _places_left(tournament: Tournament) -> int | None:
    """How many more teams may play under the tournament's cap (None: no cap)."""
    if tournament.entry_cap is None:
        return None
    playing = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    return max(tournament.entry_cap - playing, 0)


def waiting_promote(*, tournament: Tournament) -> list[Entry]:
    """Give the places free under the cap (all of them, with no cap) to the teams on the
    waiting list, first registered first, while play has not started; returns the entries
    promoted. The caller holds the tournament's lock (or is its only writer)."""
    if tournament.status in (Status.RUNNING, Status.FINISHED):
        return []
    places = _places_left(tournament)
    if places == 0:
        return []
    waiting = tournament.entries.filter(status=Entry.Status.WAITING).order_by("registered_at", "pk")
    promoted = list(waiting if places is None else waiting[:places])
    for entry in promoted:
        entry.status = Entry.Status.ACTIVE
        entry.version += 1
    Entry.objects.bulk_update(promoted, ["status", "version"])
    return promoted


@transaction.atomic
def tournament_director_add(*, tournament_id: int, actor: Actor, user_id: int) -> Tournament:
    """Name a director of the tournament (by one of its directors, or the service itself).

    A tournament's directors run it, and direct the games of its matches: they rule on their
    misplay disputes, reopen them and correct their finished hands (scoring asks through
    ``scoring.signals.game_directed_by``). No other game: the right goes with the tournament,
    and ends when they are no longer among its directors.
    """
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise invalid("user", f"there is no active account {user_id}.")
    tournament.directors.add(user)
    return _bump(tournament)


@transaction.atomic
def tournament_director_remove(*, tournament_id: int, actor: Actor, user_id: int) -> Tournament:
    """Take a director off the tournament's list (by one of its directors, or the service
    itself): from then on they direct neither the tournament nor its match games. The
    organiser cannot be taken off: they run the tournament they created."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    if user_id == tournament.organiser_id:
        raise invalid(
            "user",
            f"account {user_id} organises {tournament.name} and stays one of its directors.",
        )
    if not tournament.directors.filter(pk=user_id).exists():
        raise invalid("user", f"account {user_id} is not a director of {tournament.name}.")
    tournament.directors.remove(user_id)
    directors_left_games(tournament=tournament, user_ids=[user_id])
    return _bump(tournament)


def directors_left_games(*, tournament: Tournament, user_ids: Collection[int]) -> None:
    """Directors taken off the tournament's list keep no right to its match games: they were
    made scorekeepers of the games started while they directed it, and the starter of the games
    they started. Its organiser stays a director."""
    leaving = [pk for pk in user_ids if pk != tournament.organiser_id]
    scoring_services.games_scorekeepers_remove(
        games=Game.objects.filter(match_link__match__stage__tournament=tournament),
        user_ids=leaving,
    )


def match_games_follow(*, tournament: Tournament) -> None:
    """Make the games of the tournament's matches, those played already too, as public as the
    tournament is now (after a change of its ``public`` flag)."""
    scoring_services.games_public_set(
        games=Game.objects.filter(match_link__match__stage__tournament=tournament),
        public=tournament.public,
    )


def tournament_public_follow(*, tournament: Tournament) -> None:
    """After the tournament's ``public`` flag changed: its match games become as public as
    it is, and, once the change commits, its matches are rated in their place in time (made
    public) or taken out of the ratings (made private): only public matches are rated."""
    match_games_follow(tournament=tournament)
    from tournaments.tasks import ratings_update_tournament

    send_on_commit(ratings_update_tournament, tournament.pk)  # else ratings_repair


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(f"There is no tournament {tournament_id}.") from None


def _bump(tournament: Tournament, **values: Any) -> Tournament:
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.version += 1
    tournament.save(update_fields=[*values, "version", "updated_at"])
    return tournament


@transaction.atomic
def tournament_open_registration(*, tournament_id: int, actor: Actor) -> Tournament:
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(tournament, Status.DRAFT, doing="open registration")
    return _bump(tournament, status=Status.REGISTRATION)


@transaction.atomic
def tournament_open_check_in(*, tournament_id: int, actor: Actor) -> Tournament:
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(tournament, Status.REGISTRATION, doing="open check-in")
    return _bump(tournament, status=Status.CHECK_IN)


def _player(name: str, community: str) -> Player:
    found = scoring_services.player_named(name, community)
    return found or scoring_services.player_create(display_name=name, community=community)


def _team_for(player_one: Player, player_two: Player, name: str) -> Team:
    """The team of this pair of players (the same pair is always the same team)."""
    team = scoring_services.team_find(player_one=player_one, player_two=player_two)
    return team or scoring_services.team_create(
        player_one=player_one, player_two=player_two, name=name
    )


@transaction.atomic
def entry_register(
    *, tournament_id: int, actor: Actor, team_id: int, seed: int | None = None
) -> Entry:
    """Register a team. Directors may register while in draft, registration or check-in."""
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(
        tournament, Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN, doing="register a team"
    )
    team = Team.objects.filter(pk=team_id).first()
    if team is None:
        raise invalid("team", f"there is no team {team_id}.")
    if seed is not None and seed < 1:
        raise invalid("seed", "seeds count from 1.")
    if seed is not None and seed > SEED_MAX:
        raise invalid("seed", f"seeds go up to {SEED_MAX}.")
    if tournament.entries.filter(team=team).exists():
        raise Conflict(
            f"{team.name} is already registered.",
            code="already_registered",
            fields={"team": ["already registered in this tournament"]},
        )
    _refuse_players_elsewhere(tournament, [team.player_one_id, team.player_two_id], "team")
    if seed is not None and tournament.entries.filter(seed=seed).exists():
        raise Conflict(
            f"Seed {seed} is already taken.", code="seed_taken", fields={"seed": ["already taken"]}
        )
    waits = _places_left(tournament) == 0
    if waits and seed is not None:
        raise invalid("seed", _WAITS_UNSEEDED)
    with integrity_as_conflict(f"{team.name} or seed {seed} is already registered."):
        entry = Entry.objects.create(
            tournament=tournament, team=team, seed=seed, **_arrival(tournament, waits=waits)
        )
    _bump(tournament)
    return entry


#: Why a team registered beyond the cap takes no seed.
_WAITS_UNSEEDED = (
    "the tournament is full: this team goes on the waiting list, and takes a seed only once "
    "it is promoted; leave its seed empty."
)


def _arrival(tournament: Tournament, *, waits: bool = False) -> dict[str, Any]:
    """How a new entry starts: checked in already, unless the tournament has a check-in; on
    the waiting list when ``waits`` (the tournament is full)."""
    status = {"status": Entry.Status.WAITING} if waits else {}
    if tournament.check_in_required:
        return status
    return {"checked_in": True, "checked_in_at": timezone.now(), **status}


def _refuse_players_elsewhere(
    tournament: Tournament, players: list[int], field: str, *, besides: Entry | None = None
) -> None:
    """A player plays for one entry of a tournament: ``players`` already on the team of an
    entry other than ``besides``, or standing in for one, are refused (400 naming ``field``)."""
    entries = tournament.entries.select_related("team").order_by("pk")
    if besides is not None:
        entries = entries.exclude(pk=besides.pk)
    playing = entries.filter(
        Q(team__player_one__in=players) | Q(team__player_two__in=players)
    ).first()
    if playing is not None:
        shared = Player.objects.filter(pk__in=set(players) & set(playing.team.player_ids)).first()
        raise invalid(field, f"{shared} already plays for {playing.team} (entry {playing.pk}).")
    standing_in = entries.filter(substitutes__in=players).first()
    if standing_in is not None:
        player = standing_in.substitutes.filter(pk__in=players).first()
        raise invalid(
            field,
            f"{player} is already a substitute for {standing_in.team} (entry {standing_in.pk}).",
        )


@transaction.atomic
def entry_check_in(*, entry_id: int, actor: Actor, checked_in: bool = True) -> Entry:
    entry = Entry.objects.select_related("tournament").select_for_update().get(pk=entry_id)
    require_director(entry.tournament, actor)
    require_status(entry.tournament, Status.REGISTRATION, Status.CHECK_IN, doing="check a team in")
    if entry.status == Entry.Status.WITHDRAWN:
        raise Conflict(f"{entry.team} has withdrawn.", code="withdrawn")
    entry.checked_in = checked_in
    entry.checked_in_at = timezone.now() if checked_in else None
    if entry.status == Entry.Status.INACTIVE:
        # back in play, if a place is free; else behind the teams already waiting
        full = _places_left(entry.tournament) == 0
        entry.status = Entry.Status.WAITING if full else Entry.Status.ACTIVE
    entry.version += 1
    entry.save(update_fields=["checked_in", "checked_in_at", "status", "version"])
    return entry


@transaction.atomic
def entry_substitute_add(*, entry_id: int, actor: Actor, player_id: int) -> Entry:
    """Let ``player`` stand in for either player of the entry, if the tournament allows it.

    A player plays for one entry of a tournament: one on another entry's team, or already
    another entry's substitute, is refused. The tournament is locked first, so that two
    entries cannot take the same player at the same time.
    """
    tournament_id = (
        Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise NotFound(f"There is no entry {entry_id}.")
    tournament = _locked(tournament_id)
    entry = Entry.objects.select_related("team").select_for_update().get(pk=entry_id)
    entry.tournament = tournament
    require_director(tournament, actor)
    if not tournament.substitutes_allowed:
        raise Conflict(f"{tournament.name} does not allow substitutes.", code="no_substitutes")
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise invalid("player", f"there is no player {player_id}.")
    if player.pk in entry.team.player_ids:
        raise invalid("player", f"{player} already plays for {entry.team}.")
    _refuse_players_elsewhere(tournament, [player.pk], "player", besides=entry)
    entry.substitutes.add(player)
    return entry


def _rating_order(entries: list[Entry]) -> list[Entry]:
    """Entries strongest first by the mean conservative rating of their two players."""
    from tournaments.services.ratings import team_strength

    strengths = team_strength([(e.team.player_one_id, e.team.player_two_id) for e in entries])
    return [
        entry
        for entry, _ in sorted(
            zip(entries, strengths, strict=True), key=lambda pair: (-pair[1], pair[0].pk)
        )
    ]


@transaction.atomic
def checkin_process(*, tournament_id: int, actor: Actor) -> Tournament:
    """Close check-in: no-shows become inactive and the seeds of the rest close up (1..n).

    Seeded entries keep their order; unseeded ones follow in order of registration. With
    ``seed_by_rating`` every checked-in entry is seeded by its players' ratings instead.
    """
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(tournament, Status.CHECK_IN, doing="process check-in")
    entries = list(tournament.entries.select_related("team").select_for_update())
    present = [e for e in entries if e.checked_in and e.status == Entry.Status.ACTIVE]
    present += _standby_promote(tournament, present, entries)
    if len(present) < 2:
        raise Conflict(
            f"Only {len(present)} team(s) checked in; a tournament needs at least two.",
            code="too_few_entries",
        )
    _seeds_close_up(tournament, present, entries)
    return _bump(tournament)


def _standby_promote(
    tournament: Tournament, present: list[Entry], entries: list[Entry]
) -> list[Entry]:
    """The places of the teams that missed check-in go to the waiting teams that checked
    in, first registered first, up to the cap; returns those promoted."""
    free = None if tournament.entry_cap is None else tournament.entry_cap - len(present)
    standby = sorted(
        (e for e in entries if e.status == Entry.Status.WAITING and e.checked_in),
        key=lambda e: (e.registered_at, e.pk),
    )
    promoted = standby if free is None else standby[: max(free, 0)]
    for entry in promoted:
        entry.status = Entry.Status.ACTIVE
        entry.version += 1
    Entry.objects.bulk_update(promoted, ["status", "version"])
    return promoted


def _seeds_close_up(tournament: Tournament, present: list[Entry], entries: list[Entry]) -> None:
    """Seed ``present`` 1..n (their seeds' order, unseeded ones in order of registration, or
    by rating with ``seed_by_rating``); the other active ``entries`` become inactive."""
    if tournament.seed_by_rating:
        ordered = _rating_order(present)
    else:
        ordered = sorted(
            present, key=lambda e: (e.seed is None, e.seed or 0, e.registered_at, e.pk)
        )
    _seeds_store(tournament, ordered)
    playing = {e.pk for e in present}
    absent = [e for e in entries if e.pk not in playing and e.status == Entry.Status.ACTIVE]
    for entry in absent:
        entry.status = Entry.Status.INACTIVE
        entry.seed = None
        entry.version += 1
    Entry.objects.bulk_update(absent, ["seed", "status", "version"])


def _seeds_store(tournament: Tournament, ordered: list[Entry]) -> None:
    """Seed ``ordered`` 1..n and every other entry of the tournament none."""
    in_place = all(entry.seed == number for number, entry in enumerate(ordered, start=1))
    if in_place and tournament.entries.exclude(seed=None).count() == len(ordered):
        return  # seeded so already (as the director left them, or check-in closed them up)
    tournament.entries.update(seed=None)
    for number, entry in enumerate(ordered, start=1):
        entry.seed = number
        entry.version += 1
    Entry.objects.bulk_update(ordered, ["seed", "version"])


def entries_close_up(*, tournament: Tournament) -> None:
    """Before the first stage of a tournament without check-in: every active entry plays,
    seeded 1..n as :func:`checkin_process` would (the tournament is locked)."""
    entries = list(tournament.entries.select_related("team").select_for_update())
    present = [e for e in entries if e.status == Entry.Status.ACTIVE]
    if len(present) < 2:
        raise Conflict(
            f"Only {len(present)} team(s) registered; a tournament needs at least two.",
            code="too_few_entries",
        )
    now = timezone.now()
    late = [e for e in present if not e.checked_in]
    for entry in late:
        entry.checked_in, entry.checked_in_at = True, now
    Entry.objects.bulk_update(late, ["checked_in", "checked_in_at"])
    _seeds_close_up(tournament, present, entries)


SEED_METHODS = ("as_entered", "rating", "random", "order")


@transaction.atomic
def entries_seed(
    *,
    tournament_id: int,
    actor: Actor,
    method: str,
    order: Sequence[int] = (),
    rng: random.Random | None = None,
) -> Tournament:
    """Seed the active entries 1..n before play starts.

    ``method``: ``as_entered`` (in order of registration), ``rating`` (strongest pair of
    players first), ``random``, or ``order`` (``order`` lists every active entry's id, seed 1
    first). Withdrawn and inactive entries keep no seed.
    """
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(
        tournament, Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN, doing="seed the teams"
    )
    if method not in SEED_METHODS:
        raise invalid("method", f"must be one of {', '.join(SEED_METHODS)}.")
    entries = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE)
        .select_related("team")
        .select_for_update()
        .order_by("registered_at", "pk")
    )
    if method == "rating":
        ordered = _rating_order(entries)
    elif method == "random":
        ordered = list(entries)
        (rng or random.SystemRandom()).shuffle(ordered)
    elif method == "order":
        by_id = {e.pk: e for e in entries}
        unknown = [pk for pk in order if pk not in by_id]
        if unknown:
            raise invalid("order", f"entry {unknown[0]} is not an active entry of this tournament.")
        if len(set(order)) != len(order):
            raise invalid("order", "lists an entry twice.")
        left_out = [e for e in entries if e.pk not in set(order)]
        if left_out:
            raise invalid(
                "order", f"leaves out {left_out[0].team} (entry {left_out[0].pk}): list every one."
            )
        ordered = [by_id[pk] for pk in order]
    else:
        ordered = list(entries)
    _seeds_store(tournament, ordered)
    return _bump(tournament)


# ------------------------------------------------------------------------------ CSV import
CSV_COLUMNS = ("team", "player_one", "player_two", "community", "seed")
REQUIRED_COLUMNS = ("player_one", "player_two")


@dataclass
class ImportReport:
    """What a CSV import did, or would have done: per-row problems, and the entries made."""

    rows: int = 0
    created: list[Entry] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    #: How a row is named in the errors: ``rows.<line>`` (CSV) or ``entries.<index>`` (JSON).
    prefix: str = "rows"

    def add(self, row: int, column: str, reason: str) -> None:
        self.errors.setdefault(f"{self.prefix}.{row}.{column}", []).append(reason)


@dataclass(frozen=True)
class _Row:
    number: int
    team: str
    player_one: str
    player_two: str
    community: str
    seed: int | None


def _unreadable(reader: Any, error: csv.Error) -> ValidationFailed:
    """The refusal of a CSV the csv module cannot read, naming the line it stopped at."""
    line = max(reader.line_num, 1)
    reason = f"cannot be read as CSV ({error})"
    return ValidationFailed(
        f"Nothing was imported: line {line} {reason}.",
        code="csv_unreadable",
        fields={f"rows.{line}": [reason]},
    )


def _parse_rows(text: str, report: ImportReport) -> list[_Row]:
    # Lines may end in CR alone (old Mac and Excel files) as well as LF or CRLF.
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.DictReader(io.StringIO(lines))
    try:
        fieldnames = reader.fieldnames
    except csv.Error as error:
        raise _unreadable(reader.reader, error) from None
    header = [h.strip().lower() for h in fieldnames or []]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise ValidationFailed(
            f"The CSV needs the columns {', '.join(REQUIRED_COLUMNS)} "
            f"(missing {', '.join(missing)}).",
            code="csv_columns",
            fields={"file": [f"missing column {c}" for c in missing]},
        )
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        raise ValidationFailed(
            f"Unknown CSV column(s): {', '.join(unknown)}; use {', '.join(CSV_COLUMNS)}.",
            code="csv_columns",
            fields={"file": [f"unknown column {c}" for c in unknown]},
        )
    rows: list[_Row] = []
    try:
        read = list(reader)
    except csv.Error as error:
        raise _unreadable(reader.reader, error) from None
    for number, raw in enumerate(read, start=2):  # row 1 is the header
        row = _read_row(number, raw, report)
        if row is not None:
            rows.append(row)
    if not rows:
        raise ValidationFailed(
            "The CSV holds no teams.", code="csv_empty", fields={"file": ["no rows"]}
        )
    return rows


def _read_row(number: int, raw: dict[str, Any], report: ImportReport) -> _Row | None:
    """One team from its columns (None for a blank row), every problem added to ``report``."""
    values = {
        (k or "").strip().lower(): ("" if v is None else str(v)).strip()
        for k, v in raw.items()
        if k
    }
    for column in ("player_one", "player_two", "community"):
        values[column] = scoring_services.name_normalised(values.get(column, ""))
    if not any(values.values()):
        return None
    report.rows += 1
    seed: int | None = None
    if values.get("seed"):
        try:
            seed = int(values["seed"])
        except ValueError:
            report.add(number, "seed", f"{values['seed']!r} is not a whole number.")
        else:
            if seed < 1:
                report.add(number, "seed", "seeds count from 1.")
            elif seed > SEED_MAX:
                report.add(number, "seed", f"seeds go up to {SEED_MAX}.")
    for column in REQUIRED_COLUMNS:
        if not values.get(column):
            report.add(number, column, "is empty.")
        elif len(values[column]) > 100:
            report.add(number, column, "is longer than 100 characters.")
        elif why := scoring_services.name_refused_why(values[column]):
            report.add(number, column, f"{why}.")
    for column, longest in (("team", 120), ("community", 100)):
        if len(values.get(column, "")) > longest:
            report.add(number, column, f"is longer than {longest} characters.")
    if values.get("player_one") and values.get("player_one") == values.get("player_two"):
        report.add(number, "player_two", "is the same player as player_one.")
    return _Row(
        number,
        values.get("team", ""),
        values.get("player_one", ""),
        values.get("player_two", ""),
        values.get("community", ""),
        seed,
    )


def _check_duplicates(rows: Iterable[_Row], tournament: Tournament, report: ImportReport) -> None:
    seen_players: dict[tuple[str, str], int] = {}
    seen_seeds: dict[int, int] = {}
    taken_seeds = set(tournament.entries.exclude(seed=None).values_list("seed", flat=True))
    registered = {
        (name.lower(), community.lower())
        for pair in tournament.entries.values_list(
            "team__player_one__display_name",
            "team__player_one__community",
            "team__player_two__display_name",
            "team__player_two__community",
        )
        for name, community in ((pair[0], pair[1]), (pair[2], pair[3]))
    } | {  # a substitute of an entry plays for it, as its team's players do
        (name.lower(), community.lower())
        for name, community in tournament.entries.values_list(
            "substitutes__display_name", "substitutes__community"
        )
        if name is not None
    }
    for row in rows:
        for column in REQUIRED_COLUMNS:
            name = getattr(row, column)
            key = (name.lower(), row.community.lower())
            if not name or (column == "player_two" and name == row.player_one):
                continue
            if key in seen_players:
                report.add(row.number, column, f"{name} is already on row {seen_players[key]}.")
            elif key in registered:
                report.add(row.number, column, f"{name} is already registered in this tournament.")
            seen_players[key] = row.number
        if row.seed is not None:
            if row.seed in seen_seeds:
                report.add(
                    row.number, "seed", f"seed {row.seed} is already on row {seen_seeds[row.seed]}."
                )
            elif row.seed in taken_seeds:
                report.add(row.number, "seed", f"seed {row.seed} is already taken.")
            seen_seeds[row.seed] = row.number


@transaction.atomic
def entries_import_csv(*, tournament_id: int, actor: Actor, text: str) -> ImportReport:
    """Register the teams of a CSV (columns team, player_one, player_two, community, seed).

    All or nothing: if any row is bad nothing is registered, and the error names every bad
    row and column (``rows.<line>.<column>``, counting the header as line 1).
    """
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(
        tournament, Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN, doing="import teams"
    )
    report = ImportReport()
    rows = _parse_rows(text, report)
    _register_rows(tournament, rows, report, what="lines")
    return report


def _register_rows(
    tournament: Tournament, rows: list[_Row], report: ImportReport, *, what: str
) -> None:
    """Register ``rows`` (the tournament is locked), or nothing if any of them is refused."""
    _check_duplicates(rows, tournament, report)
    places = _places_left(tournament)
    for index, row in enumerate(rows):
        if places is not None and index >= places and row.seed is not None:
            report.add(row.number, "seed", _WAITS_UNSEEDED)
    if report.errors:
        bad = sorted({key.split(".")[1] for key in report.errors}, key=int)
        raise ValidationFailed(
            f"Nothing was imported: {len(bad)} of {report.rows} rows have problems "
            f"({what} {', '.join(bad)}).",
            code="csv_rows_invalid" if report.prefix == "rows" else "entries_invalid",
            fields=report.errors,
        )
    arrival = _arrival(tournament)
    waiting = _arrival(tournament, waits=True)
    for index, row in enumerate(rows):
        one = _player(row.player_one, row.community)
        two = _player(row.player_two, row.community)
        team = _team_for(one, two, row.team)
        if tournament.entries.filter(team=team).exists():
            field_name = f"{report.prefix}.{row.number}.team"
            raise ValidationFailed(
                f"Nothing was imported: {what[:-1]} {row.number}: {team.name} is already "
                "registered.",
                code="csv_rows_invalid" if report.prefix == "rows" else "entries_invalid",
                fields={field_name: ["already registered in this tournament"]},
            )
        how = waiting if places is not None and index >= places else arrival
        report.created.append(Entry(tournament=tournament, team=team, seed=row.seed, **how))
    with integrity_as_conflict("Another change registered some of these teams at the same time."):
        report.created = Entry.objects.bulk_create(report.created)
    _bump(tournament)


ENTRY_KEYS = frozenset(CSV_COLUMNS)


@transaction.atomic
def entries_bulk_add(
    *, tournament_id: int, actor: Actor, entries: Sequence[dict[str, Any]]
) -> ImportReport:
    """Register many teams at once, each ``{"player_one", "player_two"}`` with an optional
    ``team`` name, ``community`` and ``seed``: the CSV import's rows as JSON.

    All or nothing: if any entry is bad nothing is registered, and the error names every bad
    entry and field (``entries.<index>.<field>``, counting from 0).
    """
    tournament = _locked(tournament_id)
    require_director(tournament, actor)
    require_status(
        tournament, Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN, doing="add teams"
    )
    if not entries:
        raise invalid("entries", "lists no teams.")
    report = ImportReport(prefix="entries")
    rows: list[_Row] = []
    for index, raw in enumerate(entries):
        if not isinstance(raw, dict):
            report.rows += 1
            report.add(index, "team", "is not an object with player_one and player_two.")
            continue
        unknown = sorted(set(raw) - ENTRY_KEYS)
        for key in unknown:
            report.add(index, str(key), f"is not a field; use {', '.join(CSV_COLUMNS)}.")
        row = _read_row(index, {k: v for k, v in raw.items() if k in ENTRY_KEYS}, report)
        if row is None:
            report.rows += 1
            report.add(index, "player_one", "is empty.")
            continue
        rows.append(row)
    _register_rows(tournament, rows, report, what="entries")
    return report
