"""Serializer pieces shared by the API's apps."""

import functools
import json
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from tarabish_site.api.errors import ValidationFailed


def refuse_unknown_keys(
    serializer: serializers.Serializer[Any], data: Any, reason: str = "is not a key of this request"
) -> None:
    """Refuse (400 ``unknown_field``, naming each) the keys of ``data`` that ``serializer``
    does not take: a read-only field or a misspelt one, rather than dropping it while the
    rest is applied and the answer says all went well."""
    if not isinstance(data, dict):
        return
    writable = {name for name, field in serializer.fields.items() if not field.read_only}
    unknown = sorted(str(key) for key in set(data) - writable)
    if unknown:
        message = "; ".join(f'"{name}" {reason}' for name in unknown)
        raise ValidationFailed(
            message, code="unknown_field", fields={name: [reason] for name in unknown}
        )


class DocumentedKeys(serializers.Serializer[Any]):
    """A body, or an object inside one, whose view reads it itself (a hand's entry goes to the
    engine as sent) and refuses every key its fields do not document
    (:func:`refuse_undocumented_keys`): the schema says ``additionalProperties: false``."""


#: A shape's writable keys, and for each key holding objects of a shape of their own: whether
#: it holds a list of them, and their keys in turn.
KeyTree = tuple[frozenset[str], dict[str, tuple[bool, "KeyTree"]]]


@functools.cache
def _key_tree(shape: type[serializers.Serializer[Any]]) -> KeyTree:
    fields = shape().fields
    keys = frozenset(name for name, field in fields.items() if not field.read_only)
    nested: dict[str, tuple[bool, KeyTree]] = {}
    for name, field in fields.items():
        if isinstance(field, serializers.ListSerializer):
            if isinstance(field.child, serializers.Serializer):
                nested[name] = (True, _key_tree(type(field.child)))
        elif isinstance(field, serializers.Serializer):
            nested[name] = (False, _key_tree(type(field)))
    return keys, nested


def _undocumented(data: Mapping[Any, Any], tree: KeyTree, prefix: str, found: list[str]) -> None:
    keys, nested = tree
    for key, value in data.items():
        if key not in keys:
            found.append(f"{prefix}{key}")
            continue
        inner = nested.get(key)
        if inner is None:
            continue
        many, shape = inner
        if not many:
            if isinstance(value, Mapping):
                _undocumented(value, shape, f"{prefix}{key}.", found)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    _undocumented(item, shape, f"{prefix}{key}.{index}.", found)


def refuse_undocumented_keys(
    data: Any,
    shape: type[serializers.Serializer[Any]],
    objects: Mapping[str, frozenset[str]] | None = None,
) -> None:
    """Refuse (400 ``unknown_field``, naming each by its path: ``misplay.by``,
    ``runs.0.colour``) the keys of ``data`` that ``shape`` does not document, in the objects its
    nested serializers describe too, and in the objects held by the keys ``objects`` names (a
    JSON field whose object form has those keys). Type and value are not checked here: whoever
    reads the body does that. Only objects are looked into; anything else is left to them."""
    if not isinstance(data, Mapping):
        return
    found: list[str] = []
    _undocumented(data, _key_tree(shape), "", found)
    for key, known in (objects or {}).items():
        value = data.get(key)
        if isinstance(value, Mapping):
            found.extend(f"{key}.{name}" for name in value if name not in known)
    if found:
        reasons = {path: f'"{path}" is not a key of this request' for path in found}
        message = "; ".join(reasons.values())
        raise ValidationFailed(
            message, code="unknown_field", fields={path: [why] for path, why in reasons.items()}
        )


#: The JSON type each kind of field takes, in the order tried (a subclass before its base).
_JSON_TYPES: tuple[
    tuple[type[serializers.Field[Any, Any, Any, Any]], type | tuple[type, ...], str], ...
] = (
    (serializers.BooleanField, bool, "true or false"),
    (serializers.IntegerField, int, "a whole number"),
    (serializers.PrimaryKeyRelatedField, int, "a whole number (an id)"),
    (serializers.FloatField, (int, float), "a number"),
    (serializers.CharField, str, "a string"),
    (serializers.DateField, str, "a date as a string (YYYY-MM-DD)"),
    (serializers.ListField, list, "a list"),
    (serializers.DictField, dict, "an object"),
)


def _json_type(field: serializers.Field[Any, Any, Any, Any]) -> tuple[Any, str] | None:
    if isinstance(field, serializers.ChoiceField):
        kinds = {type(value) for value in field.choices}
        if kinds == {str}:
            return str, "a string"
        if kinds == {int}:
            return int, "a whole number"
        return None
    for kind, python, words in _JSON_TYPES:
        if isinstance(field, kind):
            return python, words
    return None


def refuse_wrong_types(serializer: serializers.Serializer[Any], data: Any) -> None:
    """Refuse (400 ``invalid``, naming each) the values of ``data`` that are not of the JSON
    type their field documents: ``0`` for a string, ``"1"`` or ``true`` for a number, ``"yes"``
    for true or false. DRF would turn them into the type it wants; the schema says otherwise,
    and a client sending them has a bug it should hear about."""
    if not isinstance(data, dict):
        return
    wrong: dict[str, list[str]] = {}
    for name, value in data.items():
        field = serializer.fields.get(name)
        if field is None or field.read_only or (value is None and field.allow_null):
            continue
        expected = _json_type(field)
        if expected is None:
            continue
        python, words = expected
        is_bool = isinstance(value, bool)
        if not isinstance(value, python) or (is_bool and python is not bool):
            wrong[name] = [f"must be {words}, not {json.dumps(value)[:40]}"]
    if wrong:
        message = "; ".join(f"{name}: {reasons[0]}" for name, reasons in wrong.items())
        raise ValidationFailed(message, code="invalid", fields=wrong)


class OnlyItsFields(serializers.Serializer[Any]):
    """A body that names only what it can set: a key it does not know (a field that is
    read-only, or misspelt) is refused with 400 ``unknown_field`` naming it, and a value not of
    its field's JSON type with 400 ``invalid``."""

    unknown_reason = "is not a key of this request"

    def to_internal_value(self, data: Any) -> Any:
        refuse_unknown_keys(self, data, self.unknown_reason)
        refuse_wrong_types(self, data)
        return super().to_internal_value(data)


class OnlyItsChanges(OnlyItsFields):
    """A change that names only what it can change (as :class:`OnlyItsFields`)."""

    unknown_reason = "cannot be changed here."


class WholeNumberField(serializers.IntegerField):
    """An integer given as a JSON number: ``"1"`` (a string), ``true`` or ``1.5`` is refused,
    as the engine refuses them in a hand's entry."""

    default_error_messages = {"invalid": "must be a whole number, not {input!r}"}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid", input=data)
        return super().to_internal_value(data)
