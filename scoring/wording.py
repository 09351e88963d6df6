"""The engine's English words for rulesets (their switches, the presets' names) said in the
request's language. The engine marks its phrases for the catalogue without translating them
(it knows no Django); these translate them where people read them."""

from django.utils.translation import gettext as _

from scoring.engine import PRESET_NAMES, Ruleset


def ruleset_lines(rules: Ruleset) -> list[tuple[str, str]]:
    """The ruleset's switches in words (the engine's ``describe``) in the request's language.
    The engine's phrases are in the catalogue as it says them; the two with a number are
    worded again here from the phrase the engine filled in."""
    lines = []
    for label, value in rules.describe():
        if label == "Game":
            said = _("%(target)s points") % {"target": rules.target}
        elif label == "Forced to call" and rules.forced_at is not None:
            said = _(
                "A team with more than %(points)s points may not let the call reach "
                "an opposing dealer"
            ) % {"points": rules.forced_at}
        else:
            said = _(value)
        lines.append((_(label), said))
    return lines


def preset_name(slug: str) -> str:
    """A preset ruleset's name in the request's language (its slug when it has none)."""
    name = PRESET_NAMES.get(slug)
    return _(name) if name else slug


def preset_choices() -> list[tuple[str, str]]:
    """Every preset ruleset as a form's choices, named in the request's language."""
    return [(slug, _(name)) for slug, name in PRESET_NAMES.items()]
