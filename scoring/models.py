"""Players, teams, games, hands and misplay disputes.

What a scorekeeper entered is stored exactly as entered (``Hand.entry``); beside it sit the
columns the rules engine derived from it (outcome, points, runs, bella, running totals). The
derived columns are for cheap reads only: every write goes through :mod:`scoring.services`,
which recomputes them from the entries with :mod:`scoring.engine`. Every version of a hand is
kept: a hand never changed is its own first version (:meth:`Hand.recorded_revision`); the first
change stores that version as a :class:`HandRevision`, and every change after it one more, so
nothing is ever overwritten without history.

Seats are numbered 0..3 clockwise. ``team_a`` sits at seats 0 and 2 (engine team 0), ``team_b``
at seats 1 and 3 (engine team 1).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine import Outcome, Ruleset

#: "seat 2" in the engine's words (see ``MisplayDispute.reason_naming``).
_SEAT = re.compile(r"\bseat ([0-3])\b")

SEAT_CHOICES = [(0, _("Seat 0")), (1, _("Seat 1")), (2, _("Seat 2")), (3, _("Seat 3"))]
TRUMP_CHOICES = [("C", _("Clubs")), ("D", _("Diamonds")), ("H", _("Hearts")), ("S", _("Spades"))]
CUSTOM_RULESET = "custom"


def _seat_q(name: str, *, nullable: bool) -> Q:
    in_range = Q(**{f"{name}__gte": 0, f"{name}__lte": 3})
    return in_range | Q(**{f"{name}__isnull": True}) if nullable else in_range


class Side(models.TextChoices):
    """One of the two teams at a table."""

    TEAM_A = "team_a", _("Team A (seats 0 and 2)")
    TEAM_B = "team_b", _("Team B (seats 1 and 3)")


class Player(models.Model):
    """A person who plays; may be linked to a user account."""

    display_name = models.CharField(max_length=100, verbose_name=_("display name"))
    community = models.CharField(
        max_length=100, blank=True, help_text=_("Home community"), verbose_name=_("community")
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                "display_name",
                "community",
                name="scoring_player_unique_name_in_community",
                violation_error_message=_(
                    "A player with this name already plays from this community: choose that player,"
                    " or tell the two apart by name or community."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.community})" if self.community else self.display_name


class Team(models.Model):
    """A partnership of two players. The same pair can play many games, under one team."""

    name = models.CharField(max_length=120, verbose_name=_("name"))
    player_one = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first player")
    )
    player_two = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("second player")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=F("player_two")),
                name="scoring_team_two_players",
                violation_error_message=_(
                    "A team is two different players: choose another second player."
                ),
            ),
            models.UniqueConstraint(
                Least("player_one", "player_two"),
                Greatest("player_one", "player_two"),
                name="scoring_team_unique_pair",
                violation_error_message=_(
                    "These two players are already a team: choose that team instead."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def player_ids(self) -> frozenset[int]:
        return frozenset({self.player_one_id, self.player_two_id})


class Game(models.Model):
    """Two teams at a table, playing to the ruleset's target."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Ended early")

    class FirstDealerMethod(models.TextChoices):
        NOT_YET = "", _("Not chosen yet")
        ENTERED = "entered", _("Entered at the table")
        FLIP_FOR_JACKS = "flip_for_jacks", _("Flip for jacks")
        HIGH_CARD = "high_card", _("High card")

    team_a = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="games_as_a", verbose_name=_("team A")
    )
    team_b = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="games_as_b", verbose_name=_("team B")
    )
    seat_0 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 0")
    )
    seat_1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 1")
    )
    seat_2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 2")
    )
    seat_3 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 3")
    )
    table = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("Table label, e.g. 'Table 4'"),
        verbose_name=_("table"),
    )
    #: Anyone may follow a public game; a private one only its scorekeepers and directors.
    public = models.BooleanField(
        default=True,
        help_text=_("Anyone may follow the game. Otherwise only its scorekeepers and directors."),
        verbose_name=_("public"),
    )

    #: A copy of the engine ruleset (``Ruleset.to_json()``); never changed under a running game.
    ruleset = models.JSONField(default=dict, verbose_name=_("ruleset"))
    #: The preset slug the ruleset was copied from (``scoring.engine.PRESETS``), or "custom".
    ruleset_preset = models.CharField(
        max_length=40, default="cape-breton-standard", verbose_name=_("ruleset preset")
    )

    first_dealer = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("first dealer")
    )
    first_dealer_method = models.CharField(
        max_length=20,
        choices=FirstDealerMethod.choices,
        blank=True,
        default="",
        verbose_name=_("how the first dealer was chosen"),
    )
    #: The cards of flip for jacks / high card: ``[[seat, "JS"], ...]`` in the order dealt.
    first_dealer_flips = models.JSONField(
        default=list, blank=True, verbose_name=_("cards flipped for the first dealer")
    )

    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, verbose_name=_("status")
    )
    winner = models.CharField(
        max_length=6, choices=Side.choices, blank=True, default="", verbose_name=_("winning team")
    )
    ended_reason = models.TextField(blank=True, verbose_name=_("reason ended"))
    #: Played on paper and recorded by its final totals only: it has no hands, and its
    #: totals and winner were entered, not derived.
    totals_only = models.BooleanField(
        default=False,
        help_text=_("Recorded by its final totals only, without hands (a game played on paper)."),
        verbose_name=_("totals only"),
    )

    # Derived by the engine's game_progress from the hands; stored for cheap reads.
    score_a = models.IntegerField(default=0, verbose_name=_("team A score"))
    score_b = models.IntegerField(default=0, verbose_name=_("team B score"))
    hands_played = models.PositiveSmallIntegerField(default=0, verbose_name=_("hands played"))
    next_dealer = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("next dealer")
    )
    forced_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("seat forced to call")
    )

    #: Bumped on every change to the game or its hands (the API's ETag).
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="scored_games",
        verbose_name=_("scorekeepers"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(
        auto_now_add=True, db_index=True, verbose_name=_("created at")
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at", "-id"]
        permissions = [("direct_games", "Can direct games: reopen them and rule on disputes")]
        indexes = [models.Index(fields=["status", "-created_at"], name="scoring_game_status_idx")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(team_a=F("team_b")),
                name="scoring_game_two_teams",
                violation_error_message=_("A game is played between two different teams."),
            ),
            models.CheckConstraint(
                condition=~Q(seat_0=F("seat_1"))
                & ~Q(seat_0=F("seat_2"))
                & ~Q(seat_0=F("seat_3"))
                & ~Q(seat_1=F("seat_2"))
                & ~Q(seat_1=F("seat_3"))
                & ~Q(seat_2=F("seat_3")),
                name="scoring_game_four_players",
                violation_error_message=_("The four seats need four different players."),
            ),
            models.CheckConstraint(
                condition=_seat_q("first_dealer", nullable=True),
                name="scoring_game_first_dealer_seat",
                violation_error_message=_("The first dealer is a seat from 0 to 3."),
            ),
            models.CheckConstraint(
                condition=_seat_q("next_dealer", nullable=True),
                name="scoring_game_next_dealer_seat",
                violation_error_message=_("The next dealer is a seat from 0 to 3."),
            ),
            models.CheckConstraint(
                condition=_seat_q("forced_seat", nullable=True),
                name="scoring_game_forced_seat",
                violation_error_message=_("The forced caller is a seat from 0 to 3."),
            ),
            models.CheckConstraint(
                condition=(Q(status="finished") & ~Q(winner=""))
                | (~Q(status="finished") & Q(winner="")),
                name="scoring_game_finished_has_winner",
                violation_error_message=_(
                    "A finished game has a winner, and a game not finished has none."
                ),
            ),
            models.CheckConstraint(
                condition=(Q(status="in_progress") & Q(finished_at__isnull=True))
                | (~Q(status="in_progress") & Q(finished_at__isnull=False)),
                name="scoring_game_finished_at",
                violation_error_message=_(
                    "A game not being played has the time it ended, and one being played has none."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.team_a} v {self.team_b}"

    @property
    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_json(self.ruleset)

    @property
    def seats(self) -> tuple[Player, Player, Player, Player]:
        return (self.seat_0, self.seat_1, self.seat_2, self.seat_3)

    @property
    def seat_ids(self) -> tuple[int, int, int, int]:
        return (self.seat_0_id, self.seat_1_id, self.seat_2_id, self.seat_3_id)

    def team_of_side(self, side: str) -> Team:
        return self.team_a if side == Side.TEAM_A else self.team_b

    @property
    def winning_team(self) -> Team | None:
        return self.team_of_side(self.winner) if self.winner else None

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.IN_PROGRESS


class HandQuerySet(models.QuerySet["Hand"]):
    def active(self) -> HandQuerySet:
        """Hands that count (not undone)."""
        return self.filter(undone=False)


class Hand(models.Model):
    """One hand of a game: the entry as entered, and the engine's result beside it."""

    class EntryKind(models.TextChoices):
        SUMMARY = "summary", _("Score-sheet summary")
        TRICKS = "tricks", _("Full trick record")

    OUTCOME_CHOICES = [(o.value, o.label) for o in Outcome]

    # A game with hands is never deleted (it is ended early instead): its hands and their
    # revisions are the record of what was played.
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="hands", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    #: Undo keeps the hand and its history; an undone hand no longer counts.
    undone = models.BooleanField(default=False, verbose_name=_("undone"))
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    entry_kind = models.CharField(
        max_length=8, choices=EntryKind.choices, verbose_name=_("entry kind")
    )
    #: Exactly what the scorekeeper entered.
    entry = models.JSONField(verbose_name=_("hand as entered"))

    # Derived by the engine from the entry (and any misplay dispute's decision).
    dealer = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("dealer"))
    caller = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("caller")
    )
    trump = models.CharField(
        max_length=1, choices=TRUMP_CHOICES, blank=True, verbose_name=_("trump")
    )
    outcome = models.CharField(max_length=20, choices=OUTCOME_CHOICES, verbose_name=_("outcome"))
    points_a = models.PositiveIntegerField(default=0, verbose_name=_("team A points"))
    points_b = models.PositiveIntegerField(default=0, verbose_name=_("team B points"))
    card_points_a = models.PositiveIntegerField(default=0, verbose_name=_("team A card points"))
    card_points_b = models.PositiveIntegerField(default=0, verbose_name=_("team B card points"))
    run_points_a = models.PositiveIntegerField(default=0, verbose_name=_("team A run points"))
    run_points_b = models.PositiveIntegerField(default=0, verbose_name=_("team B run points"))
    bella_points_a = models.PositiveIntegerField(default=0, verbose_name=_("team A bella points"))
    bella_points_b = models.PositiveIntegerField(default=0, verbose_name=_("team B bella points"))
    runs_counted_by = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("runs counted by")
    )
    bella_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=SEAT_CHOICES, verbose_name=_("bella seat")
    )
    hand_total = models.PositiveIntegerField(default=0, verbose_name=_("hand total"))
    #: ``HandResult.to_json()`` of the result that counts.
    result = models.JSONField(verbose_name=_("result"))
    running_a = models.IntegerField(default=0, verbose_name=_("team A running score"))
    running_b = models.IntegerField(default=0, verbose_name=_("team B running score"))

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    objects = HandQuerySet.as_manager()

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["game", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                "game",
                "number",
                condition=Q(undone=False),
                name="scoring_hand_unique_number",
                violation_error_message=_("This game already has a hand with this number."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="scoring_hand_number",
                violation_error_message=_("Hands are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=_seat_q("dealer", nullable=False),
                name="scoring_hand_dealer_seat",
                violation_error_message=_("The dealer is a seat from 0 to 3."),
            ),
            models.CheckConstraint(
                condition=_seat_q("caller", nullable=True),
                name="scoring_hand_caller_seat",
                violation_error_message=_("The caller is a seat from 0 to 3, or nobody."),
            ),
            models.CheckConstraint(
                condition=Q(entry_kind__in=["summary", "tricks"]),
                name="scoring_hand_entry_kind",
                violation_error_message=_(
                    "A hand is entered as a score-sheet summary or a full trick record."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"

    def recorded_revision(self) -> HandRevision:
        """The hand as it was entered, as its first revision (not saved). While a hand is at
        version 1 this is its whole history, and nothing else holds it: the revision is stored
        only when the hand first changes (see ``scoring.services``)."""
        revision = HandRevision(
            hand=self,
            version=1,
            action=HandRevision.Action.RECORDED,
            entry_kind=self.entry_kind,
            entry=self.entry,
            result=self.result,
            changed_by_id=self.created_by_id,
            changed_at=self.created_at,
        )
        if Hand.created_by.is_cached(self):  # read with the hand: no query for it again
            revision.changed_by = self.created_by
        return revision

    def history(self) -> list[HandRevision]:
        """Every version of the hand, oldest first: its stored revisions, or the version it
        was entered as while it has never changed (prefetch ``revisions`` for many hands)."""
        return list(self.revisions.all()) or [self.recorded_revision()]


class HandRevision(models.Model):
    """One version of a hand: kept forever, so every correction can be traced. A hand's first
    version is stored here only once the hand changes; until then the hand itself holds it."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("Recorded")
        CORRECTED = "corrected", _("Corrected")
        UNDONE = "undone", _("Undone")
        DISPUTE = "dispute", _("Misplay dispute decided")

    # No index of its own: the unique (hand, version) index starts with the hand, and one index
    # fewer is written with every hand entered.
    hand = models.ForeignKey(
        Hand,
        on_delete=models.CASCADE,
        related_name="revisions",
        db_index=False,
        verbose_name=_("hand"),
    )
    version = models.PositiveIntegerField(verbose_name=_("version"))
    action = models.CharField(max_length=10, choices=Action.choices, verbose_name=_("change"))
    entry_kind = models.CharField(
        max_length=8, choices=Hand.EntryKind.choices, verbose_name=_("entry kind")
    )
    entry = models.JSONField(verbose_name=_("hand as entered"))
    result = models.JSONField(verbose_name=_("result"))
    reason = models.TextField(blank=True, verbose_name=_("reason"))
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("changed by"),
    )
    #: The recorded version keeps the time the hand was entered, so the time is given, not
    #: taken when the row is written.
    changed_at = models.DateTimeField(default=timezone.now, verbose_name=_("changed at"))

    class Meta:
        verbose_name = _("hand revision")
        verbose_name_plural = _("hand revisions")
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(
                "hand",
                "version",
                name="scoring_handrevision_unique_version",
                violation_error_message=_("This hand already has a revision with this number."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.hand} v{self.version} ({self.action})"


class TotalsRevision(models.Model):
    """The final totals a game recorded by its totals only (``Game.totals_only``) had before a
    director corrected them: kept forever, with who corrected them, when and why. The game
    itself holds the totals as they are now."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="totals_revisions", verbose_name=_("game")
    )
    score_a = models.IntegerField(verbose_name=_("team A score"))
    score_b = models.IntegerField(verbose_name=_("team B score"))
    winner = models.CharField(
        max_length=6, choices=Side.choices, blank=True, verbose_name=_("winning team")
    )
    reason = models.TextField(verbose_name=_("reason"))
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(default=timezone.now, verbose_name=_("changed at"))

    class Meta:
        verbose_name = _("former totals")
        verbose_name_plural = _("former totals")
        ordering = ["game", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.score_a}-{self.score_b} until {self.changed_at:%Y-%m-%d %H:%M}"


class MisplayDispute(models.Model):
    """A misplay called on a hand, judged by the engine from a trick record, ruled by a director.

    The engine's verdict and the director's ruling are both kept. What counts for the hand:
    the ruling when there is one (upheld = the verdict stands, overruled = the opposite),
    otherwise the engine's verdict; a rejected record decides nothing.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the engine")
        PROVEN = "proven", _("Misplay proven")
        NOT_PROVEN = "not_proven", _("Misplay not proven")
        RECORD_REJECTED = "record_rejected", _("Record rejected")

    class Ruling(models.TextChoices):
        NONE = "none", _("No ruling")
        UPHELD = "upheld", _("Upheld")
        OVERRULED = "overruled", _("Overruled")

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="disputes", verbose_name=_("hand")
    )
    called_by = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("called by"))
    accused = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("accused seat"))
    trick = models.PositiveSmallIntegerField(verbose_name=_("trick"))
    proof_card = models.CharField(max_length=3, blank=True, verbose_name=_("proof card"))
    #: The trick record shown as evidence (``TrickRecord.to_json()`` shape).
    evidence = models.JSONField(verbose_name=_("evidence"))

    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    #: ``Verdict.to_json()``, or the engine's error for a rejected record.
    verdict = models.JSONField(null=True, blank=True, verbose_name=_("verdict"))
    reason = models.TextField(blank=True, verbose_name=_("reason"))
    adjudicated_at = models.DateTimeField(null=True, blank=True, verbose_name=_("judged at"))

    ruling = models.CharField(
        max_length=10, choices=Ruling.choices, default=Ruling.NONE, verbose_name=_("ruling")
    )
    ruling_note = models.TextField(blank=True, verbose_name=_("ruling note"))
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("ruled by"),
    )
    ruled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ruled at"))

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    #: Bumped on every change (adjudication, ruling); the API's ETag.
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    class Meta:
        verbose_name = _("misplay dispute")
        verbose_name_plural = _("misplay disputes")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status"], name="scoring_dispute_status_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(trick__gte=1) & Q(trick__lte=9),
                name="scoring_dispute_trick",
                violation_error_message=_("A misplay is called on a trick from 1 to 9."),
            ),
            models.CheckConstraint(
                condition=_seat_q("called_by", nullable=False) & _seat_q("accused", nullable=False),
                name="scoring_dispute_seats",
                violation_error_message=_(
                    "The seat that calls the misplay and the seat accused are seats from 0 to 3."
                ),
            ),
            # a misplay is called on an opponent: the two seats are one or three apart
            models.CheckConstraint(
                condition=Q(called_by=F("accused") + 1)
                | Q(called_by=F("accused") + 3)
                | Q(called_by=F("accused") - 1)
                | Q(called_by=F("accused") - 3),
                name="scoring_dispute_accused_opponent",
                violation_error_message=_(
                    "A misplay is called on an opponent: the accused sits on the other team."
                ),
            ),
            models.UniqueConstraint(
                "hand",
                condition=Q(status="pending"),
                name="scoring_dispute_one_pending_per_hand",
                violation_error_message=_(
                    "This hand already has a dispute waiting for its verdict."
                ),
            ),
            models.CheckConstraint(
                condition=Q(ruling="none") | ~Q(status="pending"),
                name="scoring_dispute_ruling_after_verdict",
                violation_error_message=_(
                    "A dispute is ruled on only once the engine has given its verdict."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"Misplay dispute on {self.hand} ({self.get_status_display()})"

    @property
    def caller_name(self) -> str:
        """Who called the misplay, by name (read the hand's game with its seats)."""
        return str(self.hand.game.seats[self.called_by].display_name)

    @property
    def accused_name(self) -> str:
        return str(self.hand.game.seats[self.accused].display_name)

    def reason_naming(self, names: Sequence[str]) -> str:
        """The engine's reason with each "seat N" it speaks of given its player's name, as the
        pages show it (the engine knows seats, not players)."""
        return _SEAT.sub(lambda found: names[int(found.group(1))], self.reason)

    @property
    def reason_named(self) -> str:
        """:meth:`reason_naming` with the players of the hand's game (read with its seats)."""
        return self.reason_naming([player.display_name for player in self.hand.game.seats])

    @property
    def decision(self) -> bool | None:
        """Whether the misplay counts as proven for the hand (None: decides nothing)."""
        engine: bool | None = {
            self.Status.PROVEN: True,
            self.Status.NOT_PROVEN: False,
        }.get(self.Status(self.status))
        if engine is None:
            return None
        if self.ruling == self.Ruling.OVERRULED:
            return not engine
        return engine


class ResultChange(models.Model):
    """A change to a game's result that the apps following games have not yet taken in.

    Written in the same transaction (on PostgreSQL, the same statement) as the change: the
    hand that ends the game, a hand corrected or undone, a dispute decided, the game ended
    early or reopened. Once it commits, :data:`scoring.signals.game_result_changed` is sent;
    the row is deleted once what follows has been done: at once when every receiver did its
    work there and then, else by the task a receiver sent, in the transaction of its effect
    (:func:`scoring.services.results.result_changes_taken_in`). A row still here a minute
    later (the broker was down, or lost the message) is delivered again by the periodic task,
    so no result depends on a message having been sent, or having arrived.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")
        indexes = [models.Index(fields=["created_at"], name="scoring_resultchange_created")]

    def __str__(self) -> str:
        return f"result of game {self.game_id} changed at {self.created_at:%H:%M:%S}"
