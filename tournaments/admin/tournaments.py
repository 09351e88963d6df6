"""The tournament admin: its forms, its stages inline, its director steps and the CSV import
of entries."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine import preset
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.exceptions import refusal_said
from tournaments import services
from tournaments.admin.common import AddsThroughService, _add_errors, _run, ruleset_preset_field
from tournaments.models import Entry, Match, Stage, Tournament, TournamentEvent


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
            self.add_error(None, _("Only a director may create a tournament."))
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


class EntriesImportForm(forms.Form):
    """The teams of a CSV, as the API's ``entries/import/`` takes them."""

    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns team, player_one, player_two, community, seed (team, community and seed "
            "may be empty). All or nothing: one bad row and no team is registered."
        ),
    )

    def text(self) -> str:
        raw = self.cleaned_data["file"].read()
        try:
            return str(raw.decode("utf-8-sig"))
        except UnicodeDecodeError:
            self.add_error("file", _("The file is not text in UTF-8: save the sheet as CSV UTF-8."))
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


class TournamentEventInline(admin.TabularInline[TournamentEvent, Tournament]):
    """When the tournament was finished and reopened, by whom and why (written by the
    services only)."""

    model = TournamentEvent
    extra = 0
    fields = ["kind", "reason", "by", "at"]
    readonly_fields = ["kind", "reason", "by", "at"]
    verbose_name = _("history")
    verbose_name_plural = _("history")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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
    inlines = [StageInline, TournamentEventInline]
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
                    form.add_error("file", refusal_said(exc))
                    for where, reasons in sorted(exc.fields.items()):
                        _rows, line, column = [*where.split("."), "", ""][:3]
                        place = (
                            _("line %(line)s, %(column)s") % {"line": line, "column": column}
                            if line.isdigit()
                            else where
                        )
                        for reason in reasons:
                            form.add_error("file", f"{place}: {reason}")
                else:
                    registered = _("Teams registered: %(count)s.") % {"count": len(report.created)}
                    self.message_user(request, registered, messages.SUCCESS)
                    return redirect("admin:tournaments_tournament_change", tournament.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import teams into %(tournament)s") % {"tournament": tournament},
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

    @admin.display(description=_("Entries"), ordering="n_active")
    def active_entries(self, obj: Any) -> int:
        return int(obj.n_active)

    @admin.display(description=_("Checked in"))
    def checked_in(self, obj: Any) -> int:
        return int(obj.n_checked_in)

    @admin.display(description=_("Ready"))
    def matches_ready(self, obj: Any) -> int:
        return int(obj.n_ready)

    @admin.display(description=_("Playing"))
    def matches_playing(self, obj: Any) -> int:
        return int(obj.n_playing)

    @admin.display(description=_("Complete"))
    def matches_done(self, obj: Any) -> int:
        return int(obj.n_done)

    def _step(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        service: Any,
        done: str | Promise,
    ) -> None:
        _run(
            self, request, queryset, lambda t: service(tournament_id=t.pk, actor=request.user), done
        )

    @admin.action(description=_("Open registration"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(
            request, queryset, services.tournament_open_registration, _("Registration opened")
        )

    @admin.action(description=_("Open check-in"))
    def open_check_in(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.tournament_open_check_in, _("Check-in opened"))

    @admin.action(description=_("Process check-in (no-shows inactive, seeds closed up)"))
    def process_check_in(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.checkin_process, _("Check-in processed"))

    @admin.action(description=_("Advance to the next stage (pools to knockout)"))
    def advance(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.stage_advance, _("Next stage started"))

    @admin.action(description=_("Finish and store final placements"))
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._step(request, queryset, services.tournament_finish, _("Tournaments finished"))
