"""Errors raised by the rules engine.

Every error is an :class:`EngineError` (a :class:`ValueError`) with three parts:

* ``code``: a stable slug that programs can branch on (``"card_points_impossible"``);
* ``field``: the dotted path of the input that is wrong (``"card_points"``, ``"runs.1.top"``,
  ``"tricks.3.2"``), or ``None`` when no single input is to blame;
* the message (``str(err)``): one complete sentence that a scorekeeper understands.

>>> err = InvalidEntry("card points 161 are impossible: no card is worth 1",
...                    code="card_points_impossible", field="card_points")
>>> err.code, err.field
('card_points_impossible', 'card_points')
>>> str(err)
'card points 161 are impossible: no card is worth 1'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "EngineError",
    "IllegalPlay",
    "ImpossibleRecord",
    "InvalidEntry",
    "RulesetError",
]


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    default_code = "engine_error"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field = field

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r}, field={self.field!r})"

    def to_json(self) -> dict[str, object]:
        """The error as plain data: ``{"message", "code", "fields"}``.

        >>> RulesetError("target must be a whole number", code="bad_value",
        ...              field="target").to_json()
        {'message': 'target must be a whole number', 'code': 'bad_value', 'fields': {'target': ['target must be a whole number']}}
        """  # noqa: E501
        fields: dict[str, list[str]] = {}
        if self.field is not None:
            fields[self.field] = [self.message]
        return {"message": self.message, "code": self.code, "fields": fields}

    def nested(self, prefix: str) -> EngineError:
        """The same error with ``prefix`` put in front of its field path."""
        field = prefix if self.field is None else f"{prefix}.{self.field}"
        return type(self)(self.message, code=self.code, field=field)


class InvalidEntry(EngineError):
    """A score entry or argument that cannot be right (a typing error, an impossible value)."""

    default_code = "invalid_entry"


class IllegalPlay(EngineError):
    """An action that the rules do not allow at this point of the hand."""

    default_code = "illegal_play"


class ImpossibleRecord(EngineError):
    """A trick record that cannot have happened (a card twice, a card not held, ...)."""

    default_code = "impossible_record"


class RulesetError(EngineError):
    """A ruleset with an unknown switch or a bad value."""

    default_code = "ruleset_error"
