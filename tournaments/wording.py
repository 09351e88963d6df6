"""The words the system writes into a tournament (round and pool names, the words of a
bracket's slots), stored in English and shown in the page's language.

Rounds and pools are named when a stage starts ("Losers round 2", "Grand final", "Pool A"), in
the stored rows; pages, the bracket drawing and the sheets show them through
:func:`round_words`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext_lazy

ROUND_WORDS = {
    "Bye": gettext_lazy("Bye"),
    "Seed": gettext_lazy("Seed"),
    "Winner": gettext_lazy("Winner"),
    "Loser": gettext_lazy("Loser"),
    "Table": gettext_lazy("Table"),
    "forfeit": gettext_lazy("forfeit"),
    "Bracket": gettext_lazy("Bracket"),
    "Final": gettext_lazy("Final"),
    "Semi-finals": gettext_lazy("Semi-finals"),
    "Quarter-finals": gettext_lazy("Quarter-finals"),
    "Winners final": gettext_lazy("Winners final"),
    "Winners semi-finals": gettext_lazy("Winners semi-finals"),
    "Winners quarter-finals": gettext_lazy("Winners quarter-finals"),
    "Losers final": gettext_lazy("Losers final"),
    "Grand final": gettext_lazy("Grand final"),
    "Grand final reset": gettext_lazy("Grand final reset"),
    "Third place": gettext_lazy("Third place"),
}


#: Names with a number or a letter in them, each with its words: the round's number, or the
#: pool's letter (pools are named when a stage starts, "Pool A" to "Pool Z").
NUMBERED_ROUNDS = (
    (re.compile(r"^Losers round (?P<number>\d+)$"), gettext_lazy("Losers round %(number)s")),
    (re.compile(r"^Winners round (?P<number>\d+)$"), gettext_lazy("Winners round %(number)s")),
    (re.compile(r"^Round (?P<number>\d+)$"), gettext_lazy("Round %(number)s")),
    (re.compile(r"^Pool (?P<letter>[A-Z])$"), gettext_lazy("Pool %(letter)s")),
)


def round_words(text: str) -> str:
    """``text`` (a round's or a pool's name, or a word of the bracket) in the page's
    language; any other text as it is.

    >>> round_words("Losers round 2"), round_words("Pool A"), round_words("Legion Cup")
    ('Losers round 2', 'Pool A', 'Legion Cup')
    """
    word = ROUND_WORDS.get(text)
    if word is not None:
        return str(word)
    for pattern, template in NUMBERED_ROUNDS:
        found = pattern.match(text)
        if found:
            return str(template) % found.groupdict()
    return text


def bracket_words() -> Callable[[str], str]:
    """:func:`round_words` for the many words of one bracket drawing: the fixed ones
    translated once per page."""
    words = {key: str(value) for key, value in ROUND_WORDS.items()}

    def translate(text: str) -> str:
        return words.get(text) or round_words(text)

    return translate
