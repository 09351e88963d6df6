"""Teams that registered themselves, and results players reported: shown, never edited here
(their players confirm or withdraw them; a confirmed team is an entry, a confirmed result the
match's games, changed as those are)."""

from django.contrib import admin

from tournaments.admin.derived import ReadOnlyAdmin
from tournaments.models import ResultReport, TeamRegistration


@admin.register(TeamRegistration)
class TeamRegistrationAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "requested_by", "partner", "team_name", "status", "created_at"]
    list_filter = ["status", "tournament"]
    list_select_related = ["tournament", "requested_by", "partner"]
    search_fields = ["requested_by__username", "partner__username", "team_name"]
    ordering = ["-created_at"]


@admin.register(ResultReport)
class ResultReportAdmin(ReadOnlyAdmin):
    """Results reported by players: shown, never edited here (the other team confirms or
    disputes them, a director decides on the match's page or through the API)."""

    list_display = ["match", "side", "reported_by", "status", "dispute_reason", "created_at"]
    list_filter = ["status", "match__stage__tournament"]
    list_select_related = [
        "match__round",
        "match__home__team",
        "match__away__team",
        "reported_by",
    ]
    search_fields = ["reported_by__username", "dispute_reason"]
    ordering = ["-created_at"]
