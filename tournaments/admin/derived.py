"""Rows the services derive (standings, ratings): shown, never edited."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import PlayerRating, RatingChange, Standing


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = [
        "place",
        "entry",
        "stage",
        "pool",
        "match_points",
        "game_wins",
        "points_difference",
        "buchholz",
    ]
    list_filter = ["stage__tournament", "stage"]
    list_select_related = ["entry__team", "stage", "pool"]
    ordering = ["stage", "pool", "place"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "mu", "sigma", "matches", "updated_at"]
    list_select_related = ["player"]
    search_fields = ["player__display_name"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["player", "match", "mu_before", "mu_after", "created_at"]
    list_select_related = ["player", "match__round", "match__home__team", "match__away__team"]
    search_fields = ["player__display_name"]
