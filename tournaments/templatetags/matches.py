"""Template filters of the tournament pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from tournaments.charts import source_text
from tournaments.models import Match
from tournaments.wording import round_words

register = template.Library()

#: The sources that name where an entry comes from (a bye is shown as one already).
_NAMED = frozenset({"seed", "winner", "loser"})


@register.filter
def awaited(match: Match, side: str) -> str:
    """Who will play on ``side`` ("home" or "away") of ``match`` while it is not known yet, as
    the bracket drawing says it ("Winner L2-1", "Loser W3-1", "Seed 3"); "to be decided" where
    nothing says (a Swiss or pool round not yet paired)."""
    source = match.home_source if side == "home" else match.away_source
    if not isinstance(source, dict) or source.get("kind") not in _NAMED:
        return gettext("to be decided")
    return source_text(source, gettext)


@register.filter
def in_words(name: str) -> str:
    """A round's name as the system wrote it ("Losers round 2"), in the page's language."""
    return round_words(name)
