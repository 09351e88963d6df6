"""The ruleset value, presets and its JSON form."""

import pytest

from scoring.engine import PRESET_NAMES, PRESETS, Ruleset, RulesetError, preset

SWITCHES = {
    "dealer_may_pass": False,
    "forced_at": None,
    "runs_count_for_team": False,
    "bella_on_first": False,
    "half_bait_is_whole_bait": False,
    "no_trump_allowed": False,
    "target": 500,
    "both_over": "higher",
    "first_dealer": "flip_for_jacks",
    "pass_reveals_kitty": False,
}


def test_defaults_are_every_switch_of_rules_md():
    assert Ruleset().to_json() == SWITCHES


def test_presets():
    assert preset("cape-breton-standard") == Ruleset()
    kitchen = preset("kitchen-table")
    assert kitchen.half_bait_is_whole_bait
    assert kitchen.dealer_may_pass
    assert set(PRESETS) == set(PRESET_NAMES)
    assert PRESET_NAMES["cape-breton-standard"] == "Cape Breton standard"
    with pytest.raises(RulesetError) as info:
        preset("nope")
    assert info.value.code == "unknown_preset"


@pytest.mark.parametrize("slug", list(PRESETS))
def test_json_round_trip(slug):
    r = PRESETS[slug]
    assert Ruleset.from_json(r.to_json()) == r


def test_missing_keys_take_defaults():
    assert Ruleset.from_json({"target": 1000}) == Ruleset(target=1000)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"dealer_may_pas": True}, "dealer_may_pas"),
        ({"dealer_may_pass": "yes"}, "dealer_may_pass"),
        ({"target": 0}, "target"),
        ({"target": "500"}, "target"),
        ({"target": True}, "target"),
        ({"forced_at": -1}, "forced_at"),
        ({"forced_at": 4.5}, "forced_at"),
        ({"both_over": "lower"}, "both_over"),
        ({"first_dealer": "coin"}, "first_dealer"),
        ({"pass_reveals_kitty": 1}, "pass_reveals_kitty"),
    ],
)
def test_bad_json_names_the_key(data, field):
    with pytest.raises(RulesetError) as info:
        Ruleset.from_json(data)
    assert info.value.field == field
    assert field in str(info.value)


def test_not_an_object():
    with pytest.raises(RulesetError):
        Ruleset.from_json([])  # type: ignore[arg-type]


def test_immutable_and_replace():
    r = Ruleset()
    with pytest.raises(AttributeError):
        r.target = 1  # type: ignore[misc]
    assert r.replace(target=1000).target == 1000
    with pytest.raises(RulesetError):
        r.replace(both_over="x")


def test_describe_has_every_switch_in_plain_words():
    labels = dict(Ruleset(forced_at=400, both_over="caller").describe())
    assert len(labels) == len(SWITCHES)
    assert "400" in labels["Forced to call"]
    assert "calling team" in labels["Both teams over"]
    assert labels["Game"] == "500 points"
    for value in labels.values():
        assert value
        assert "_" not in value


def test_describe_changes_with_every_switch():
    plain = dict(Ruleset().describe())
    for name, value in SWITCHES.items():
        changed: object
        if isinstance(value, bool):
            changed = not value
        elif name == "forced_at":
            changed = 400
        elif name == "target":
            changed = 1000
        elif name == "both_over":
            changed = "caller"
        else:
            changed = "high_card"
        words = dict(Ruleset.from_json({name: changed}).describe())
        differ = [label for label in plain if plain[label] != words[label]]
        assert len(differ) == 1, name
    assert dict(Ruleset().describe())["Forced to call"] == "No: nobody is forced to name trump"
    assert "130" in dict(Ruleset(no_trump_allowed=True).describe())["No trump allowed"]
