"""Teams that registered themselves: shown, never edited here (their players confirm or
withdraw them, and a confirmed one is an entry, changed as entries are)."""

from django.contrib import admin

from tournaments.admin.derived import ReadOnlyAdmin
from tournaments.models import TeamRegistration


@admin.register(TeamRegistration)
class TeamRegistrationAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "requested_by", "partner", "team_name", "status", "created_at"]
    list_filter = ["status", "tournament"]
    list_select_related = ["tournament", "requested_by", "partner"]
    search_fields = ["requested_by__username", "partner__username", "team_name"]
    ordering = ["-created_at"]
