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
from django.utils.translation import pgettext_lazy

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

    name = models.CharField(max_length=200, verbose_name=_("name"))
    slug = models.SlugField(max_length=80, unique=True, verbose_name=_("slug"))
    venue = models.CharField(max_length=200, blank=True, verbose_name=_("venue"))
    starts_on = models.DateField(verbose_name=_("first day"))
    ends_on = models.DateField(verbose_name=_("last day"))
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        null=True,
        blank=True,
        verbose_name=_("organiser"),
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_tournaments",
        blank=True,
        verbose_name=_("directors"),
    )
    #: Accounts that keep score at every table of the tournament while it runs (and do
    #: nothing else: no rulings, no forfeits), named by its directors.
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="kept_tournaments",
        blank=True,
        verbose_name=_("scorekeepers"),
    )
    ruleset_preset = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("Slug of the engine preset; empty for a custom ruleset."),
        verbose_name=_("ruleset preset"),
    )
    ruleset = models.JSONField(
        help_text=_("The full ruleset, copied to every game of the tournament."),
        verbose_name=_("ruleset"),
    )
    match_format = models.CharField(
        max_length=10,
        choices=MatchFormat.choices,
        default=MatchFormat.BEST_OF,
        verbose_name=_("match format"),
    )
    match_games = models.PositiveSmallIntegerField(
        default=1,
        help_text=_("N: best of N games, or a fixed number of N games."),
        verbose_name=_("games per match"),
    )
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status")
    )
    public = models.BooleanField(default=True, verbose_name=_("public"))
    substitutes_allowed = models.BooleanField(default=False, verbose_name=_("substitutes allowed"))
    seed_by_rating = models.BooleanField(
        default=False,
        help_text=_("At check-in, seed entries by the players' ratings."),
        verbose_name=_("seed by rating"),
    )
    check_in_required = models.BooleanField(
        default=False,
        help_text=_(
            "Teams check in on the day; otherwise every registered team is checked in and plays."
        ),
        verbose_name=_("check-in required"),
    )
    entry_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "The most teams that play: teams registered beyond it wait, and are "
            "promoted in order of registration when a place frees. Empty: no cap."
        ),
        verbose_name=_("entry cap"),
    )
    quick_results_by_scorekeepers = models.BooleanField(
        default=False,
        help_text=_(
            "The scorekeeper of a match's table may record a game played on paper by its "
            "final totals (directors always may)."
        ),
        verbose_name=_("quick results by scorekeepers"),
    )
    results_confirmed_by_both = models.BooleanField(
        default=False,
        verbose_name=_("results confirmed by both teams"),
        help_text=_(
            "A player of either team may report a match's result by its games' totals; it "
            "counts once a player of the other team or a director confirms it."
        ),
    )
    self_registration = models.BooleanField(
        default=False,
        help_text=_(
            "Signed-in players register their own teams from the tournament's page "
            "(a player names a partner, who confirms), while the registration window is open."
        ),
        verbose_name=_("self-registration"),
    )
    registration_opens_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Teams register themselves from then; empty: at once."),
        verbose_name=_("registration opens at"),
    )
    registration_closes_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Teams register themselves until then; empty: until play starts."),
        verbose_name=_("registration closes at"),
    )
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(registration_opens_at__isnull=True)
                | Q(registration_closes_at__isnull=True)
                | Q(registration_closes_at__gt=F("registration_opens_at")),
                name="tournament_registration_window",
                violation_error_message=_("Registration closes after it opens."),
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_after_start",
                violation_error_message=_("The last day cannot come before the first day."),
            ),
            models.CheckConstraint(
                condition=Q(entry_cap__isnull=True) | Q(entry_cap__gte=2),
                name="tournament_entry_cap",
                violation_error_message=_(
                    "A tournament is at least two teams: a cap of 2 or more."
                ),
            ),
            models.CheckConstraint(
                condition=Q(match_games__gte=1),
                name="tournament_match_games",
                violation_error_message=_("A match is at least one game."),
            ),
            models.CheckConstraint(
                condition=~Q(match_format="best_of") | Q(match_games__in=[1, 3, 5, 7, 9]),
                name="tournament_best_of_odd",
                violation_error_message=_(
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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    team = models.ForeignKey(
        "scoring.Team", on_delete=models.PROTECT, related_name="entries", verbose_name=_("team")
    )
    seed = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("seed"))
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status")
    )
    checked_in = models.BooleanField(default=False, verbose_name=_("checked in"))
    checked_in_at = models.DateTimeField(null=True, blank=True, verbose_name=_("checked in at"))
    withdrawn_at = models.DateTimeField(null=True, blank=True, verbose_name=_("withdrawn at"))
    withdrawal_note = models.CharField(
        max_length=300, blank=True, verbose_name=_("withdrawal note")
    )
    substitutes = models.ManyToManyField(
        "scoring.Player", blank=True, related_name="substitutes", verbose_name=_("substitutes")
    )
    final_place = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("final place"))
    registered_at = models.DateTimeField(auto_now_add=True, verbose_name=_("registered at"))
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    class Meta:
        verbose_name = _("entry")
        ordering = ["tournament_id", "seed", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "team"],
                name="entry_team_once",
                violation_error_message=_("This team is already registered in this tournament."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_unique",
                violation_error_message=_(
                    "Another entry of this tournament already has this seed: choose a free seed, or"
                    " leave it empty."
                ),
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=1),
                name="entry_seed_positive",
                violation_error_message=_("Seeds start at 1."),
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
        Tournament,
        on_delete=models.CASCADE,
        related_name="team_registrations",
        verbose_name=_("tournament"),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="team_registrations_made",
        verbose_name=_("requested by"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="team_registrations_named_in",
        verbose_name=_("partner"),
    )
    team_name = models.CharField(max_length=120, blank=True, verbose_name=_("team name"))
    community = models.CharField(max_length=100, blank=True, verbose_name=_("community"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="team_registration",
        verbose_name=_("entry"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))

    class Meta:
        verbose_name = _("team registration")
        verbose_name_plural = _("team registrations")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(requested_by=F("partner")),
                name="team_registration_two_players",
                violation_error_message=_("A team is two players: name another account."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "requested_by"],
                condition=Q(status="pending"),
                name="team_registration_one_pending_made",
                violation_error_message=_("This player already has a registration waiting here."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "partner"],
                condition=Q(status="pending"),
                name="team_registration_one_pending_named",
                violation_error_message=_("This partner already has a registration waiting here."),
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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="stages", verbose_name=_("tournament")
    )
    order = models.PositiveSmallIntegerField(verbose_name=_("order"))
    name = models.CharField(max_length=100, verbose_name=_("name"))
    kind = models.CharField(max_length=12, choices=Kind.choices, verbose_name=_("format"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    pool_count = models.PositiveSmallIntegerField(default=1, verbose_name=_("number of pools"))
    legs = models.PositiveSmallIntegerField(
        default=1, help_text=_("2 for a double round robin."), verbose_name=_("legs")
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Empty: ceil(log2 of the number of entries)."),
        verbose_name=_("Swiss rounds"),
    )
    swiss_pairing = models.CharField(
        max_length=12,
        choices=SwissPairing.choices,
        default=SwissPairing.DUTCH,
        help_text=_("How a Swiss stage pairs each round."),
        verbose_name=_("Swiss pairing"),
    )
    third_place = models.BooleanField(default=False, verbose_name=_("third-place match"))
    grand_final = models.CharField(
        max_length=8,
        choices=GrandFinal.choices,
        default=GrandFinal.RESET,
        verbose_name=_("grand final"),
    )
    qualifiers_per_pool = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "How many entries of each pool of the previous stage play this stage; "
            "empty for every active entry."
        ),
        verbose_name=_("qualifiers per pool"),
    )
    tiebreakers = models.JSONField(default=list, blank=True, verbose_name=_("tiebreakers"))
    match_format = models.CharField(
        max_length=10,
        choices=Tournament.MatchFormat.choices,
        blank=True,
        help_text=_("Empty: the tournament's match format."),
        verbose_name=_("match format"),
    )
    match_games = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Empty: the tournament's number of games."),
        verbose_name=_("games per match"),
    )
    standings_dirty = models.BooleanField(default=False, verbose_name=_("standings out of date"))
    standings_computed_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("standings computed at")
    )
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament_id", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "order"],
                name="stage_order_unique",
                violation_error_message=_(
                    "This tournament already has a stage in this place in the order: choose another"
                    " number."
                ),
            ),
            models.CheckConstraint(
                condition=Q(pool_count__gte=1),
                name="stage_pool_count",
                violation_error_message=_("A stage is played in at least one pool."),
            ),
            models.CheckConstraint(
                condition=Q(legs__in=[1, 2]),
                name="stage_legs",
                violation_error_message=_("A round robin is played once (1) or twice (2)."),
            ),
            models.CheckConstraint(
                condition=Q(match_games__isnull=True) | Q(match_games__gte=1),
                name="stage_match_games",
                violation_error_message=_(
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
    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="pools", verbose_name=_("stage")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=50, verbose_name=_("name"))

    class Meta:
        verbose_name = _("pool")
        verbose_name_plural = _("pools")
        ordering = ["stage_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "number"],
                name="pool_number_unique",
                violation_error_message=_("This stage already has a pool with this number."),
            )
        ]

    def __str__(self) -> str:
        return self.name


