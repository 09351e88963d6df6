"""What every API list's filters share.

django-filter reads ``?public=maybe`` as no filter at all and answers the whole list, so a
score-pad with a typo in a query is shown every tournament and never told. Here a yes/no
filter takes ``true`` or ``false`` (``1`` or ``0``) and refuses anything else with a 400
naming the filter, as every other filter already does with a value it cannot read.
"""

from typing import Any

from django import forms
from django.db import models
from django_filters import fields as base_fields
from django_filters import filters as base
from django_filters import rest_framework as filters
from django_filters.rest_framework.filterset import FILTER_FOR_DBFIELD_DEFAULTS
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from tarabish_site.api.routes import ID_MAX


class YesNoField(forms.Field):
    """``true`` / ``false`` (or ``1`` / ``0``), any case; empty is no filter."""

    default_error_messages = {"invalid": "%(value)s is neither true nor false."}

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        raise forms.ValidationError(
            self.error_messages["invalid"], code="invalid", params={"value": value}
        )


class YesNoFilter(base.BooleanFilter):  # type: ignore[misc]  # django-filter is untyped
    """A boolean filter that refuses a value it cannot read (the schema says boolean)."""

    field_class = YesNoField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput)  # the value as sent, for the field to read
        super().__init__(*args, **kwargs)


class IdField(base_fields.ModelChoiceField):  # type: ignore[misc]  # django-filter is untyped
    """A row given by its id: a whole number from 1, and a row with that id, each refused in
    plain words ("there is no team 999")."""

    def __init__(self, *args: Any, thing: str, **kwargs: Any) -> None:
        self.thing = thing
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= ID_MAX:
            raise forms.ValidationError(
                f"a {self.thing} is given by its id, a whole number from 1, not {value}",
                code="invalid",
            )
        found = self.queryset.filter(pk=int(text)).first()
        if found is None:
            raise forms.ValidationError(f"there is no {self.thing} {text}", code="invalid_choice")
        return found


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(base.ModelChoiceFilter):  # type: ignore[misc]  # django-filter is untyped
    """A filter on a row given by its id (``?team=4``), documented as an integer."""

    field_class = IdField


class FilterSet(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    """django-filter's REST FilterSet, with :class:`YesNoFilter` for boolean model fields."""

    FILTER_DEFAULTS = {
        **FILTER_FOR_DBFIELD_DEFAULTS,
        models.BooleanField: {"filter_class": YesNoFilter},
    }


class FilterBackend(filters.DjangoFilterBackend):  # type: ignore[misc]  # untyped
    """The API's filter backend: ``filterset_fields`` build on :class:`FilterSet`."""

    filterset_base = FilterSet
