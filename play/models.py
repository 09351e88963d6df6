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

    name = models.CharField(max_length=60)
    ruleset = models.JSONField(default=dict)
    ruleset_preset = models.CharField(max_length=40, default="cape-breton-standard")
    public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=40, default=_invite_token, unique=True)
    #: Seconds a seated player may be away before a computer player takes the seat
    #: (None: the table waits).
    replace_after = models.PositiveIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=10, choices=Phase.choices, default=Phase.SEATING)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="online_tables"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Connections open to the table by people not seated at it (spectators), counted up and
    #: down as they open and close.
    watching = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: Bumped on every change anyone at the table sees (the state's ETag).
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_json(self.ruleset)


class Seat(models.Model):
    """One of a table's four seats: empty, a person (their player), or a computer player."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot = models.BooleanField(default=False)
    #: When the person sitting here was last connected (None: connected now or never).
    away_since = models.DateTimeField(null=True, blank=True)

    class Meta:
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spectators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("table", "user", name="play_spectator_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} watching {self.table}"


class OnlineHand(models.Model):
    """A hand dealt at a table: deck, cut, deal, the engine's position, the stored result."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="online_hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    #: Game totals before the hand (for the forced call).
    scores = models.JSONField(default=list)
    #: The shuffled deck before the cut, top card first; never sent to anyone.
    deck = models.JSONField()
    cut_at = models.PositiveSmallIntegerField(null=True, blank=True)
    #: ``Deal.to_json()`` once dealt.
    deal = models.JSONField(null=True, blank=True)
    #: The engine's position after the last action (see ``play.snapshot``).
    snapshot = models.JSONField(null=True, blank=True)
    actions_count = models.PositiveIntegerField(default=0)
    #: The scoring hand it was stored as, once over.
    hand = models.OneToOneField(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="online"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "game", "number"]
        constraints = [
            models.UniqueConstraint("game", "number", name="play_hand_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} at {self.table}"


class HandAction(models.Model):
    """One accepted action of a hand, in order: the append-only log."""

    online_hand = models.ForeignKey(OnlineHand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    #: ``action_to_json`` of the engine's action.
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["online_hand", "seq"]
        constraints = [
            models.UniqueConstraint("online_hand", "seq", name="play_action_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.online_hand} action {self.seq}"
