"""Models of the tournaments app.

A tournament holds entries (teams of two), and stages played one after another (round-robin
pools, Swiss, single or double elimination). Stages hold rounds, rounds hold matches, and
matches link the scoring games played in them. What the scorekeepers enter lives in the
scoring app; a match stores the result derived from its games beside them, and standings rows
are derived from match results by a Celery task.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.algorithms.standings import DEFAULT_TIEBREAKERS, SWISS_TIEBREAKERS

#: The largest seed: what the seed column holds on every database (PostgreSQL's integer).
SEED_MAX = 2**31 - 1
#: The most pools a round-robin stage is played in: they are named Pool A to Pool Z.
POOLS_MAX = 26
#: The most rounds of a Swiss stage: ceil(log2 n) rounds rank n entries, and 20 rank a million.
SWISS_ROUNDS_MAX = 20
#: The most entries of each pool a stage takes: what its column holds (a small integer).
QUALIFIERS_PER_POOL_MAX = 2**15 - 1


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        CHECK_IN = "check_in", _("Check-in")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class MatchFormat(models.TextChoices):
        BEST_OF = "best_of", _("Best of N games")
        FIXED = "fixed", _("Fixed number of games, total points")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField()
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        null=True,
        blank=True,
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    #: Accounts that keep score at every table of the tournament while it runs (and do
    #: nothing else: no rulings, no forfeits), named by its directors.
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="kept_tournaments", blank=True
    )
    ruleset_preset = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("Slug of the engine preset; empty for a custom ruleset."),
    )
    ruleset = models.JSONField(
        help_text=_("The full ruleset, copied to every game of the tournament.")
    )
    match_format = models.CharField(
        max_length=10, choices=MatchFormat.choices, default=MatchFormat.BEST_OF
    )
    match_games = models.PositiveSmallIntegerField(
        default=1, help_text=_("N: best of N games, or a fixed number of N games.")
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    public = models.BooleanField(default=True)
    substitutes_allowed = models.BooleanField(default=False)
    seed_by_rating = models.BooleanField(
        default=False, help_text=_("At check-in, seed entries by the players' ratings.")
    )
    check_in_required = models.BooleanField(
        default=False,
        help_text=_(
            "Teams check in on the day; otherwise every registered team is checked in and plays."
        ),
    )
    entry_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "The most teams that play: teams registered beyond it wait, and are "
            "promoted in order of registration when a place frees. Empty: no cap."
        ),
    )
    quick_results_by_scorekeepers = models.BooleanField(
        default=False,
        help_text=_(
            "The scorekeeper of a match's table may record a game played on paper by its "
            "final totals (directors always may)."
        ),
    )
    results_confirmed_by_both = models.BooleanField(
        default=False,
        help_text=_(
            "A player of either team may report a match's result by its games' totals; it "
            "counts once a player of the other team or a director confirms it."
        ),
    )
    self_registration = models.BooleanField(
        default=False,
        help_text="Signed-in players register their own teams from the tournament's page "
        "(a player names a partner, who confirms), while the registration window is open.",
    )
    registration_opens_at = models.DateTimeField(
        null=True, blank=True, help_text="Teams register themselves from then; empty: at once."
    )
    registration_closes_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Teams register themselves until then; empty: until play starts.",
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(registration_opens_at__isnull=True)
                | Q(registration_closes_at__isnull=True)
                | Q(registration_closes_at__gt=F("registration_opens_at")),
                name="tournament_registration_window",
                violation_error_message="Registration closes after it opens.",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_after_start",
                violation_error_message="The last day cannot come before the first day.",
            ),
            models.CheckConstraint(
                condition=Q(entry_cap__isnull=True) | Q(entry_cap__gte=2),
                name="tournament_entry_cap",
                violation_error_message="A tournament is at least two teams: a cap of 2 or more.",
            ),
            models.CheckConstraint(
                condition=Q(match_games__gte=1),
                name="tournament_match_games",
                violation_error_message="A match is at least one game.",
            ),
            models.CheckConstraint(
                condition=~Q(match_format="best_of") | Q(match_games__in=[1, 3, 5, 7, 9]),
                name="tournament_best_of_odd",
                violation_error_message=(
                    "Best of N games needs an odd N (1, 3, 5, 7 or 9): an even number can end "
                    "level."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A team of two registered in a tournament."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        INACTIVE = "inactive", _("Inactive (did not check in)")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        WAITING = "waiting", _("On the waiting list")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey("scoring.Team", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    checked_in = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal_note = models.CharField(max_length=300, blank=True)
    substitutes = models.ManyToManyField("scoring.Player", blank=True, related_name="substitutes")
    final_place = models.PositiveIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["tournament_id", "seed", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "team"],
                name="entry_team_once",
                violation_error_message="This team is already registered in this tournament.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_unique",
                violation_error_message=(
                    "Another entry of this tournament already has this seed: choose a free seed, or"
                    " leave it empty."
                ),
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=1),
                name="entry_seed_positive",
                violation_error_message="Seeds start at 1.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.tournament})"

    @property
    def display_name(self) -> str:
        """The team's name as its tournament shows it: told apart from the same name registered
        by another team (see :func:`tournaments.selectors.name_entries`), else the name alone."""
        return self.__dict__.get("_display_name") or self.team.name

    @display_name.setter
    def display_name(self, value: str) -> None:
        self.__dict__["_display_name"] = value


class TeamRegistration(models.Model):
    """A team registering itself: a signed-in player names a partner (another account), and
    the team is entered once the partner confirms. Either of them may withdraw it while it
    waits; the partner withdrawing it declines it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the partner")
        CONFIRMED = "confirmed", _("Confirmed")
        DECLINED = "declined", _("Declined by the partner")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="team_registrations"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_registrations_made"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="team_registrations_named_in",
    )
    team_name = models.CharField(max_length=120, blank=True)
    community = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="team_registration",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(requested_by=F("partner")),
                name="team_registration_two_players",
                violation_error_message="A team is two players: name another account.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "requested_by"],
                condition=Q(status="pending"),
                name="team_registration_one_pending_made",
                violation_error_message="This player already has a registration waiting here.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "partner"],
                condition=Q(status="pending"),
                name="team_registration_one_pending_named",
                violation_error_message="This partner already has a registration waiting here.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.requested_by} & {self.partner} ({self.tournament})"

    @property
    def user_ids(self) -> frozenset[int]:
        return frozenset({self.requested_by_id, self.partner_id})


