"""Player and community names as they are stored and matched: names that look alike are
one name."""

from __future__ import annotations

import re
import unicodedata

from scoring.services._common import _required_text
from tarabish_site.api.errors import ValidationFailed

_WHITESPACE = re.compile(r"\s+")


#: Invisible characters a name never needs (zero-width space, word joiner, byte order mark,
#: soft hyphen...): every format character but the zero-width (non-)joiner some scripts spell with.
_KEPT_FORMAT = frozenset("\u200c\u200d")


def name_normalised(text: str) -> str:
    """A name as it is stored and matched: composed (NFC, so "e" and a combining accent is
    "é"), invisible format characters dropped, every run of whitespace (a no-break space, a
    new line...) one space, trimmed. Names that look the same are then the same."""
    composed = unicodedata.normalize("NFC", text or "")
    visible = "".join(c for c in composed if c in _KEPT_FORMAT or unicodedata.category(c) != "Cf")
    return _WHITESPACE.sub(" ", visible).strip()


def name_refused_why(name: str) -> str:
    """Why the (normalised) ``name`` cannot be a name, in words, or "": it holds a control
    character, or nothing visible."""
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "cannot hold control characters"
    if name and all(c in _KEPT_FORMAT or unicodedata.category(c)[0] in "MZ" for c in name):
        return "needs at least one visible character"
    return ""


def _name_checked(value: str, field: str, what: str, max_length: int) -> str:
    name = name_normalised(value)
    if not name and (value or "").strip():
        message = f"{what} needs at least one visible character"
        raise ValidationFailed(message, fields={field: [message]})
    why = name_refused_why(name)
    if why:
        message = f"{what} {why}"
        raise ValidationFailed(message, fields={field: [message]})
    return _required_text(name, field, what, max_length)
