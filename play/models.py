"""Tables, their seats and watchers, and the hands played at them with their action logs.

A :class:`Table` seats four; its current game is an ordinary :class:`scoring.models.Game`.
Each hand dealt at it is an :class:`OnlineHand`: the shuffled deck, the cut, the deal, and
an append-only log of :class:`HandAction` rows (the truth). Beside the log the hand keeps a
snapshot of the engine's position after the last action, so a move loads one row instead of
replaying the log; :func:`play.services.hand_replayed` rebuilds it from the log.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.engine import Ruleset
from scoring.models import SEAT_CHOICES, Game, Hand, Player


def _invite_token() -> str:
    return secrets.token_urlsafe(16)


class Table(models.Model):
    """A virtual table of four seats, public (listed in the lobby) or private (invite link)."""

    class Phase(models.TextChoices):
        SEATING = "seating", _("Waiting for players")
        CUTTING = "cutting", _("Cutting the deck")
        PLAYING = "playing", _("Playing a hand")
        HAND_OVER = "hand_over", _("Hand over")
        GAME_OVER = "game_over", _("Game over")

    name = models.CharField(max_length=60, verbose_name=_("name"))
    ruleset = models.JSONField(default=dict, verbose_name=_("ruleset"))
    ruleset_preset = models.CharField(
        max_length=40, default="cape-breton-standard", verbose_name=_("ruleset preset")
    )
    public = models.BooleanField(default=True, verbose_name=_("public"))
    invite_token = models.CharField(
        max_length=40, default=_invite_token, unique=True, verbose_name=_("invitation token")
    )
    #: Seconds a seated player may be away before a computer player takes the seat
    #: (None: the table waits).
    replace_after = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("seconds away before a computer player sits in")
    )
    phase = models.CharField(
        max_length=10, choices=Phase.choices, default=Phase.SEATING, verbose_name=_("phase")
    )
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="online_tables",
        verbose_name=_("game"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    #: Connections open to the table by people not seated at it (spectators), counted up and
    #: down as they open and close.
    watching = models.PositiveIntegerField(default=0, verbose_name=_("spectators watching"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    #: Bumped on every change anyone at the table sees (the state's ETag).
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    class Meta:
        verbose_name = _("online table")
        verbose_name_plural = _("online tables")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_json(self.ruleset)


class Seat(models.Model):
    """One of a table's four seats: empty, a person (their player), or a computer player."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("number"))
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    bot = models.BooleanField(default=False, verbose_name=_("computer player"))
    #: When the person sitting here was last connected (None: connected now or never).
    away_since = models.DateTimeField(null=True, blank=True, verbose_name=_("away since"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint("table", "number", name="play_seat_unique_number"),
            models.UniqueConstraint(
                "table", "user", condition=Q(user__isnull=False), name="play_seat_one_per_user"
            ),
            models.CheckConstraint(condition=Q(number__lte=3), name="play_seat_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def empty(self) -> bool:
        return self.player_id is None


class Spectator(models.Model):
    """Someone watching a table (and, for a private table, let in by its invite link)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="spectators", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("spectator")
        verbose_name_plural = _("spectators")
        constraints = [
            models.UniqueConstraint("table", "user", name="play_spectator_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} watching {self.table}"


class OnlineHand(models.Model):
    """A hand dealt at a table: deck, cut, deal, the engine's position, the stored result."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("table")
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="online_hands", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    dealer = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("dealer"))
    #: Game totals before the hand (for the forced call).
    scores = models.JSONField(default=list, verbose_name=_("scores"))
    #: The shuffled deck before the cut, top card first; never sent to anyone.
    deck = models.JSONField(verbose_name=_("deck"))
    cut_at = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("cut at"))
    #: ``Deal.to_json()`` once dealt.
    deal = models.JSONField(null=True, blank=True, verbose_name=_("deal"))
    #: The engine's position after the last action (see ``play.snapshot``).
    snapshot = models.JSONField(null=True, blank=True, verbose_name=_("snapshot"))
    actions_count = models.PositiveIntegerField(default=0, verbose_name=_("actions counted"))
    #: The scoring hand it was stored as, once over.
    hand = models.OneToOneField(
        Hand,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="online",
        verbose_name=_("hand"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("online hand")
        verbose_name_plural = _("online hands")
        ordering = ["table", "game", "number"]
        constraints = [
            models.UniqueConstraint("game", "number", name="play_hand_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} at {self.table}"


class HandAction(models.Model):
    """One accepted action of a hand, in order: the append-only log."""

    online_hand = models.ForeignKey(
        OnlineHand, on_delete=models.CASCADE, related_name="actions", verbose_name=_("online hand")
    )
    seq = models.PositiveIntegerField(verbose_name=_("sequence number"))
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, verbose_name=_("seat"))
    #: ``action_to_json`` of the engine's action.
    action = models.JSONField(verbose_name=_("action"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("hand action")
        verbose_name_plural = _("hand actions")
        ordering = ["online_hand", "seq"]
        constraints = [
            models.UniqueConstraint("online_hand", "seq", name="play_action_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.online_hand} action {self.seq}"
