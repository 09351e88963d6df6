"""The match admin: its games, held results, forfeits and resets."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tarabish_site.api.errors import Conflict
from tournaments import services
from tournaments.admin.common import _run
from tournaments.models import Match, MatchGame


class MatchGameInline(admin.TabularInline[MatchGame, Match]):
    model = MatchGame
    extra = 0
    fields = ["number", "game", "discarded", "discarded_reason"]
    readonly_fields = ["number", "game", "discarded", "discarded_reason"]
    can_delete = False


class HeldFilter(admin.SimpleListFilter):
    title = _("waiting for a director")
    parameter_name = "held"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Held"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.exclude(held_reason="") if self.value() == "yes" else queryset


#: The forfeits that overturn a result decided by play (its games set aside) and re-open the
#: later matches that result decided.
OVERTURN_ACTIONS = {
    "home": _(
        "Forfeit: the home team loses, overturning a result decided by play "
        "(its games set aside, later matches it decided re-opened)"
    ),
    "away": _(
        "Forfeit: the away team loses, overturning a result decided by play "
        "(its games set aside, later matches it decided re-opened)"
    ),
}


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = [
        "round_name",
        "home_name",
        "away_name",
        "table",
        "state",
        "score",
        "winner_name",
        "forfeit",
        "tournament",
        "held_reason",
    ]
    list_display_links = ["round_name"]
    list_filter = ["state", HeldFilter, "stage__tournament", "stage"]
    list_select_related = [
        "stage__tournament",
        "round",
        "home__team",
        "away__team",
        "winner__team",
    ]
    ordering = ["state", "table"]
    search_fields = ["key", "home__team__name", "away__team__name"]
    inlines = [MatchGameInline]
    readonly_fields = [
        str(f.name)
        for f in Match._meta.get_fields()
        if getattr(f, "concrete", False) and not f.auto_created
    ]
    actions = [
        "forfeit_home",
        "forfeit_away",
        "forfeit_home_reset",
        "forfeit_away_reset",
        "confirm_reset",
        "clear_hold",
        "sync_from_games",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are made by starting a stage

    def has_delete_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False  # a bracket is the matches it was made with: one gone broke its pages

    @admin.display(description=_("Round"), ordering="round_id")
    def round_name(self, obj: Match) -> str:
        """The stage and round (and bracket key): where the match stands in the day."""
        key = f" ({obj.key})" if obj.key else ""
        return f"{obj.stage.name}, {obj.round.name}{key}"

    @admin.display(description=pgettext_lazy("team", "Home"), ordering="home__team__name")
    def home_name(self, obj: Match) -> str:
        return obj.home_name

    @admin.display(description=pgettext_lazy("team", "Away"), ordering="away__team__name")
    def away_name(self, obj: Match) -> str:
        return obj.away_name

    @admin.display(description=_("Winner"), ordering="winner__team__name")
    def winner_name(self, obj: Match) -> str:
        return obj.winner.team.name if obj.winner else ""

    @admin.display(description=_("Tournament"), ordering="stage__tournament__name")
    def tournament(self, obj: Match) -> str:
        return obj.stage.tournament.name

    @admin.display(description=_("Games (points)"))
    def score(self, obj: Match) -> str:
        return f"{obj.home_games}-{obj.away_games} ({obj.home_points}-{obj.away_points})"

    def _forfeit(
        self, request: HttpRequest, queryset: QuerySet[Match], side: str, *, overturn: bool = False
    ) -> None:
        """Award each match by forfeit, ``side`` losing. A match decided by play keeps its
        result unless the action says it overturns it (which also re-opens the later matches
        that result decided)."""

        def step(match: Match) -> object:
            try:
                return services.match_forfeit(
                    match_id=match.pk,
                    actor=request.user,
                    loser_id=getattr(match, f"{side}_id") or 0,
                    expected_version=match.version,
                    confirm_reset=overturn,
                    overturn_result=overturn,
                )
            except Conflict as exc:
                if exc.code != "decided_by_play":
                    raise
                action = OVERTURN_ACTIONS[side]
                hint = _('Here that is the action "%(action)s".') % {"action": action}
                raise Conflict(f"{exc.message} {hint}", code=exc.code) from exc

        _run(self, request, queryset, step, "Matches awarded by forfeit")

    @admin.action(description=_("Forfeit: the home team loses (a no-show, a team that left)"))
    def forfeit_home(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "home")

    @admin.action(description=_("Forfeit: the away team loses (a no-show, a team that left)"))
    def forfeit_away(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "away")

    @admin.action(description=OVERTURN_ACTIONS["home"])
    def forfeit_home_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "home", overturn=True)

    @admin.action(description=OVERTURN_ACTIONS["away"])
    def forfeit_away_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "away", overturn=True)

    @admin.action(description=_("Confirm the held result change (re-opens later matches)"))
    def confirm_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_reset_confirm(
                match_id=m.pk, actor=request.user, expected_version=m.version
            ),
            _("Results reset"),
        )

    @admin.action(description=_("Keep the result as it stands (dismiss the hold)"))
    def clear_hold(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_hold_clear(match_id=m.pk, actor=request.user),
            _("Holds dismissed"),
        )

    @admin.action(description=_("Recompute the result from the games"))
    def sync_from_games(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_sync(match_id=m.pk, actor=request.user),
            _("Results recomputed"),
        )
