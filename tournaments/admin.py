"""Admin: every director step as an action, and lists that show the state of the day."""

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from tarabish_site.api.errors import ApplicationError
from tournaments import services
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    PlayerRating,
    RatingChange,
    Stage,
    Standing,
    Tournament,
)


def _run(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    step: Callable[[Any], object],
    done: str,
) -> None:
    """Run ``step`` for each selected row; report successes and each refusal in words."""
    count = 0
    for obj in queryset:
        try:
            step(obj)
        except ApplicationError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
        else:
            count += 1
    if count:
        modeladmin.message_user(request, f"{done}: {count}.", messages.SUCCESS)


# ------------------------------------------------------------------------------ tournaments
class StageInline(admin.TabularInline[Stage, Tournament]):
    model = Stage
    extra = 0
    fields = ["order", "name", "kind", "status", "pool_count", "qualifiers_per_pool"]
    readonly_fields = ["status"]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = [
        "name",
        "starts_on",
        "venue",
        "status",
        "public",
        "active_entries",
        "checked_in",
        "matches_ready",
        "matches_playing",
        "matches_done",
    ]
    list_filter = ["status", "public", "starts_on"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    readonly_fields = ["version", "created_at", "updated_at", "finished_at"]
    inlines = [StageInline]
    actions = [
        "open_registration",
        "open_check_in",
        "process_check_in",
        "advance",
        "finish",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        state = "stages__matches__state"
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_active=Count(
                    "entries", filter=Q(entries__status=Entry.Status.ACTIVE), distinct=True
                ),
                n_checked_in=Count(
                    "entries",
                    filter=Q(entries__status=Entry.Status.ACTIVE, entries__checked_in=True),
                    distinct=True,
                ),
                n_ready=Count("stages__matches", filter=Q(**{state: Match.State.READY})),
                n_playing=Count("stages__matches", filter=Q(**{state: Match.State.IN_PROGRESS})),
                n_done=Count("stages__matches", filter=Q(**{state: Match.State.COMPLETE})),
            )
        )

    @admin.display(description="Entries", ordering="n_active")
    def active_entries(self, obj: Any) -> int:
        return int(obj.n_active)

    @admin.display(description="Checked in")
    def checked_in(self, obj: Any) -> int:
        return int(obj.n_checked_in)

    @admin.display(description="Ready")
    def matches_ready(self, obj: Any) -> int:
        return int(obj.n_ready)

    @admin.display(description="Playing")
    def matches_playing(self, obj: Any) -> int:
        return int(obj.n_playing)

    @admin.display(description="Complete")
    def matches_done(self, obj: Any) -> int:
        return int(obj.n_done)

    def _step(
        self, request: HttpRequest, queryset: QuerySet[Tournament], service: Any, done: str
    ) -> None:
        _run(
            self, request, queryset, lambda t: service(tournament_id=t.pk, actor=request.user), done
        )

    @admin.action(description="Open registration")
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.tournament_open_registration, "Registration opened")

    @admin.action(description="Open check-in")
    def open_check_in(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.tournament_open_check_in, "Check-in opened")

    @admin.action(description="Process check-in (no-shows inactive, seeds closed up)")
    def process_check_in(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.checkin_process, "Check-in processed")

    @admin.action(description="Advance to the next stage (pools to knockout)")
    def advance(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.stage_advance, "Next stage started")

    @admin.action(description="Finish and store final placements")
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.tournament_finish, "Tournaments finished")