class Stage(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        SINGLE_ELIM = "single_elim", _("Single elimination")
        DOUBLE_ELIM = "double_elim", _("Double elimination")

    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class SwissPairing(models.TextChoices):
        DUTCH = "dutch", _("Dutch system: top half of each score group against its bottom half")
        NEIGHBOURS = (
            "neighbours",
            _("Neighbours in the standings: 1 v 2, 3 v 4 in each score group"),
        )

    class GrandFinal(models.TextChoices):
        RESET = "reset", _("Reset if needed")
        SINGLE = "single", _("Single match")
        NONE = "none", _("None")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    pool_count = models.PositiveSmallIntegerField(default=1)
    legs = models.PositiveSmallIntegerField(default=1, help_text=_("2 for a double round robin."))
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Empty: ceil(log2 of the number of entries).")
    )
    swiss_pairing = models.CharField(
        max_length=12,
        choices=SwissPairing.choices,
        default=SwissPairing.DUTCH,
        help_text=_("How a Swiss stage pairs each round."),
    )
    third_place = models.BooleanField(default=False)
    grand_final = models.CharField(
        max_length=8, choices=GrandFinal.choices, default=GrandFinal.RESET
    )
    qualifiers_per_pool = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "How many entries of each pool of the previous stage play this stage; "
            "empty for every active entry."
        ),
    )
    tiebreakers = models.JSONField(default=list, blank=True)
    match_format = models.CharField(
        max_length=10,
        choices=Tournament.MatchFormat.choices,
        blank=True,
        help_text=_("Empty: the tournament's match format."),
    )
    match_games = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Empty: the tournament's number of games.")
    )
    standings_dirty = models.BooleanField(default=False)
    standings_computed_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["tournament_id", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "order"],
                name="stage_order_unique",
                violation_error_message=(
                    "This tournament already has a stage in this place in the order: choose another"
                    " number."
                ),
            ),
            models.CheckConstraint(
                condition=Q(pool_count__gte=1),
                name="stage_pool_count",
                violation_error_message="A stage is played in at least one pool.",
            ),
            models.CheckConstraint(
                condition=Q(legs__in=[1, 2]),
                name="stage_legs",
                violation_error_message="A round robin is played once (1) or twice (2).",
            ),
            models.CheckConstraint(
                condition=Q(match_games__isnull=True) | Q(match_games__gte=1),
                name="stage_match_games",
                violation_error_message=(
                    "A match is at least one game; leave it empty for the tournament's number."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"

    @property
    def is_bracket(self) -> bool:
        return self.kind in {self.Kind.SINGLE_ELIM, self.Kind.DOUBLE_ELIM}

    @property
    def tiebreakers_in_effect(self) -> list[str]:
        """The tie-breakers that order this stage's table: its own list, or the default
        for its kind (Swiss adds Buchholz and median-Buchholz)."""
        if self.tiebreakers:
            return list(self.tiebreakers)
        if self.kind == self.Kind.SWISS:
            return list(SWISS_TIEBREAKERS)
        return list(DEFAULT_TIEBREAKERS)

    @property
    def effective_match_format(self) -> str:
        """The stage's own match format, or else the tournament's."""
        return self.match_format or self.tournament.match_format

    @property
    def effective_match_games(self) -> int:
        return self.match_games or self.tournament.match_games

    def later_stage_started(self) -> "Stage | None":
        """The first later stage of the tournament that has started, if any: it started from
        this stage's results (its qualifiers, its standings), which then stand."""
        return (
            Stage.objects.filter(tournament_id=self.tournament_id, order__gt=self.order)
            .exclude(status=Stage.Status.PENDING)
            .order_by("order")
            .first()
        )


class Pool(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="pools")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=50)

    class Meta:
        ordering = ["stage_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "number"],
                name="pool_number_unique",
                violation_error_message="This stage already has a pool with this number.",
            )
        ]

    def __str__(self) -> str:
        return self.name


