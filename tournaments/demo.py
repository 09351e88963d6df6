"""Demo data, and matches played by the engine's simulator through the real services.

Used by the demo data, the whole-tournament tests and the benchmark: every game is a scoring
game started by :func:`~tournaments.services.match_game_start`, every hand is entered as a
score-sheet summary with :func:`scoring.services.hand_record`, exactly as a scorekeeper would.
"""

import datetime as dt
import random
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring import services as scoring_services
from scoring.engine import Ruleset, simulate_game
from scoring.models import Hand
from tournaments.models import Match, Stage, Tournament
from tournaments.services import match_game_start, match_sync
from tournaments.services._common import Actor

MAX_GAMES = 12


def match_play_simulated(
    *, match_id: int, rng: random.Random, actor: Actor = None, player: str = "random"
) -> Match:
    """Play ``match`` game by game until it is decided (or waits for a director)."""
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    ruleset = Ruleset.from_json(match.stage.tournament.ruleset)
    for _ in range(MAX_GAMES):
        if match.state not in (Match.State.READY, Match.State.IN_PROGRESS):
            return match
        simulated = simulate_game(ruleset, rng, player=player)  # type: ignore[arg-type]
        link = match_game_start(match_id=match.pk, actor=actor, first_dealer=simulated.first_dealer)
        for hand in simulated.hands:
            scoring_services.hand_record(
                game=link.game, entry_kind=Hand.EntryKind.SUMMARY, entry=hand.summary.to_json()
            )
        match = match_sync(match_id=match.pk)
    return match


def stage_play_simulated(
    *,
    stage_id: int,
    rng: random.Random,
    actor: Actor = None,
    limit: int | None = None,
    player: str = "random",
) -> int:
    """Play every match of the stage that can be played now, again and again as the bracket
    opens new ones; ``limit`` stops after that many matches. Returns how many were played."""
    played = 0
    while limit is None or played < limit:
        ready = list(
            Match.objects.filter(
                stage_id=stage_id, state__in=[Match.State.READY, Match.State.IN_PROGRESS]
            )
            .order_by("round_id", "number")
            .values_list("pk", flat=True)[: None if limit is None else limit - played]
        )
        if not ready:
            break
        for match_id in ready:
            match_play_simulated(match_id=match_id, rng=rng, actor=actor, player=player)
            played += 1
    return played


# ------------------------------------------------------------------------------ demo data
FIRST_NAMES = (
    "Angus",
    "Mary",
    "Ron",
    "Gerard",
    "Joan",
    "Flora",
    "Hughie",
    "Theresa",
    "Dan Alex",
    "Margaret",
    "Rod",
    "Catherine",
    "Ambrose",
    "Annie",
    "Lauchie",
    "Bernadette",
    "Jimmy",
    "Effie",
    "Wilfred",
    "Colette",
    "Neil",
    "Sadie",
    "Archie",
    "Rita",
    "Donnie",
    "Claudette",
    "Murdock",
    "Peggy",
    "Alphonse",
    "Marie",
    "Johnny",
    "Isabel",
)
LAST_NAMES = (
    "MacNeil",
    "MacDonald",
    "Doucet",
    "Aucoin",
    "Campbell",
    "MacLean",
    "Chiasson",
    "Boudreau",
    "MacKinnon",
    "Gillis",
    "LeBlanc",
    "MacIsaac",
    "Poirier",
    "MacLellan",
    "Deveau",
    "Rankin",
)
COMMUNITIES = (
    "Glace Bay",
    "Sydney",
    "North Sydney",
    "Cheticamp",
    "Baddeck",
    "New Waterford",
    "Dominion",
    "Inverness",
    "Louisbourg",
    "Port Hood",
    "Ingonish",
    "Mabou",
)
FINISHED_SLUG = "legion-fall-classic"
RUNNING_SLUG = "cape-breton-winter-open"
SWISS_SLUG = "cheticamp-swiss-night"
KNOCKOUT_SLUG = "mabou-knockout-cup"
DEMO_SLUGS = (FINISHED_SLUG, RUNNING_SLUG, SWISS_SLUG, KNOCKOUT_SLUG)


def _demo_teams(count: int, offset: int) -> list[int]:
    """``count`` demo teams (players made once, by name and community); returns team ids."""
    from scoring.models import Player

    team_ids = []
    for index in range(offset, offset + count):
        people = []
        for seat in (0, 1):
            number = 2 * index + seat
            name = (
                f"{FIRST_NAMES[number % len(FIRST_NAMES)]} {LAST_NAMES[number % len(LAST_NAMES)]}"
            )
            community = COMMUNITIES[index % len(COMMUNITIES)]
            player = Player.objects.filter(display_name=name, community=community).first()
            people.append(
                player or scoring_services.player_create(display_name=name, community=community)
            )
        team = scoring_services.team_find(player_one=people[0], player_two=people[1])
        team = team or scoring_services.team_create(player_one=people[0], player_two=people[1])
        team_ids.append(team.pk)
    return team_ids


