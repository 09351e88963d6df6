"""Making the engine's frozen values quickly where the engine itself knows every field.

A frozen dataclass stores each field through ``object.__setattr__``, which looks the field's
name up on the class at every store: about half the time of making a
:class:`~scoring.engine.scoring.HandResult`. The engine's own fast paths
(:func:`~scoring.engine.simulate.simulate_hand`) make their values through :func:`maker`
instead, which stores each field through its slot, found once. The values are the same ones
(equal, hashed, printed and pickled alike); since no ``__post_init__`` runs, a maker is only
for classes that have none.

>>> from scoring.engine.record import TrickRecord
>>> make = maker(TrickRecord)
>>> make(0, None, None, (), None, (), None, None, None) == TrickRecord(0, None, None, ())
True
>>> make(0, None)
Traceback (most recent call last):
...
TypeError: TrickRecord has 9 fields, not 2
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from itertools import repeat
from operator import call
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function making a ``cls`` from every one of its fields, in order, positionally.

    >>> from scoring.engine.runs import Run
    >>> maker(Run)
    Traceback (most recent call last):
    ...
    TypeError: Run checks its fields in __post_init__: make it with Run(...)
    """
    if not is_dataclass(cls) or not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(
            f"{cls.__name__} checks its fields in __post_init__: make it with {cls.__name__}(...)"
        )
    setters = tuple(getattr(cls, f.name).__set__ for f in fields(cls))
    count = len(setters)
    new = object.__new__

    def make(*values: Any) -> T:
        if len(values) != count:
            raise TypeError(f"{cls.__name__} has {count} fields, not {len(values)}")
        value: T = new(cls)
        # Every store made by C loops (each setter returns None, so any() runs them all).
        any(map(call, setters, repeat(value), values))
        return value

    make.__name__ = f"make_{cls.__name__}"
    return make
