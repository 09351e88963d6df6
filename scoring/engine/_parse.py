"""Small readers for JSON input that name the field when something is wrong."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from scoring.engine.cards import SEATS, Card, Suit, parse_card, parse_suit
from scoring.engine.errors import InvalidEntry


def obj(data: Any, what: str, field: str | None = None) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidEntry(f"{what} must be an object", code="bad_json", field=field)
    return data


def no_extra(data: Mapping[str, Any], known: Set[str], prefix: str = "") -> None:
    for key in data:
        if key not in known:
            raise InvalidEntry(
                f'"{key}" is not expected here', code="unknown_field", field=f"{prefix}{key}"
            )


def shown(value: object) -> str:
    """A value as an error message quotes it: as written when short, else by what it is (the
    insides of an object or a long list would only bury the reason)."""
    written = repr(value)
    if isinstance(value, Mapping):
        return "an object"
    if len(written) <= 40:
        return written
    return "a list" if isinstance(value, list | tuple) else "a long text"


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seat(value: Any, field: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not is_int(value) or value not in SEATS:
        raise InvalidEntry(
            f"{field.rsplit('.', 1)[-1].replace('_', ' ')} must be a seat 0 to 3, "
            f"not {shown(value)}",
            code="bad_seat",
            field=field,
        )
    return value


def trump(value: Any, field: str) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidEntry(
            f"trump must be a suit letter or null, not {shown(value)}", code="bad_suit", field=field
        )
    return parse_suit(value, field=field)


def card(value: Any, field: str) -> Card:
    if not isinstance(value, str):
        raise InvalidEntry(f"{shown(value)} is not a card", code="bad_card", field=field)
    return parse_card(value, field=field)


def cards(value: Any, field: str) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidEntry("expected a list of cards", code="bad_json", field=field)
    return tuple(card(v, f"{field}.{i}") for i, v in enumerate(value))


def int_pair(value: Any, field: str) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(is_int(v) for v in value):
        words = field.rsplit(".", 1)[-1].replace("_", " ")
        raise InvalidEntry(
            f"{words} must be two whole numbers, one per team, not {shown(value)}",
            code="bad_json",
            field=field,
        )
    return (value[0], value[1])


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidEntry(
            f"{field.rsplit('.', 1)[-1]} must be true or false", code="bad_json", field=field
        )
    return value


def suit_text(suit: Suit | None) -> str | None:
    return None if suit is None else suit.value