def _demo_registered(
    *, director: Any, slug: str, name: str, teams: int, offset: int, absent: int, **values: Any
) -> Tournament:
    """A tournament with ``teams`` demo teams registered and checked in but ``absent`` of them,
    check-in processed: ready for its stages."""
    from tournaments import services

    tournament = services.tournament_create(
        actor=director, name=name, slug=slug, check_in_required=absent > 0, **values
    )
    services.tournament_open_registration(tournament_id=tournament.pk, actor=director)
    entries = [
        services.entry_register(tournament_id=tournament.pk, actor=director, team_id=team_id)
        for team_id in _demo_teams(teams, offset)
    ]
    services.tournament_open_check_in(tournament_id=tournament.pk, actor=director)
    for entry in entries[: teams - absent]:
        services.entry_check_in(entry_id=entry.pk, actor=director)
    services.checkin_process(tournament_id=tournament.pk, actor=director)
    return tournament


def _demo_tournament(
    *, director: Any, slug: str, name: str, teams: int, offset: int, pools: int, **values: Any
) -> Tournament:
    from tournaments import services

    tournament = _demo_registered(
        director=director,
        slug=slug,
        name=name,
        teams=teams,
        offset=offset,
        absent=teams % 2,
        **values,
    )
    services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind=Stage.Kind.ROUND_ROBIN,
        name="Pools",
        pool_count=pools,
    )
    services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind=Stage.Kind.DOUBLE_ELIM,
        name="Double elimination",
        qualifiers_per_pool=2,
        grand_final=Stage.GrandFinal.RESET,
    )
    return tournament


def _weeks_ago(weeks: int) -> dt.date:
    """A Saturday ``weeks`` weeks before today (or before the coming one): the demo's past
    tournaments sit on the autumn's Saturdays before the day it is loaded."""
    today = timezone.localdate()
    saturday = today + dt.timedelta(days=(5 - today.weekday()) % 7)
    return saturday - dt.timedelta(weeks=weeks)


def _played_on_its_day(tournament: Tournament, since: dt.datetime) -> None:
    """Date what was just played for a past ``tournament`` (simulated now, since ``since``) on
    its own day, from seven in the evening: its games and hands, matches, stages, results
    and ratings move back by the same span, keeping their order and spacing."""
    from scoring.models import Game, HandRevision, MisplayDispute
    from tournaments.models import Entry, RatingChange, TournamentEvent

    evening = timezone.make_aware(dt.datetime.combine(tournament.starts_on, dt.time(19)))
    shift = evening - since

    def moved(*names: str) -> dict[str, Any]:
        return {name: F(name) + shift for name in names}

    games = Game.objects.filter(match_link__match__stage__tournament=tournament)
    games.update(**moved("created_at", "updated_at"))
    games.filter(finished_at__isnull=False).update(**moved("finished_at"))
    hands = Hand.objects.filter(game__in=games)
    hands.update(**moved("created_at", "updated_at"))
    HandRevision.objects.filter(hand__in=hands).update(**moved("changed_at"))
    MisplayDispute.objects.filter(hand__in=hands).update(**moved("created_at"))
    matches = Match.objects.filter(stage__tournament=tournament)
    matches.filter(started_at__isnull=False).update(**moved("started_at"))
    matches.filter(finished_at__isnull=False).update(**moved("finished_at"))
    stages = Stage.objects.filter(tournament=tournament)
    for name in ("started_at", "finished_at", "standings_computed_at"):
        stages.filter(**{f"{name}__isnull": False}).update(**moved(name))
    Entry.objects.filter(tournament=tournament, checked_in_at__isnull=False).update(
        **moved("checked_in_at")
    )
    RatingChange.objects.filter(match__stage__tournament=tournament).update(**moved("created_at"))
    TournamentEvent.objects.filter(tournament=tournament).update(**moved("at"))
    Tournament.objects.filter(pk=tournament.pk, finished_at__isnull=False).update(
        **moved("finished_at")
    )


def _demo_swiss(
    *, director: Any, rng: random.Random, teams: int, rounds: int, offset: int
) -> Tournament:
    """A running Swiss tournament (an odd field, so a bye each round): every round but the
    last played, the last paired and half played; standings with Buchholz."""
    from tournaments import services

    tournament = _demo_registered(
        director=director,
        slug=SWISS_SLUG,
        name="Chéticamp Swiss Night",
        venue="Chéticamp Co-op Hall",
        starts_on=timezone.localdate(),  # tonight, as the other running one
        teams=teams,
        offset=offset,
        absent=0,
    )
    stage = services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind=Stage.Kind.SWISS,
        name="Swiss rounds",
        swiss_rounds=rounds,
    )
    services.stage_start(stage_id=stage.pk, actor=director)
    for _ in range(rounds - 1):
        stage_play_simulated(stage_id=stage.pk, rng=rng, player="greedy")
        services.swiss_round_pair(stage_id=stage.pk, actor=director)
    to_play = Match.objects.filter(stage=stage, state=Match.State.READY).count()
    stage_play_simulated(stage_id=stage.pk, rng=rng, player="greedy", limit=to_play // 2)
    services.standings_recompute(stage_id=stage.pk, force=True)
    return tournament


def _demo_knockout(*, director: Any, rng: random.Random, teams: int, offset: int) -> Tournament:
    """A finished single-elimination cup with a match for third place."""
    from tournaments import services

    since = timezone.now()
    tournament = _demo_registered(
        director=director,
        slug=KNOCKOUT_SLUG,
        name="Mabou Knockout Cup",
        venue="Mabou Community Hall",
        starts_on=_weeks_ago(9),
        teams=teams,
        offset=offset,
        absent=0,
    )
    stage = services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind=Stage.Kind.SINGLE_ELIM,
        name="Single elimination",
        third_place=True,
    )
    services.stage_start(stage_id=stage.pk, actor=director)
    stage_play_simulated(stage_id=stage.pk, rng=rng, player="greedy")
    services.tournament_finish(tournament_id=tournament.pk, actor=director)
    _played_on_its_day(tournament, since)
    return tournament


