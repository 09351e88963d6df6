"""The stage admin: a stage added through the service's checks, started, its next Swiss
round paired, its standings recomputed."""

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tarabish_site.api.errors import ApplicationError
from tournaments import services
from tournaments.admin.common import (
    AddsThroughService,
    ChecksReadonlyFields,
    TiebreakersField,
    _add_errors,
    _run,
)
from tournaments.models import Stage

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
            fields += ["swiss_pairing"]
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

    @admin.action(description=_("Start the stage"))
    def start(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.stage_start(stage_id=s.pk, actor=request.user),
            _("Stages started"),
        )

    @admin.action(description=_("Pair the next Swiss round"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.swiss_round_pair(stage_id=s.pk, actor=request.user),
            _("Rounds paired"),
        )

    @admin.action(description=_("Recompute the standings now"))
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda s: services.standings_recompute(stage_id=s.pk, force=True),
            _("Standings recomputed"),
        )
