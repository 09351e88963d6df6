"""What the tournament admins share: services run from a form with their refusals beside
the fields, the add pages through the services' own checks, rulesets and tie-breakers in words."""

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine import PRESETS
from scoring.wording import preset_name
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.exceptions import refusal_said
from tournaments.algorithms.standings import DEFAULT_TIEBREAKERS, SWISS_TIEBREAKERS, TIEBREAKERS


def _run(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    step: Callable[[Any], object],
    done: str | Promise,
) -> None:
    """Run ``step`` for each selected row; report successes and each refusal in words."""
    count = 0
    for obj in queryset:
        try:
            step(obj)
        except ApplicationError as exc:
            refused = _("%(row)s: %(reason)s") % {"row": obj, "reason": refusal_said(exc)}
            modeladmin.message_user(request, refused, messages.ERROR)
        else:
            count += 1
    if count:
        said = _("%(done)s: %(count)s.") % {"done": done, "count": count}
        modeladmin.message_user(request, said, messages.SUCCESS)


def _add_errors(form: forms.ModelForm[Any], exc: ApplicationError) -> None:
    """Show a service's refusal on the add form, on the fields it names."""
    said = refusal_said(exc)
    in_its_words = said == exc.message  # in English: the reasons name the particulars
    names = [name for name in exc.fields if name in form.fields]
    for name in names:
        for reason in exc.fields[name] if in_its_words else [said]:
            form.add_error(name, reason)
    if not names:
        form.add_error(None, said)


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


RULESET_HELP = gettext_lazy(
    "The rules every game of the tournament is played by, one of the engine's presets. "
    "A custom ruleset is set through the API."
)


CUSTOM_RULESET = ("", gettext_lazy("Custom ruleset (as set through the API; kept as it is)"))


def ruleset_preset_field(*, custom: bool = False) -> forms.ChoiceField:
    """The engine's presets to choose from, by name (and the custom ruleset a tournament
    already has, kept as it is)."""
    choices = [(slug, preset_name(slug)) for slug in PRESETS]
    return forms.ChoiceField(
        label=_("Ruleset"),
        choices=[CUSTOM_RULESET, *choices] if custom else choices,
        initial="cape-breton-standard",
        help_text=RULESET_HELP,
        required=not custom,
    )


def _tiebreakers_in_words() -> str:
    return _(
        "The order that breaks ties in the table, first to last, separated by commas. "
        "Names: %(names)s. Empty: the usual order for the stage's kind (%(usual)s; "
        "Swiss: %(swiss)s)."
    ) % {
        "names": ", ".join(TIEBREAKERS),
        "usual": ", ".join(DEFAULT_TIEBREAKERS),
        "swiss": ", ".join(SWISS_TIEBREAKERS),
    }


_tiebreakers_help = lazy(_tiebreakers_in_words, str)


class TiebreakersField(forms.CharField):
    """A stage's tie-breakers as a director types them: names in order, separated by
    commas ("head to head" and "head_to_head" alike); a JSON list is read too."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        kwargs["required"] = False
        kwargs["help_text"] = _tiebreakers_help()  # said in the language of each page
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
                    _('"%(name)s" is not a tie-breaker; the names are %(names)s.')
                    % {"name": name.strip(), "names": ", ".join(TIEBREAKERS)},
                    code="invalid",
                )
            if key in names:
                raise forms.ValidationError(
                    _('"%(name)s" is listed twice.') % {"name": name.strip()}, code="invalid"
                )
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
                _("Give the tie-breaker names separated by commas."), code="invalid"
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
