"""Admin: every director step as an action, and lists that show the state of the day."""

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from scoring.engine import PRESET_NAMES, PRESETS, preset
from tarabish_site.api.errors import ApplicationError, Conflict
from tournaments import services
from tournaments.algorithms.standings import (
    DEFAULT_TIEBREAKERS,
    SWISS_TIEBREAKERS,
    TIEBREAKERS,
)
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


def _add_errors(form: forms.ModelForm[Any], exc: ApplicationError) -> None:
    """Show a service's refusal on the add form, on the fields it names."""
    names = [name for name in exc.fields if name in form.fields]
    for name in names:
        for reason in exc.fields[name]:
            form.add_error(name, reason)
    if not names:
        form.add_error(None, exc.message)


class AddsThroughService:
    """For a ModelAdmin whose add page is ``add_form``: a form that runs the service's checks
    (and knows who asks, for its permission checks); the change page is the model's own."""

    add_form: type[forms.ModelForm[Any]]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is not None:
            return super().get_form(request, obj, change=change, **kwargs)  # type: ignore[misc]
        kwargs["fields"] = self.add_fields()
        form = super().get_form(request, obj, form=self.add_form, **kwargs)  # type: ignore[misc]
        form.request = request
        return form

    def add_fields(self) -> list[str]:
        return list(self.add_form._meta.fields or [])

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return [(None, {"fields": self.add_fields()})]
        return super().get_fieldsets(request, obj)  # type: ignore[misc]


RULESET_HELP = (
    "The rules every game of the tournament is played by, one of the engine's presets. "
    "A custom ruleset is set through the API."
)
CUSTOM_RULESET = ("", "Custom ruleset (as set through the API; kept as it is)")


def ruleset_preset_field(*, custom: bool = False) -> forms.ChoiceField:
    """The engine's presets to choose from, by name (and the custom ruleset a tournament
    already has, kept as it is)."""
    choices = [(slug, PRESET_NAMES.get(slug, slug)) for slug in PRESETS]
    return forms.ChoiceField(
        label="Ruleset",
        choices=[CUSTOM_RULESET, *choices] if custom else choices,
        initial="cape-breton-standard",
        help_text=RULESET_HELP,
        required=not custom,
    )


