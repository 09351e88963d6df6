"""Shared value types and the one error type of the tournament algorithms.

Entries (teams) are identified by plain ints or strings chosen by the caller, usually the
primary key of the entry row. The algorithms never look anything up: every fact they need
(seed, score, opponents met, results) is passed in as a value.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeAlias

EntryId: TypeAlias = int | str
"""Identifier of one entry (a registered team of two)."""


class AlgorithmError(ValueError):
    """Bad input to a pairing, bracket or standings function.

    ``field`` names the argument (or the part of it) that is wrong, ``code`` is a short
    machine-readable reason; both map directly onto the API error shape
    ``{"message", "code", "fields"}``.
    """

    def __init__(self, message: str, *, field: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entries that meet in one round. ``home`` is the better-ranked (or seeded) entry."""

    home: EntryId
    away: EntryId

    def entries(self) -> tuple[EntryId, EntryId]:
        return (self.home, self.away)


def entry_sort_key(entry: EntryId) -> tuple[int, int, str]:
    """A total order over mixed int and str ids, used only to make results deterministic.

    >>> sorted([3, "b", 1, "a"], key=entry_sort_key)
    [1, 3, 'a', 'b']
    """
    if isinstance(entry, bool):
        raise AlgorithmError("Entry ids must be int or str, not bool.", field="entry", code="type")
    if isinstance(entry, int):
        return (0, entry, "")
    return (1, 0, entry)


def require_unique(values: Iterable[Hashable], *, field: str) -> None:
    """Raise :class:`AlgorithmError` naming ``field`` if ``values`` repeats an item."""
    seen: set[Hashable] = set()
    for value in values:
        if value in seen:
            raise AlgorithmError(
                f"{field} lists {value!r} more than once.", field=field, code="duplicate"
            )
        seen.add(value)
