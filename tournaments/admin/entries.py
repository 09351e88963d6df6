"""The entry admin: registration through the service, check-in and withdrawal."""

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tarabish_site.api.errors import ApplicationError
from tournaments import services
from tournaments.admin.common import AddsThroughService, ChecksReadonlyFields, _add_errors, _run
from tournaments.models import Entry


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
        self, request: HttpRequest, queryset: QuerySet[Entry], value: bool, done: str | Promise
    ) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_check_in(entry_id=e.pk, actor=request.user, checked_in=value),
            done,
        )

    @admin.action(description=_("Check in"))
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._check(request, queryset, True, _("Checked in"))

    @admin.action(description=_("Undo check-in"))
    def check_out(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._check(request, queryset, False, _("Check-in undone"))

    @admin.action(description=_("Withdraw: forfeit remaining matches"))
    def withdraw_forfeit(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_withdraw(entry_id=e.pk, actor=request.user),
            _("Withdrawn, matches forfeited"),
        )

    @admin.action(description=_("Withdraw: set remaining pool/Swiss matches aside"))
    def withdraw_set_aside(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        _run(
            self,
            request,
            queryset,
            lambda e: services.entry_withdraw(
                entry_id=e.pk, actor=request.user, forfeit_remaining=False
            ),
            _("Withdrawn, matches set aside"),
        )