class TiebreakersField(forms.CharField):
    """A stage's tie-breakers as a director types them: names in order, separated by
    commas ("head to head" and "head_to_head" alike); a JSON list is read too."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        kwargs["required"] = False
        kwargs["help_text"] = (
            "The order that breaks ties in the table, first to last, separated by commas. "
            f"Names: {', '.join(TIEBREAKERS)}. Empty: the usual order for the stage's kind "
            f"({', '.join(DEFAULT_TIEBREAKERS)}; Swiss: {', '.join(SWISS_TIEBREAKERS)})."
        )
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(name) for name in value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        if isinstance(value, list | tuple):
            typed = [str(name) for name in value]
        else:
            text = str(super().to_python(value)).strip()
            typed = _typed_names(text)
        names = []
        for name in typed:
            key = "_".join(name.strip().lower().replace("-", " ").split())
            if key not in TIEBREAKERS:
                raise forms.ValidationError(
                    f'"{name.strip()}" is not a tie-breaker; the names are '
                    f"{', '.join(TIEBREAKERS)}.",
                    code="invalid",
                )
            if key in names:
                raise forms.ValidationError(f'"{name.strip()}" is listed twice.', code="invalid")
            names.append(key)
        return names


def _typed_names(text: str) -> list[str]:
    """The names in what a director typed: a comma-separated list, or a JSON list."""
    if text.startswith("["):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            raise forms.ValidationError(
                "Give the tie-breaker names separated by commas.", code="invalid"
            )
        return value
    return [name for name in text.split(",") if name.strip()]


class ChecksReadonlyFields:
    """For a change form with fields shown read-only: the model's constraints on them are
    checked too (Django leaves out a constraint on a field the form does not edit, and the
    database's refusal was a server error)."""

    checked_readonly: tuple[str, ...] = ()

    def _get_validation_exclusions(self) -> set[str]:
        exclusions: set[str] = super()._get_validation_exclusions()  # type: ignore[misc]
        return exclusions - set(self.checked_readonly)


class TournamentChangeForm(forms.ModelForm[Tournament]):
    """The change page: the ruleset chosen among the engine's presets, or a custom ruleset
    (set through the API) kept as it is."""

    class Meta:
        model = Tournament
        fields = "__all__"  # noqa: DJ007 - the admin picks the fields shown

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "ruleset_preset" in self.fields:
            custom = self.instance.pk is not None and not self.instance.ruleset_preset
            self.fields["ruleset_preset"] = ruleset_preset_field(custom=custom)


class TournamentAddForm(forms.ModelForm[Tournament]):
    """Adding a tournament runs the service's checks; saving it calls the service."""

    request: HttpRequest

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "venue",
            "starts_on",
            "ends_on",
            "ruleset_preset",
            "match_format",
            "match_games",
            "public",
            "substitutes_allowed",
            "seed_by_rating",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False  # the service makes one from the name
        self.fields["ends_on"].required = False  # the service takes the first day
        self.fields["ruleset_preset"] = ruleset_preset_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        if not services.can_create_tournament(self.request.user):
            self.add_error(None, "Only a director may create a tournament.")
            return data
        try:
            services.tournament_create_check(
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data.get("ends_on"),
                slug=data.get("slug") or "",
                ruleset_preset=data.get("ruleset_preset") or "",
                ruleset=None,
                match_format=data["match_format"],
                match_games=data["match_games"],
            )
        except ApplicationError as exc:
            _add_errors(self, exc)
        return data


# ------------------------------------------------------------------------------ tournaments
class EntriesImportForm(forms.Form):
    """The teams of a CSV, as the API's ``entries/import/`` takes them."""

    file = forms.FileField(
        label="CSV file",
        help_text=(
            "Columns team, player_one, player_two, community, seed (team, community and seed "
            "may be empty). All or nothing: one bad row and no team is registered."
        ),
    )

    def text(self) -> str:
        raw = self.cleaned_data["file"].read()
        try:
            return str(raw.decode("utf-8-sig"))
        except UnicodeDecodeError:
            self.add_error("file", "The file is not text in UTF-8: save the sheet as CSV UTF-8.")
            return ""


class StageInline(admin.TabularInline[Stage, Tournament]):
    """The tournament's stages at a glance. They are added in the stage admin, whose form runs
    the service's checks, and a started stage's format does not change: changing its kind here
    left a running stage with matches of another format (its pages answered 500)."""

    model = Stage
    extra = 0
    fields = ["order", "name", "kind", "status", "pool_count", "qualifiers_per_pool"]
    readonly_fields = ["order", "name", "kind", "status", "pool_count", "qualifiers_per_pool"]
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(AddsThroughService, admin.ModelAdmin[Tournament]):
    add_form = TournamentAddForm
    form = TournamentChangeForm
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
    change_form_template = "admin/tournaments/tournament/change_form.html"  # + Import teams
    actions = [
        "open_registration",
        "open_check_in",
        "process_check_in",
        "advance",
        "finish",
    ]

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: Tournament | None = None
    ) -> dict[str, Any]:
        return super().get_prepopulated_fields(request, obj) if obj is None else {}

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """The status moves with the actions (each a service step), never by hand; the slug
        and organiser are the tournament's identity; the ruleset is chosen by preset on the
        add form. Once play has started its format stands, as the API's update says: a
        ruleset typed in by hand stopped every next game from starting."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is None:
            return fields
        fields += ["status", "slug", "organiser", "ruleset"]
        if obj.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            fields += ["ruleset_preset", "match_format", "match_games"]
        return fields

    def get_inlines(self, request: HttpRequest, obj: Tournament | None) -> Any:
        return self.inlines if obj is not None else []

    def get_urls(self) -> list[Any]:
        own = [
            path(
                "<int:pk>/import-entries/",
                self.admin_site.admin_view(self.import_entries),
                name="tournaments_tournament_import_entries",
            )
        ]
        return own + super().get_urls()

    def import_entries(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Register the teams of a CSV file (the service's import: every row checked, all or
        nothing), each refused row named beside the file."""
        tournament = self.get_object(request, str(pk))
        if tournament is None or not self.has_change_permission(request, tournament):
            raise PermissionDenied
        form = EntriesImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            text = form.text()
            if text:
                try:
                    report = services.entries_import_csv(
                        tournament_id=tournament.pk, actor=request.user, text=text
                    )
                except ApplicationError as exc:
                    form.add_error("file", exc.message)
                    for where, reasons in sorted(exc.fields.items()):
                        _rows, line, column = [*where.split("."), "", ""][:3]
                        place = f"line {line}, {column}" if line.isdigit() else where
                        for reason in reasons:
                            form.add_error("file", f"{place}: {reason}")
                else:
                    self.message_user(
                        request, f"Teams registered: {len(report.created)}.", messages.SUCCESS
                    )
                    return redirect("admin:tournaments_tournament_change", tournament.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Import teams into {tournament}",
            "opts": self.model._meta,
            "original": tournament,
            "form": form,
        }
        return TemplateResponse(
            request, "admin/tournaments/tournament/import_entries.html", context
        )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            if "ruleset_preset" in form.changed_data and obj.ruleset_preset:
                obj.ruleset = preset(obj.ruleset_preset).to_json()  # the preset's rules
            super().save_model(request, obj, form, change)
            if "public" in form.changed_data:
                services.tournament_public_follow(tournament=obj)
            return
        data = form.cleaned_data
        created = services.tournament_create(
            actor=request.user,
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            slug=data.get("slug") or "",
            venue=data.get("venue") or "",
            ruleset_preset=data.get("ruleset_preset") or "",
            match_format=data["match_format"],
            match_games=data["match_games"],
            public=data["public"],
            substitutes_allowed=data["substitutes_allowed"],
            seed_by_rating=data["seed_by_rating"],
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if not change:
            return  # the service named the organiser a director
        # A director named here directs the tournament's match games (and no other game); one
        # taken off keeps no right to them.
        tournament = form.instance
        before = set(tournament.directors.values_list("pk", flat=True))
        super().save_related(request, form, formsets, change)
        after = set(tournament.directors.values_list("pk", flat=True))
        services.directors_left_games(tournament=tournament, user_ids=before - after)

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
class EntryAddForm(forms.ModelForm[Entry]):
    """Registering a team runs the service (its checks: the tournament's status, the team
    not already in, none of its players playing for another entry, the seed free). The admin
    saves in one transaction, so a later failure takes the registration back too."""

    request: HttpRequest
    registered: Entry | None = None

    class Meta:
        model = Entry
        fields = ["tournament", "team", "seed"]

    def _post_clean(self) -> None:
        """After the form's and the model's own checks (which the entry written here would
        fail, being there), the service's, which registers the team."""
        super()._post_clean()  # type: ignore[misc]  # django-stubs leave it out
        if self.errors:
            return
        data = self.cleaned_data
        try:
            self.registered = services.entry_register(
                tournament_id=data["tournament"].pk,
                actor=self.request.user,
                team_id=data["team"].pk,
                seed=data.get("seed"),
            )
        except ApplicationError as exc:
            _add_errors(self, exc)


class EntryChangeForm(ChecksReadonlyFields, forms.ModelForm[Entry]):
    checked_readonly = ("tournament", "team")  # a seed is free or taken in its tournament

    class Meta:
        model = Entry
        fields = "__all__"  # noqa: DJ007 - the admin picks the fields shown


@admin.register(Entry)
class EntryAdmin(AddsThroughService, admin.ModelAdmin[Entry]):
    add_form = EntryAddForm
    form = EntryChangeForm

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

    def get_readonly_fields(self, request: HttpRequest, obj: Entry | None = None) -> Any:
        """Once registered, an entry's tournament and team stand, its status and check-in
        move with the actions, and substitutes are added through the service (the API's
        ``substitutes/``), which refuses a player of another entry."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields += ["tournament", "team", "substitutes", "status", "checked_in"]
        return fields

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        obj.pk = form.registered.pk  # registered by the service when the form was checked
        obj.refresh_from_db()

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
STAGE_ADD_FIELDS = [
    "tournament",
    "name",
    "kind",
    "pool_count",
    "legs",
    "swiss_rounds",
    "third_place",
    "grand_final",
    "qualifiers_per_pool",
    "tiebreakers",
    "match_format",
    "match_games",
]


class StageAddForm(forms.ModelForm[Stage]):
    """Adding a stage runs the service's checks; saving it calls the service."""

    request: HttpRequest

    class Meta:
        model = Stage
        fields = STAGE_ADD_FIELDS
        field_classes = {"tiebreakers": TiebreakersField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False  # the service names it by its order and kind

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            services.stage_create_check(
                tournament=data["tournament"],
                actor=self.request.user,
                **_stage_values(data),
            )
        except ApplicationError as exc:
            _add_errors(self, exc)
        return data


def _stage_values(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": data["kind"],
        "pool_count": data["pool_count"],
        "legs": data["legs"],
        "swiss_rounds": data.get("swiss_rounds"),
        "third_place": data["third_place"],
        "grand_final": data["grand_final"],
        "qualifiers_per_pool": data.get("qualifiers_per_pool"),
        "tiebreakers": list(data.get("tiebreakers") or []),
        "match_format": data.get("match_format") or "",
        "match_games": data.get("match_games"),
    }


class StageChangeForm(ChecksReadonlyFields, forms.ModelForm[Stage]):
    checked_readonly = ("tournament",)

    class Meta:
        model = Stage
        fields = "__all__"  # noqa: DJ007 - the admin picks the fields shown
        field_classes = {"tiebreakers": TiebreakersField}


@admin.register(Stage)
class StageAdmin(AddsThroughService, admin.ModelAdmin[Stage]):
    add_form = StageAddForm
    form = StageChangeForm

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

    def get_readonly_fields(self, request: HttpRequest, obj: Stage | None = None) -> Any:
        """A stage belongs to its tournament; once started, its format stands (its pools,
        rounds and matches were made from it)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is None:
            return fields
        fields.append("tournament")
        if obj.status != Stage.Status.PENDING:  # and its place: the next stage takes from it
            fields += ["order"]
            fields += [name for name in STAGE_ADD_FIELDS if name not in ("tournament", "name")]
        return fields

    def has_delete_permission(self, request: HttpRequest, obj: Stage | None = None) -> bool:
        """A stage not yet started may go; a started one holds matches, games and ratings."""
        if obj is not None and obj.status != Stage.Status.PENDING:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Stage, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        data = form.cleaned_data
        created = services.stage_create(
            tournament_id=data["tournament"].pk,
            actor=request.user,
            name=data.get("name") or "",
            **_stage_values(data),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

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


#: The forfeits that overturn a result decided by play (its games set aside) and re-open the
#: later matches that result decided.
OVERTURN_ACTIONS = {
    side: f"Forfeit: the {side} team loses, overturning a result decided by play "
    "(its games set aside, later matches it decided re-opened)"
    for side in ("home", "away")
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

    @admin.display(description="Round", ordering="round_id")
    def round_name(self, obj: Match) -> str:
        """The stage and round (and bracket key): where the match stands in the day."""
        key = f" ({obj.key})" if obj.key else ""
        return f"{obj.stage.name}, {obj.round.name}{key}"

    @admin.display(description="Home", ordering="home__team__name")
    def home_name(self, obj: Match) -> str:
        return obj.home_name

    @admin.display(description="Away", ordering="away__team__name")
    def away_name(self, obj: Match) -> str:
        return obj.away_name

    @admin.display(description="Winner", ordering="winner__team__name")
    def winner_name(self, obj: Match) -> str:
        return obj.winner.team.name if obj.winner else ""

    @admin.display(description="Tournament", ordering="stage__tournament__name")
    def tournament(self, obj: Match) -> str:
        return obj.stage.tournament.name

    @admin.display(description="Games (points)")
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
                hint = f'Here that is the action "{action}".'
                raise Conflict(f"{exc.message} {hint}", code=exc.code) from exc

        _run(self, request, queryset, step, "Matches awarded by forfeit")

    @admin.action(description="Forfeit: the home team loses (a no-show, a team that left)")
    def forfeit_home(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "home")

    @admin.action(description="Forfeit: the away team loses (a no-show, a team that left)")
    def forfeit_away(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "away")

    @admin.action(description=OVERTURN_ACTIONS["home"])
    def forfeit_home_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "home", overturn=True)

    @admin.action(description=OVERTURN_ACTIONS["away"])
    def forfeit_away_reset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._forfeit(request, queryset, "away", overturn=True)

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
    list_select_related = ["player", "match__round", "match__home__team", "match__away__team"]
    search_fields = ["player__display_name"]