def demo_load(
    *,
    director: Any,
    seed: int = 1979,
    finished: tuple[int, int] = (16, 4),
    running: tuple[int, int] = (13, 3),
    swiss: tuple[int, int] = (9, 4),
    cup: int = 8,
) -> list[Tournament]:
    """One finished and one running tournament (pools into a double elimination bracket), a
    running Swiss tournament and a finished single-elimination cup, every game simulated by
    the engine and entered hand by hand. Idempotent: a demo tournament that exists already is
    left as it is.

    ``finished`` and ``running`` are (teams registered, pools) of each; one team of an odd
    count does not check in. ``swiss`` is (teams, rounds); ``cup`` the cup's teams."""
    from tournaments import services

    made = []
    rng = random.Random(seed)  # noqa: S311 - demo results, not secrets
    if not Tournament.objects.filter(slug=FINISHED_SLUG).exists():
        with transaction.atomic():
            since = timezone.now()
            tournament = _demo_tournament(
                director=director,
                slug=FINISHED_SLUG,
                name="Legion Fall Classic",
                venue="Royal Canadian Legion Branch 2, Glace Bay",
                starts_on=_weeks_ago(5),
                teams=finished[0],
                offset=0,
                pools=finished[1],
            )
            for stage in tournament.stages.order_by("order"):
                if stage.status == Stage.Status.PENDING:
                    services.stage_advance(tournament_id=tournament.pk, actor=director)
                stage_play_simulated(stage_id=stage.pk, rng=rng, player="greedy")
            services.tournament_finish(tournament_id=tournament.pk, actor=director)
            _played_on_its_day(tournament, since)
            made.append(tournament)
    if not Tournament.objects.filter(slug=RUNNING_SLUG).exists():
        with transaction.atomic():
            tournament = _demo_tournament(
                director=director,
                slug=RUNNING_SLUG,
                name="Cape Breton Winter Open",
                venue="St. Joseph's Parish Hall, North Sydney",
                starts_on=timezone.localdate(),  # running: today
                teams=running[0],
                offset=finished[0],
                pools=running[1],
                match_games=3,
            )
            pools, knockout = tournament.stages.order_by("order")
            services.stage_start(stage_id=pools.pk, actor=director)
            stage_play_simulated(stage_id=pools.pk, rng=rng, player="greedy")
            services.stage_advance(tournament_id=tournament.pk, actor=director)
            stage_play_simulated(stage_id=knockout.pk, rng=rng, player="greedy", limit=4)
            _half_played_game(knockout, rng)
            made.append(tournament)
    offset = finished[0] + running[0]
    if not Tournament.objects.filter(slug=SWISS_SLUG).exists():
        with transaction.atomic():
            made.append(
                _demo_swiss(
                    director=director, rng=rng, teams=swiss[0], rounds=swiss[1], offset=offset
                )
            )
    offset += swiss[0]
    if not Tournament.objects.filter(slug=KNOCKOUT_SLUG).exists():
        with transaction.atomic():
            made.append(_demo_knockout(director=director, rng=rng, teams=cup, offset=offset))
    return made


def _half_played_game(stage: Stage, rng: random.Random) -> None:
    """Leave one game in progress at a table: a few hands entered, the rest to come."""
    match = Match.objects.filter(stage=stage, state=Match.State.READY).order_by("table").first()
    if match is None:
        return
    ruleset = Ruleset.from_json(stage.tournament.ruleset)
    simulated = simulate_game(ruleset, rng, player="greedy")
    link = match_game_start(match_id=match.pk, actor=None, first_dealer=simulated.first_dealer)
    for hand in simulated.hands[:3]:
        scoring_services.hand_record(
            game=link.game, entry_kind=Hand.EntryKind.SUMMARY, entry=hand.summary.to_json()
        )


def demo_summary() -> dict[str, int]:
    demo = Tournament.objects.filter(slug__in=DEMO_SLUGS)
    matches = Match.objects.filter(stage__tournament__in=demo)
    return {
        "tournaments": demo.count(),
        "matches complete": matches.filter(state=Match.State.COMPLETE, bye=False).count(),
        "matches to play": matches.filter(
            state__in=[Match.State.READY, Match.State.PENDING]
        ).count(),
        "games in progress": matches.filter(state=Match.State.IN_PROGRESS).count(),
    }