class StageEntry(models.Model):
    """An entry playing a stage, with its seed in that stage (and its pool, if any)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="stage_entries")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="stage_entries")
    pool = models.ForeignKey(
        Pool, on_delete=models.CASCADE, related_name="stage_entries", null=True, blank=True
    )
    seed = models.PositiveIntegerField()

    class Meta:
        ordering = ["stage_id", "seed"]
        verbose_name_plural = _("stage entries")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "entry"],
                name="stage_entry_once",
                violation_error_message="This entry already plays this stage.",
            ),
            models.UniqueConstraint(
                fields=["stage", "seed"],
                name="stage_entry_seed_unique",
                violation_error_message="Another entry of this stage already has this seed.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.stage.name} (seed {self.seed})"


class Round(models.Model):
    class Side(models.TextChoices):
        MAIN = "main", _("Main")
        WINNERS = "winners", _("Winners bracket")
        LOSERS = "losers", _("Losers bracket")
        FINAL = "final", _("Finals")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    side = models.CharField(max_length=8, choices=Side.choices, default=Side.MAIN)
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)

    class Meta:
        ordering = ["stage_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "side", "number"],
                name="round_unique",
                violation_error_message=(
                    "This stage already has a round with this number on this side of the bracket."
                ),
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage.name}: {self.name}"


class Match(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("Pending")
        READY = "ready", _("Ready")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETE = "complete", _("Complete")
        VOID = "void", _("Not played")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    pool = models.ForeignKey(
        Pool, on_delete=models.CASCADE, related_name="matches", null=True, blank=True
    )
    number = models.PositiveIntegerField(help_text=_("Board number within the round."))
    key = models.CharField(max_length=12, blank=True, help_text=_("Bracket key, e.g. W1-3, L2-1."))
    home = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="home_matches", null=True, blank=True
    )
    away = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="away_matches", null=True, blank=True
    )
    home_source = models.JSONField(null=True, blank=True)
    away_source = models.JSONField(null=True, blank=True)
    feeds = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "Bracket matches this one's winner and loser go to, as written when the stage "
            "started: a result moves its entries on without reading the whole bracket. "
            "Empty: not written (the whole bracket is placed again)."
        ),
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    format = models.CharField(max_length=10, choices=Tournament.MatchFormat.choices)
    games_planned = models.PositiveSmallIntegerField(default=1)
    state = models.CharField(max_length=12, choices=State.choices, default=State.PENDING)
    bye = models.BooleanField(default=False)
    forfeit = models.BooleanField(default=False)
    winner = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="won_matches", null=True, blank=True
    )
    home_games = models.PositiveSmallIntegerField(default=0)
    away_games = models.PositiveSmallIntegerField(default=0)
    home_points = models.PositiveIntegerField(default=0)
    away_points = models.PositiveIntegerField(default=0)
    home_baits = models.PositiveSmallIntegerField(default=0)
    away_baits = models.PositiveSmallIntegerField(default=0)
    held_reason = models.CharField(
        max_length=400,
        blank=True,
        help_text=_("Why a changed result waits for a director (later matches already played)."),
    )
    version = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["stage_id", "round_id", "number"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "key"],
                condition=~Q(key=""),
                name="match_key_unique",
                violation_error_message="This stage already has a match with this bracket key.",
            ),
            models.UniqueConstraint(
                fields=["round", "number"],
                name="match_number_unique",
                violation_error_message="This round already has a match with this board number.",
            ),
            models.CheckConstraint(
                condition=Q(home__isnull=True) | ~Q(home=F("away")),
                name="match_two_entries",
                violation_error_message="A match is played between two different entries.",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("home")) | Q(winner=F("away")),
                name="match_winner_plays",
                violation_error_message=(
                    "The winner of a match is one of the two entries playing it."
                ),
            ),
        ]
        indexes = [models.Index(fields=["state", "table"], name="match_state_table_idx")]

    def __str__(self) -> str:
        """The round (and bracket key) and the two teams, e.g. "Round 2: Ronald & Christy v
        Dominion Dealers" or "Semi-finals (W2-1): The Bait Shop v to be decided"."""
        where = f"{self.round.name} ({self.key})" if self.key else self.round.name
        return f"{where}: {self.home_name} v {self.away_name}"

    @property
    def home_name(self) -> str:
        return self.home.team.name if self.home else "to be decided"

    @property
    def away_name(self) -> str:
        if self.bye:
            return "bye"
        return self.away.team.name if self.away else "to be decided"

    @property
    def is_finished(self) -> bool:
        return self.state in {self.State.COMPLETE, self.State.VOID}


