"""Serializer pieces shared by the API's apps."""

from typing import Any

from rest_framework import serializers


class OnlyItsFields(serializers.Serializer[Any]):
    """A change that names only what it can change: a key it does not know (a field that is
    read-only, or misspelt) is refused with 400 naming it, rather than dropped while the rest
    is applied and the answer says 200."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["cannot be changed here."] for name in unknown}
                )
        return super().to_internal_value(data)
