"""The ruleset: every switch of the rules as one frozen value, with named presets.

>>> Ruleset() == PRESETS["cape-breton-standard"]
True
>>> preset("kitchen-table").half_bait_is_whole_bait
True
>>> Ruleset.from_json({"target": 1000, "forced_at": 400}).to_json()["forced_at"]
400
>>> Ruleset.from_json({"traget": 1000})
Traceback (most recent call last):
...
scoring.engine.errors.RulesetError: "traget" is not a rule switch
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.engine.errors import RulesetError

__all__ = ["PRESETS", "PRESET_NAMES", "BothOver", "FirstDealerRule", "Ruleset", "preset"]


def gettext_noop(text: str) -> str:
    """The phrase as it is: the engine speaks English. The call marks it for the project's
    translation catalogue (gettext's extractor finds it by name), so the pages can say it in
    the reader's language (``scoring.views.common.ruleset_lines``)."""
    return text


BothOver = Literal["higher", "caller"]
FirstDealerRule = Literal["flip_for_jacks", "high_card"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every switch of the rules. The defaults are the Cape Breton standard game."""

    #: If all four pass the hand is void (default: the dealer is stuck and must call).
    dealer_may_pass: bool = False
    #: A team with more than this many points may not let the call reach an opposing dealer.
    forced_at: int | None = None
    #: The partner's shown runs count too when a player has the best run.
    runs_count_for_team: bool = False
    #: Bella may be called when the first of king and queen of trump is played.
    bella_on_first: bool = False
    #: Exactly half for the calling team is treated as a bait.
    half_bait_is_whole_bait: bool = False
    #: A caller may name "no trump".
    no_trump_allowed: bool = False
    #: Points that end the game.
    target: int = 500
    #: Both teams reach the target in the same hand: "higher" total wins or the "caller" team.
    both_over: BothOver = "higher"
    #: How the first dealer is chosen.
    first_dealer: FirstDealerRule = "flip_for_jacks"
    #: Online play: a player who passes sees their own kitty at once.
    pass_reveals_kitty: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: every switch by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ruleset:
        """Read a ruleset; missing switches take their default, unknown ones are an error."""
        if not isinstance(data, Mapping):
            raise RulesetError("a ruleset must be an object of switches", code="bad_ruleset")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesetError(
                    f'"{key}" is not a rule switch', code="unknown_switch", field=str(key)
                )
        return cls(**dict(data))

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some switches changed."""
        return replace(self, **changes)

    def describe(self) -> tuple[tuple[str, str], ...]:
        """Each switch as (label, plain words of its value), for people to read.

        >>> dict(Ruleset().describe())["Dealer may pass"]
        'No: the dealer is stuck and must name trump'
        """
        forced = (
            gettext_noop("No: nobody is forced to name trump")
            if self.forced_at is None
            else gettext_noop(
                "A team with more than %(points)s points may not let the call reach "
                "an opposing dealer"
            )
            % {"points": self.forced_at}
        )
        return (
            (
                gettext_noop("Dealer may pass"),
                gettext_noop("Yes: if all four pass the hand is void")
                if self.dealer_may_pass
                else gettext_noop("No: the dealer is stuck and must name trump"),
            ),
            (gettext_noop("Forced to call"), forced),
            (
                gettext_noop("Runs count for the team"),
                gettext_noop("Yes: the partner's shown runs count too")
                if self.runs_count_for_team
                else gettext_noop("No: only the player with the best run counts runs"),
            ),
            (
                gettext_noop("Bella on the first card"),
                gettext_noop(
                    "Yes: bella may be called when the first of king and queen of trump is played"
                )
                if self.bella_on_first
                else gettext_noop(
                    "No: bella is called when the second of king and queen of trump is played"
                ),
            ),
            (
                gettext_noop("Half-bait"),
                gettext_noop("Counts as a bait: the other team scores the whole hand")
                if self.half_bait_is_whole_bait
                else gettext_noop("The calling team scores 0, the other team scores its own half"),
            ),
            (
                gettext_noop("No trump allowed"),
                gettext_noop(
                    "Yes: a caller may name no trump; every suit is plain, the cards hold 130 "
                    "points and there is no bella"
                )
                if self.no_trump_allowed
                else gettext_noop("No: the caller must name a trump suit"),
            ),
            (gettext_noop("Game"), gettext_noop("%(target)s points") % {"target": self.target}),
            (
                gettext_noop("Both teams over"),
                gettext_noop("The calling team of that hand wins")
                if self.both_over == "caller"
                else gettext_noop("The higher total wins; on an exact tie another hand is played"),
            ),
            (
                gettext_noop("First dealer"),
                gettext_noop("High card: each player cuts, the highest in trump order deals")
                if self.first_dealer == "high_card"
                else gettext_noop("Flip for jacks: the first player dealt a jack deals"),
            ),
            (
                gettext_noop("Passing shows the kitty"),
                gettext_noop("Yes: a player who passes sees their own kitty at once")
                if self.pass_reveals_kitty
                else gettext_noop("No: the kitties stay face down until trump is named"),
            ),
        )


_BOOLS = {
    "dealer_may_pass",
    "runs_count_for_team",
    "bella_on_first",
    "half_bait_is_whole_bait",
    "no_trump_allowed",
    "pass_reveals_kitty",
}
_CHOICES: dict[str, tuple[str, ...]] = {
    "both_over": get_args(BothOver),
    "first_dealer": get_args(FirstDealerRule),
}


def _check(name: str, value: object) -> None:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesetError(
                f"{name} must be true or false, not {value!r}", code="bad_value", field=name
            )
    elif name in _CHOICES:
        if value not in _CHOICES[name]:
            options = " or ".join(f'"{c}"' for c in _CHOICES[name])
            raise RulesetError(
                f"{name} must be {options}, not {value!r}", code="bad_value", field=name
            )
    elif name == "target":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100_000:
            raise RulesetError(
                f"target must be a whole number of points from 1 to 100000, not {value!r}",
                code="bad_value",
                field=name,
            )
    elif (
        name == "forced_at"
        and value is not None
        and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100_000)
    ):
        raise RulesetError(
            f"forced_at must be off (null) or a whole number of points, not {value!r}",
            code="bad_value",
            field=name,
        )


PRESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        "cape-breton-standard": Ruleset(),
        "kitchen-table": Ruleset(half_bait_is_whole_bait=True, dealer_may_pass=True),
        "forced-at-400": Ruleset(forced_at=400),
        "online-family": Ruleset(both_over="caller", pass_reveals_kitty=True),
    }
)
PRESET_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "cape-breton-standard": gettext_noop("Cape Breton standard"),
        "kitchen-table": gettext_noop("Kitchen table"),
        "forced-at-400": gettext_noop("Forced at 400"),
        "online-family": gettext_noop("Online family table"),
    }
)


def preset(slug: str) -> Ruleset:
    """The preset ruleset with this slug.

    >>> preset("forced-at-400").forced_at
    400
    """
    try:
        return PRESETS[slug]
    except KeyError:
        names = ", ".join(PRESETS)
        raise RulesetError(
            f'"{slug}" is not a ruleset preset; the presets are {names}',
            code="unknown_preset",
            field="preset",
        ) from None