class MatchGame(models.Model):
    """A scoring game played as part of a match (``home`` is the game's first team)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField("scoring.Game", on_delete=models.PROTECT, related_name="match_link")
    number = models.PositiveSmallIntegerField()
    discarded = models.BooleanField(
        default=False, help_text=_("Kept for history, not counted (a result reset by a director).")
    )
    discarded_reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                name="match_game_number_unique",
                violation_error_message="This match already has a game with this number.",
            )
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.match}"


class ResultReport(models.Model):
    """A match's result as a player of one of its teams reports it: each game by its final
    totals. It counts for nothing (bracket, standings, ratings) until a player of the other
    team or a director confirms it, when its games are recorded as a director's quick results
    are. The other team may dispute it instead, with a reason; a director then confirms it or
    records the right result (overruling it). One report of a match is open at a time."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the other team")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed: a director decides")
        OVERRULED = "overruled", _("Overruled by a director")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Side(models.TextChoices):
        HOME = "home", _("Home")
        AWAY = "away", _("Away")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="result_reports")
    #: The games as reported, in order: ``{"home_points", "away_points", "winner"}`` (the
    #: winner's entry id, or null when the totals say who won).
    games = models.JSONField()
    side = models.CharField(max_length=4, choices=Side.choices)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="result_reports_made"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    dispute_reason = models.CharField(max_length=500, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="result_reports_disputed",
        null=True,
        blank=True,
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="result_reports_decided",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    disputed_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match_id", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=["pending", "disputed"]),
                name="result_report_one_open",
                violation_error_message="This match already has a result waiting to be confirmed.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: reported by {self.reported_by} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in {self.Status.PENDING, self.Status.DISPUTED}


class Standing(models.Model):
    """One derived row of a stage's table (per pool where the stage has pools)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="standings")
    pool = models.ForeignKey(
        Pool, on_delete=models.CASCADE, related_name="standings", null=True, blank=True
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    place = models.PositiveIntegerField()
    seed = models.PositiveIntegerField()
    played = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    match_wins = models.PositiveIntegerField(default=0)
    match_draws = models.PositiveIntegerField(default=0)
    match_losses = models.PositiveIntegerField(default=0)
    match_points = models.PositiveIntegerField(default=0)
    game_wins = models.PositiveIntegerField(default=0)
    game_losses = models.PositiveIntegerField(default=0)
    points_for = models.PositiveIntegerField(default=0)
    points_against = models.PositiveIntegerField(default=0)
    points_difference = models.IntegerField(default=0)
    baits_forced = models.PositiveIntegerField(default=0)
    baits_suffered = models.PositiveIntegerField(default=0)
    buchholz = models.PositiveIntegerField(default=0)
    median_buchholz = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["stage_id", "pool_id", "place", "seed"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "entry"],
                name="standing_entry_once",
                violation_error_message="This entry already has a row in this stage's standings.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.entry}"


STANDING_FIELDS: tuple[str, ...] = (
    "pool",
    "place",
    "seed",
    "played",
    "byes",
    "match_wins",
    "match_draws",
    "match_losses",
    "match_points",
    "game_wins",
    "game_losses",
    "points_for",
    "points_against",
    "points_difference",
    "baits_forced",
    "baits_suffered",
    "buchholz",
    "median_buchholz",
)


class PlayerRating(models.Model):
    """A player's current OpenSkill rating (Plackett-Luce: mu and sigma)."""

    player = models.OneToOneField("scoring.Player", on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-mu"]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        """The conservative display rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """History: how one finished match moved one player's rating."""

    player = models.ForeignKey(
        "scoring.Player", on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    result = models.CharField(
        max_length=4,
        choices=[("win", "Win"), ("draw", "Draw"), ("loss", "Loss")],
        blank=True,
        help_text=_("The player's result as rated; a match whose result changes is re-rated."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "match"],
                name="rating_change_once",
                violation_error_message="This match already moved this player's rating.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.mu_before:.2f} -> {self.mu_after:.2f}"

    @property
    def ordinal_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after


class TournamentEvent(models.Model):
    """The history of a tournament's ends: each time it was finished or reopened, by whom and
    why (a reopening always says why)."""

    class Kind(models.TextChoices):
        FINISHED = "finished", _("Finished")
        REOPENED = "reopened", _("Reopened")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="tournament_events",
        null=True,
        blank=True,
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_kind_display()} at {self.at:%Y-%m-%d %H:%M}"


#: The most tables a tournament's sheets are printed for (a match's table number).
TABLE_MAX = 2**15 - 1


class TableKey(models.Model):
    """What a printed table sheet's QR code and PIN stand for: the right to keep score at one
    table of one tournament, and nothing more.

    Whoever opens the code (or types the table's PIN) is signed in as the key's own account,
    which keeps score in the games of the matches played at that table while the tournament
    runs, on its days. A director issuing a new sheet for the table revokes the key: its
    account is switched off, so the old sheet, and every phone signed in with it, opens
    nothing from then on.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_keys")
    table = models.PositiveSmallIntegerField()
    #: The secret the QR code carries (URL-safe).
    token = models.CharField(max_length=64, unique=True)
    #: The short code printed under it, for a phone without a camera (digits).
    pin = models.CharField(max_length=8)
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_key"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    issued_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "table", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=Q(revoked_at__isnull=True),
                name="table_key_one_live",
                violation_error_message="This table already has a sheet in use.",
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1),
                name="table_key_table_positive",
                violation_error_message="Tables are numbered from 1.",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table} ({self.tournament})"