# ------------------------------------------------------------------------------ entries
@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["team", "tournament", "seed", "status", "checked_in", "final_place"]
    list_filter = ["status", "checked_in", "tournament"]
    list_select_related = ["team", "tournament"]
    search_fields = [
        "team__name",
        "team__player_one__display_name",
        "team__player_two__display_name",
    ]
    raw_id_fields = ["team", "substitutes"]
    readonly_fields = ["registered_at", "checked_in_at", "withdrawn_at", "final_place", "version"]
    actions = ["check_in", "check_out", "withdraw_forfeit", "withdraw_set_aside"]

    def _check(
        self, request: HttpRequest, queryset: QuerySet[Entry], value: bool, done: str
    ) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_check_in(entry_id=e.pk, actor=request.user, checked_in=value),
            done,
        )

    @admin.action(description="Check in")
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._check(request, queryset, True, "Checked in")

    @admin.action(description="Undo check-in")
    def check_out(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._check(request, queryset, False, "Check-in undone")

    @admin.action(description="Withdraw: forfeit remaining matches")
    def withdraw_forfeit(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_withdraw(entry_id=e.pk, actor=request.user),
            "Withdrawn, matches forfeited",
        )

    @admin.action(description="Withdraw: set remaining pool/Swiss matches aside")
    def withdraw_set_aside(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_withdraw(
                entry_id=e.pk, actor=request.user, forfeit_remaining=False
            ),
            "Withdrawn, matches set aside",
        )


# ------------------------------------------------------------------------------ stages
@admin.register(Stage)
class StageAdmin(admin.ModelAdmin[Stage]):
    list_display = [
        "name",
        "tournament",
        "order",
        "kind",
        "status",
        "standings_dirty",
        "standings_computed_at",
    ]
    list_filter = ["kind", "status", "tournament"]
    list_select_related = ["tournament"]
    readonly_fields = [
        "status",
        "standings_dirty",
        "standings_computed_at",
        "started_at",
        "finished_at",
        "version",
    ]
    actions = ["start", "pair_next_round", "recompute_standings"]

    @admin.action(description="Start the stage")
    def start(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.stage_start(stage_id=s.pk, actor=request.user),
            "Stages started",
        )

    @admin.action(description="Pair the next Swiss round")
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.swiss_round_pair(stage_id=s.pk, actor=request.user),
            "Rounds paired",
        )

    @admin.action(description="Recompute the standings now")
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.standings_recompute(stage_id=s.pk, force=True),
            "Standings recomputed",
        )


# ------------------------------------------------------------------------------ matches
class MatchGameInline(admin.TabularInline[MatchGame, Match]):
    model = MatchGame
    extra = 0
    fields = ["number", "game", "discarded", "discarded_reason"]
    readonly_fields = ["number", "game", "discarded", "discarded_reason"]
    can_delete = False


class HeldFilter(admin.SimpleListFilter):
    title = "waiting for a director"
    parameter_name = "held"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Held")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.exclude(held_reason="") if self.value() == "yes" else queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = [
        "__str__",
        "table",
        "state",
        "score",
        "winner",
        "forfeit",
        "held_reason",
    ]
    list_filter = ["state", HeldFilter, "stage__tournament", "stage"]
    list_select_related = ["stage", "home__team", "away__team", "winner__team"]
    ordering = ["state", "table"]
    search_fields = ["key", "home__team__name", "away__team__name"]
    inlines = [MatchGameInline]
    readonly_fields = [
        str(f.name)
        for f in Match._meta.get_fields()
        if getattr(f, "concrete", False) and not f.auto_created
    ]
    actions = ["confirm_reset", "clear_hold", "sync_from_games"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are made by starting a stage

    @admin.display(description="Games (points)")
    def score(self, obj: Match) -> str:
        return f"{obj.home_games}-{obj.away_games} ({obj.home_points}-{obj.away_points})"

    @admin.action(description="Confirm the held result change (re-opens later matches)")
    def confirm_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_reset_confirm(
                match_id=m.pk, actor=request.user, expected_version=m.version
            ),
            "Results reset",
        )

    @admin.action(description="Keep the result as it stands (dismiss the hold)")
    def clear_hold(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_hold_clear(match_id=m.pk, actor=request.user),
            "Holds dismissed",
        )

    @admin.action(description="Recompute the result from the games")
    def sync_from_games(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda m: services.match_sync(match_id=m.pk, actor=request.user),
            "Results recomputed",
        )


# ------------------------------------------------------------------------------ derived rows
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
    list_select_related = ["player", "match__stage"]
    search_fields = ["player__display_name"]