class StageEntry(models.Model):
    """An entry playing a stage, with its seed in that stage (and its pool, if any)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="stage_entries", verbose_name=_("stage")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="stage_entries", verbose_name=_("entry")
    )
    pool = models.ForeignKey(
        Pool,
        on_delete=models.CASCADE,
        related_name="stage_entries",
        null=True,
        blank=True,
        verbose_name=_("pool"),
    )
    seed = models.PositiveIntegerField(verbose_name=_("seed"))

    class Meta:
        verbose_name = _("stage entry")
        ordering = ["stage_id", "seed"]
        verbose_name_plural = _("stage entries")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "entry"],
                name="stage_entry_once",
                violation_error_message=_("This entry already plays this stage."),
            ),
            models.UniqueConstraint(
                fields=["stage", "seed"],
                name="stage_entry_seed_unique",
                violation_error_message=_("Another entry of this stage already has this seed."),
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

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("stage")
    )
    side = models.CharField(
        max_length=8, choices=Side.choices, default=Side.MAIN, verbose_name=_("bracket side")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=60, verbose_name=_("name"))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "side", "number"],
                name="round_unique",
                violation_error_message=_(
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

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="matches", verbose_name=_("stage")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round")
    )
    pool = models.ForeignKey(
        Pool,
        on_delete=models.CASCADE,
        related_name="matches",
        null=True,
        blank=True,
        verbose_name=_("pool"),
    )
    number = models.PositiveIntegerField(
        help_text=_("Board number within the round."), verbose_name=_("number")
    )
    key = models.CharField(
        max_length=12,
        blank=True,
        help_text=_("Bracket key, e.g. W1-3, L2-1."),
        verbose_name=_("bracket key"),
    )
    home = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="home_matches",
        null=True,
        blank=True,
        verbose_name=_("home team"),
    )
    away = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="away_matches",
        null=True,
        blank=True,
        verbose_name=_("away team"),
    )
    home_source = models.JSONField(null=True, blank=True, verbose_name=_("home team from"))
    away_source = models.JSONField(null=True, blank=True, verbose_name=_("away team from"))
    feeds = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "Bracket matches this one's winner and loser go to, as written when the stage "
            "started: a result moves its entries on without reading the whole bracket. "
            "Empty: not written (the whole bracket is placed again)."
        ),
        verbose_name=_("feeds"),
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("table number"))
    format = models.CharField(
        max_length=10, choices=Tournament.MatchFormat.choices, verbose_name=_("format")
    )
    games_planned = models.PositiveSmallIntegerField(default=1, verbose_name=_("games planned"))
    state = models.CharField(
        max_length=12, choices=State.choices, default=State.PENDING, verbose_name=_("state")
    )
    bye = models.BooleanField(default=False, verbose_name=_("bye"))
    forfeit = models.BooleanField(default=False, verbose_name=_("forfeit"))
    winner = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="won_matches",
        null=True,
        blank=True,
        verbose_name=_("winning team"),
    )
    home_games = models.PositiveSmallIntegerField(default=0, verbose_name=_("home games"))
    away_games = models.PositiveSmallIntegerField(default=0, verbose_name=_("away games"))
    home_points = models.PositiveIntegerField(default=0, verbose_name=_("home points"))
    away_points = models.PositiveIntegerField(default=0, verbose_name=_("away points"))
    home_baits = models.PositiveSmallIntegerField(default=0, verbose_name=_("home baits"))
    away_baits = models.PositiveSmallIntegerField(default=0, verbose_name=_("away baits"))
    held_reason = models.CharField(
        max_length=400,
        blank=True,
        help_text=_("Why a changed result waits for a director (later matches already played)."),
        verbose_name=_("reason held"),
    )
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("match")
        ordering = ["stage_id", "round_id", "number"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "key"],
                condition=~Q(key=""),
                name="match_key_unique",
                violation_error_message=_("This stage already has a match with this bracket key."),
            ),
            models.UniqueConstraint(
                fields=["round", "number"],
                name="match_number_unique",
                violation_error_message=_("This round already has a match with this board number."),
            ),
            models.CheckConstraint(
                condition=Q(home__isnull=True) | ~Q(home=F("away")),
                name="match_two_entries",
                violation_error_message=_("A match is played between two different entries."),
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("home")) | Q(winner=F("away")),
                name="match_winner_plays",
                violation_error_message=_(
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

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="match_games", verbose_name=_("match")
    )
    game = models.OneToOneField(
        "scoring.Game", on_delete=models.PROTECT, related_name="match_link", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    discarded = models.BooleanField(
        default=False,
        help_text=_("Kept for history, not counted (a result reset by a director)."),
        verbose_name=_("discarded"),
    )
    discarded_reason = models.CharField(
        max_length=300, blank=True, verbose_name=_("reason discarded")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("match game")
        verbose_name_plural = _("match games")
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                name="match_game_number_unique",
                violation_error_message=_("This match already has a game with this number."),
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
        HOME = "home", pgettext_lazy("team", "Home")
        AWAY = "away", pgettext_lazy("team", "Away")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="result_reports", verbose_name=_("match")
    )
    #: The games as reported, in order: ``{"home_points", "away_points", "winner"}`` (the
    #: winner's entry id, or null when the totals say who won).
    games = models.JSONField(verbose_name=_("games"))
    side = models.CharField(max_length=4, choices=Side.choices, verbose_name=_("side"))
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="result_reports_made",
        verbose_name=_("reported by"),
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    dispute_reason = models.CharField(
        max_length=500, blank=True, verbose_name=_("why it is disputed")
    )
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="result_reports_disputed",
        null=True,
        blank=True,
        verbose_name=_("disputed by"),
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="result_reports_decided",
        null=True,
        blank=True,
        verbose_name=_("decided by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("reported at"))
    disputed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("disputed at"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))

    class Meta:
        ordering = ["match_id", "-created_at", "-id"]
        verbose_name = _("reported result")
        verbose_name_plural = _("reported results")
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=["pending", "disputed"]),
                name="result_report_one_open",
                violation_error_message=_(
                    "This match already has a result waiting to be confirmed."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: reported by {self.reported_by} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in {self.Status.PENDING, self.Status.DISPUTED}


class Standing(models.Model):
    """One derived row of a stage's table (per pool where the stage has pools)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="standings", verbose_name=_("stage")
    )
    pool = models.ForeignKey(
        Pool,
        on_delete=models.CASCADE,
        related_name="standings",
        null=True,
        blank=True,
        verbose_name=_("pool"),
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="standings", verbose_name=_("entry")
    )
    place = models.PositiveIntegerField(verbose_name=_("place"))
    seed = models.PositiveIntegerField(verbose_name=_("seed"))
    played = models.PositiveIntegerField(default=0, verbose_name=_("matches played"))
    byes = models.PositiveIntegerField(default=0, verbose_name=_("byes"))
    match_wins = models.PositiveIntegerField(default=0, verbose_name=_("matches won"))
    match_draws = models.PositiveIntegerField(default=0, verbose_name=_("matches drawn"))
    match_losses = models.PositiveIntegerField(default=0, verbose_name=_("matches lost"))
    match_points = models.PositiveIntegerField(default=0, verbose_name=_("match points"))
    game_wins = models.PositiveIntegerField(default=0, verbose_name=_("games won"))
    game_losses = models.PositiveIntegerField(default=0, verbose_name=_("games lost"))
    points_for = models.PositiveIntegerField(default=0, verbose_name=_("points for"))
    points_against = models.PositiveIntegerField(default=0, verbose_name=_("points against"))
    points_difference = models.IntegerField(default=0, verbose_name=_("points difference"))
    baits_forced = models.PositiveIntegerField(default=0, verbose_name=_("baits forced"))
    baits_suffered = models.PositiveIntegerField(default=0, verbose_name=_("baits suffered"))
    buchholz = models.PositiveIntegerField(default=0, verbose_name=_("Buchholz"))
    median_buchholz = models.PositiveIntegerField(default=0, verbose_name=_("median Buchholz"))

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["stage_id", "pool_id", "place", "seed"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "entry"],
                name="standing_entry_once",
                violation_error_message=_(
                    "This entry already has a row in this stage's standings."
                ),
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

    player = models.OneToOneField(
        "scoring.Player", on_delete=models.CASCADE, related_name="rating", verbose_name=_("player")
    )
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    matches = models.PositiveIntegerField(default=0, verbose_name=_("matches rated"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
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
        "scoring.Player",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu_after = models.FloatField(verbose_name=_("mu after"))
    sigma_after = models.FloatField(verbose_name=_("sigma after"))
    result = models.CharField(
        max_length=4,
        choices=[("win", "Win"), ("draw", "Draw"), ("loss", "Loss")],
        blank=True,
        help_text=_("The player's result as rated; a match whose result changes is re-rated."),
        verbose_name=_("result"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["player_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "match"],
                name="rating_change_once",
                violation_error_message=_("This match already moved this player's rating."),
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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="events", verbose_name=_("tournament")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("kind"))
    reason = models.CharField(max_length=500, blank=True, verbose_name=_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="tournament_events",
        null=True,
        blank=True,
        verbose_name=_("done by"),
    )
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("time"))

    class Meta:
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")
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

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="table_keys",
        verbose_name=_("tournament"),
    )
    table = models.PositiveSmallIntegerField(verbose_name=_("table number"))
    #: The secret the QR code carries (URL-safe).
    token = models.CharField(max_length=64, unique=True, verbose_name=_("token"))
    #: The short code printed under it, for a phone without a camera (digits).
    pin = models.CharField(max_length=8, verbose_name=_("PIN"))
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_key",
        verbose_name=_("account"),
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(auto_now_add=True, verbose_name=_("issued at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    class Meta:
        verbose_name = _("table key")
        verbose_name_plural = _("table keys")
        ordering = ["tournament_id", "table", "-issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=Q(revoked_at__isnull=True),
                name="table_key_one_live",
                violation_error_message=_("This table already has a sheet in use."),
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1),
                name="table_key_table_positive",
                violation_error_message=_("Tables are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table} ({self.tournament})"
