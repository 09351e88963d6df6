"""Serializer pieces shared by the API's apps."""

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


class OnlyItsFields(serializers.Serializer[Any]):
    """A body that names only what it can set: a key it does not know (a field that is
    read-only, or misspelt) is refused with 400 ``unknown_field`` naming it."""

    unknown_reason = "is not a key of this request"

    def to_internal_value(self, data: Any) -> Any:
        refuse_unknown_keys(self, data, self.unknown_reason)
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
