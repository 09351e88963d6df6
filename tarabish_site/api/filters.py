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
from rest_framework.filters import OrderingFilter, SearchFilter
from rest_framework.settings import api_settings

from tarabish_site.api.errors import ValidationFailed
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


#: A row id in a query, as the schema documents it.
ID_SCHEMA = {"type": "integer", "minimum": 1, "maximum": ID_MAX}


@extend_schema_field(ID_SCHEMA)
class IdFilter(base.ModelChoiceFilter):  # type: ignore[misc]  # django-filter is untyped
    """A filter on a row given by its id (``?team=4``), documented as an integer."""

    field_class = IdField


@extend_schema_field(OpenApiTypes.INT)
class WholeNumberFilter(base.NumberFilter):  # type: ignore[misc]  # django-filter is untyped
    """A filter on a whole-number column: ``?table=2``; ``?table=0.5`` is refused."""

    field_class = forms.IntegerField


_WHOLE_NUMBER_COLUMNS = (
    models.IntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
)


class FilterSet(filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    """django-filter's REST FilterSet, with :class:`YesNoFilter` for boolean model fields and
    :class:`WholeNumberFilter` for whole-number ones."""

    FILTER_DEFAULTS = {
        **FILTER_FOR_DBFIELD_DEFAULTS,
        models.BooleanField: {"filter_class": YesNoFilter},
        **{column: {"filter_class": WholeNumberFilter} for column in _WHOLE_NUMBER_COLUMNS},
    }


@extend_schema_field(ID_SCHEMA)
class RowIdFilter(base.NumberFilter):  # type: ignore[misc]  # django-filter is untyped
    """A filter on a column holding a row id, given as a whole number from 1 (``?game=41``);
    no row with that id is an empty list, not an error."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)


class FilterBackend(filters.DjangoFilterBackend):  # type: ignore[misc]  # untyped
    """The API's filter backend: ``filterset_fields`` build on :class:`FilterSet`, and a query
    parameter the list does not take (``?tournament=`` for ``?stage__tournament__slug=``, a
    typo) is refused with 400 naming it, not ignored while the whole list is answered."""

    filterset_base = FilterSet

    def filter_queryset(self, request: Any, queryset: Any, view: Any) -> Any:
        refuse_unknown_parameters(request, queryset, view, self)
        return super().filter_queryset(request, queryset, view)


def known_parameters(request: Any, queryset: Any, view: Any, backend: Any) -> set[str]:
    """The query parameters ``view`` reads: its filters, its paginator's, its ordering and
    search, and DRF's ``format``."""
    known = {api_settings.URL_FORMAT_OVERRIDE or "format"}
    filterset_class = backend.get_filterset_class(view, queryset)
    if filterset_class is not None:
        known.update(filterset_class.base_filters)
    paginator = getattr(view, "paginator", None)
    for name in ("page_query_param", "page_size_query_param"):
        if paginator is not None and getattr(paginator, name, None):
            known.add(getattr(paginator, name))
    for backend_class in getattr(view, "filter_backends", ()):
        if issubclass(backend_class, OrderingFilter):
            known.add(backend_class.ordering_param)
        if issubclass(backend_class, SearchFilter) and getattr(view, "search_fields", None):
            known.add(backend_class.search_param)
    return known


def refuse_unknown_parameters(request: Any, queryset: Any, view: Any, backend: Any) -> None:
    """400 naming each query parameter ``view`` does not read (``unknown_parameter``), or that
    is given more than once or empty (``invalid``): each would otherwise be read as something
    the client did not mean (the last of several values, no filter at all)."""
    params = request.query_params
    unknown = sorted(set(params) - known_parameters(request, queryset, view, backend))
    if unknown:
        reason = "is not a parameter of this list"
        raise ValidationFailed(
            "; ".join(f'"{name}" {reason}' for name in unknown),
            code="unknown_parameter",
            fields={name: [reason] for name in unknown},
        )
    wrong: dict[str, list[str]] = {}
    for name in params:
        values = params.getlist(name)
        if len(values) > 1:
            wrong[name] = ["is given more than once: give it once"]
        elif values[0] == "":
            wrong[name] = ["is empty: leave it out to take every row"]
    if wrong:
        raise ValidationFailed(
            "; ".join(f"{name} {reasons[0]}" for name, reasons in wrong.items()),
            code="invalid",
            fields=wrong,
        )
