"""Single and double elimination: exact counts, byes, resolution, placements, documents."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.bracket import (
    Bracket,
    BracketMatch,
    SlotSource,
    bracket_document,
    change_result,
    dependents,
    resolve,
)
from tournaments.algorithms.common import AlgorithmError, EntryId, entry_sort_key
from tournaments.algorithms.elimination import (
    double_elimination,
    final_placements,
    single_elimination,
)

TEAMS16 = [f"team-{seed}" for seed in range(1, 17)]


def play_out(bracket: Bracket, choose: "random.Random") -> dict[str, int]:
    """Enter a random result for every ready match until nothing is left to play."""
    results: dict[str, int] = {}
    while True:
        ready = resolve(bracket, results).with_status("ready")
        if not ready:
            return results
        results[choose.choice(ready)] = choose.randrange(2)


def test_single_elimination_sixteen_is_fifteen_matches_in_four_rounds() -> None:
    bracket = single_elimination(TEAMS16)
    assert len(bracket.matches) == 15
    assert bracket.round_count() == 4
    first = [tuple(s.seed for s in m.slots) for m in bracket.matches if m.round == 1]
    assert first[:2] == [(1, 16), (8, 9)]
    assert all(a + b == 17 for a, b in first)  # type: ignore[operator]


def test_single_elimination_eight_with_third_place_is_eight_matches() -> None:
    bracket = single_elimination(TEAMS16[:8], third_place=True)
    assert len(bracket.matches) == 8
    third = bracket.match("3P")
    assert [s.label() for s in third.slots] == ["Loser W2-1", "Loser W2-2"]


def test_double_elimination_sixteen_single_final_is_thirty_matches_in_eleven_rounds() -> None:
    bracket = double_elimination(TEAMS16, grand_final="single")
    assert len(bracket.matches) == 30
    assert bracket.round_count() == 11
    assert Counter(m.side for m in bracket.matches) == {"winners": 15, "losers": 14, "final": 1}


def test_double_elimination_eight_with_reset_is_at_most_fifteen_matches() -> None:
    bracket = double_elimination(TEAMS16[:8], grand_final="reset")
    assert len(bracket.matches) == 15
    # The losers-bracket champion wins the first grand final: the reset is played (15).
    results = {m.key: 0 for m in bracket.matches if m.side != "final"}
    state = resolve(bracket, {**results, "GF1": 1})
    assert state.matches["GF2"].status == "ready"
    state = resolve(bracket, {**results, "GF1": 1, "GF2": 0})
    assert state.finished
    assert sum(m.status == "decided" for m in state.matches.values()) == 15
    # The winners-bracket champion wins it: no reset, 14 matches played.
    state = resolve(bracket, {**results, "GF1": 0})
    assert state.matches["GF2"].status == "void"
    assert state.finished
    assert state.champion == "team-1"
    assert sum(m.status == "decided" for m in state.matches.values()) == 14


def test_grand_final_none_crowns_the_winners_bracket_champion() -> None:
    bracket = double_elimination(TEAMS16[:4], grand_final="none")
    assert [m.key for m in bracket.matches] == ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1"]
    results = {"W1-1": 0, "W1-2": 0, "W2-1": 1, "L1-1": 0, "L2-1": 1}
    state = resolve(bracket, results)
    assert state.champion == "team-2"
    places = [(p.entry, p.place) for p in final_placements(bracket, state)]
    assert places == [("team-2", 1), ("team-1", 2), ("team-4", 3), ("team-3", 4)]


def test_byes_go_to_the_top_seeds_and_advance_on_their_own() -> None:
    bracket = single_elimination(TEAMS16[:5])
    state = resolve(bracket, {})
    voids = state.with_status("void")
    assert voids == ("W1-1", "W1-3", "W1-4")
    assert state.with_status("ready") == ("W1-2", "W2-2")
    assert state.matches["W2-2"].entries == ("team-2", "team-3")
    assert state.matches["W2-2"].status == "ready"
    with pytest.raises(AlgorithmError) as caught:
        resolve(bracket, {"W1-1": 0})
    assert (caught.value.field, caught.value.code) == ("results.W1-1", "void_match")


def test_byes_cascade_through_the_losers_bracket() -> None:
    bracket = double_elimination(TEAMS16[:5], grand_final="single")
    state = resolve(bracket, {"W1-2": 0})
    assert state.matches["L1-1"].status == "void"
    assert state.matches["L1-1"].winner == "team-5"
    assert state.matches["L1-2"].status == "void"
    assert state.matches["L1-2"].winner is None


def test_resolve_rejects_bad_results() -> None:
    bracket = single_elimination(TEAMS16[:8])
    for results, code in [
        ({"W9-9": 0}, "unknown_match"),
        ({"W1-1": 2}, "invalid_slot"),
        ({"W2-1": 0}, "not_ready"),
    ]:
        with pytest.raises(AlgorithmError) as caught:
            resolve(bracket, results)
        assert caught.value.code == code
    reset = double_elimination(TEAMS16[:2])
    with pytest.raises(AlgorithmError) as caught:
        resolve(reset, {"W1-1": 0, "GF2": 0})
    assert caught.value.code == "not_ready"


def test_dependents_reach_every_downstream_match() -> None:
    bracket = double_elimination(TEAMS16[:8])
    assert dependents(bracket, "W1-1") == (
        "W2-1",
        "W3-1",
        "L1-1",
        "L2-1",
        "L2-2",
        "L3-1",
        "L4-1",
        "GF1",
        "GF2",
    )
    assert dependents(bracket, "GF1") == ("GF2",)
    assert dependents(bracket, "GF2") == ()
    with pytest.raises(AlgorithmError):
        dependents(bracket, "nope")


def test_losers_drop_to_the_far_side_of_the_losers_bracket() -> None:
    bracket = double_elimination(list(range(1, 17)))
    drops = {m.key: m.slots[1].match for m in bracket.matches if m.key.startswith("L2-")}
    assert drops == {"L2-1": "W2-4", "L2-2": "W2-3", "L2-3": "W2-2", "L2-4": "W2-1"}
    assert bracket.match("L6-1").slots[1].match == "W4-1"


@settings(deadline=None, max_examples=30)
@given(st.sampled_from([8, 16, 32]), st.randoms(use_true_random=False))
def test_first_drop_round_never_pairs_a_rematch(size: int, rng: random.Random) -> None:
    bracket = double_elimination(list(range(1, size + 1)))
    results = play_out(bracket, rng)
    state = resolve(bracket, results)
    met: set[frozenset[EntryId | None]] = set()
    for match in bracket.matches:
        ms = state.matches[match.key]
        if match.side == "losers" and match.round == 2:
            assert frozenset(ms.entries) not in met
        met.add(frozenset(ms.entries))


@settings(deadline=None, max_examples=80)
@given(
    st.integers(min_value=2, max_value=40),
    st.sampled_from(["single", "double-reset", "double-single", "double-none"]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_any_sequence_of_results_ends_with_one_champion(
    n: int, kind: str, third_place: bool, rng: random.Random
) -> None:
    entries = [f"e{i}" for i in range(n)]
    if kind == "single":
        bracket = single_elimination(entries, third_place=third_place and n >= 3)
    else:
        bracket = double_elimination(entries, grand_final=kind.split("-")[1])  # type: ignore[arg-type]
    results = play_out(bracket, rng)
    state = resolve(bracket, results)
    assert state.finished
    assert state.champion in entries
    assert not state.with_status("pending")
    losses = Counter(m.loser for m in state.matches.values() if m.status == "decided")
    if kind == "single":
        assert losses[state.champion] == 0
        assert all(losses[e] >= 1 for e in entries if e != state.champion)
        assert all(count <= 1 + third_place for count in losses.values())
    else:
        assert losses[state.champion] <= 1
        assert all(count <= 2 for count in losses.values())
        # Everyone but the champion and the runner-up is out with exactly two losses (the
        # runner-up too when a grand-final reset was played).
        assert 1 <= sum(losses[e] < 2 for e in entries) <= 2
    places = final_placements(bracket, state)
    assert sorted(p.entry for p in places) == sorted(entries)
    assert [p.entry for p in places if p.place == 1] == [state.champion]
    assert [p.place for p in places] == sorted(p.place for p in places)
    assert sum(p.place == 2 for p in places) == 1
    # Changing any decided result re-opens exactly its dependents, never anything upstream.
    decided = [k for k, m in state.matches.items() if m.status == "decided"]
    key = rng.choice(decided)
    reopened = set(dependents(bracket, key))
    kept = {k: v for k, v in results.items() if k not in reopened}
    kept[key] = 1 - results[key]
    after = resolve(bracket, kept)
    for other in state.matches:
        if other not in reopened and other != key:
            assert after.matches[other].entries == state.matches[other].entries


def test_single_elimination_placements_share_places_by_round() -> None:
    bracket = single_elimination(TEAMS16[:8])
    results = {m.key: 0 for m in bracket.matches}
    places = {p.entry: p.place for p in final_placements(bracket, results)}
    assert places == {
        "team-1": 1,
        "team-2": 2,
        "team-3": 3,
        "team-4": 3,
        "team-5": 5,
        "team-6": 5,
        "team-7": 5,
        "team-8": 5,
    }
    with_third = single_elimination(TEAMS16[:8], third_place=True)
    results = {m.key: 0 for m in with_third.matches}  # 3P: team-4 (slot 0) beats team-3
    places = {p.entry: p.place for p in final_placements(with_third, results)}
    assert (places["team-3"], places["team-4"]) == (4, 3)
    with pytest.raises(AlgorithmError) as caught:
        final_placements(with_third, {})
    assert caught.value.code == "unfinished"


def test_double_elimination_placements() -> None:
    bracket = double_elimination(TEAMS16[:8], grand_final="single")
    results = {m.key: 0 for m in bracket.matches}
    places = {p.entry: p.place for p in final_placements(bracket, results)}
    assert places["team-1"] == 1
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 5, 7, 7]


def test_bracket_document_is_plain_json_a_client_can_draw() -> None:
    bracket = double_elimination(TEAMS16[:6])
    document = bracket_document(bracket, {"W1-2": 1})
    assert json.loads(json.dumps(document)) == document
    assert document["match_count"] == 15
    sides = document["sides"]
    assert isinstance(sides, list)
    assert [side["side"] for side in sides] == ["winners", "losers", "final"]
    first = sides[0]["rounds"][0]
    assert first["name"] == "Winners quarter-finals"
    w12 = first["matches"][1]
    assert w12["key"] == "W1-2"
    assert w12["status"] == "decided"
    assert w12["winner"] == "team-5"
    assert [slot["label"] for slot in w12["slots"]] == ["Seed 4", "Seed 5"]
    assert {"outcome": "loser", "match": "L1-1", "slot": 1} in w12["feeds"]
    w11 = first["matches"][0]
    assert w11["status"] == "void"
    assert w11["slots"][1]["source"] == {"kind": "bye", "seed": None, "match": None}
    assert document["champion"] is None
    assert document["finished"] is False


def test_bracket_document_names_single_elimination_rounds() -> None:
    document = bracket_document(single_elimination(TEAMS16, third_place=True))
    names = [r["name"] for side in document["sides"] for r in side["rounds"]]
    assert names == ["Round 1", "Quarter-finals", "Semi-finals", "Final", "Third place"]


def test_builders_reject_bad_input() -> None:
    with pytest.raises(AlgorithmError) as caught:
        single_elimination(["a"])
    assert caught.value.field == "entries"
    with pytest.raises(AlgorithmError) as caught:
        single_elimination(["a", "a", "b"])
    assert caught.value.code == "duplicate"
    with pytest.raises(AlgorithmError) as caught:
        single_elimination(["a", "b"], third_place=True)
    assert caught.value.field == "third_place"
    with pytest.raises(AlgorithmError) as caught:
        double_elimination(["a", "b"], grand_final="twice")  # type: ignore[arg-type]
    assert caught.value.field == "grand_final"


def test_changing_a_result_is_refused_while_later_matches_stand_unless_reset() -> None:
    bracket = double_elimination(TEAMS16[:4], grand_final="single")
    results = {"W1-1": 0, "W1-2": 0, "W2-1": 0, "L1-1": 0}
    with pytest.raises(AlgorithmError) as caught:
        change_result(bracket, results, "W1-1", 1)
    assert caught.value.code == "played_after"
    assert "W2-1, L1-1" in caught.value.message
    changed = change_result(bracket, results, "W1-1", 1, reset_later=True)
    assert changed == {"W1-1": 1, "W1-2": 0}
    assert resolve(bracket, changed).matches["W2-1"].entries == ("team-4", "team-2")
    # Same outcome again, a brand-new result, or clearing a last result: nothing to reset.
    assert change_result(bracket, results, "W1-1", 0) == results
    assert change_result(bracket, results, "L2-1", 1) == {**results, "L2-1": 1}
    assert change_result(bracket, results, "L1-1", None) == {
        "W1-1": 0,
        "W1-2": 0,
        "W2-1": 0,
    }
    with pytest.raises(AlgorithmError) as caught:
        change_result(bracket, results, "GF1", 0)
    assert caught.value.code == "not_ready"


def test_bracket_document_can_carry_display_names() -> None:
    bracket = single_elimination([1, 2, 3])
    document = bracket_document(bracket, {"W1-2": 0}, names={1: "Ace", 2: "King"})
    assert document["entries"][0] == {"seed": 1, "entry": 1, "name": "Ace"}
    final = document["sides"][0]["rounds"][1]["matches"][0]
    assert [slot["name"] for slot in final["slots"]] == ["Ace", "King"]
    assert document["entries"][2]["name"] == "3"  # no name given: the id


def test_a_bracket_refuses_repeated_keys_and_matches_fed_from_later_ones() -> None:
    seed = SlotSource.of_seed
    first = BracketMatch("W1-1", "winners", 1, 1, (seed(1), seed(2)))
    with pytest.raises(AlgorithmError) as caught:
        Bracket("single_elimination", (1, 2), 2, (first, first), "W1-1")
    assert caught.value.code == "duplicate"
    later = BracketMatch("W2-1", "winners", 2, 1, (SlotSource.winner_of("W1-9"), seed(2)))
    with pytest.raises(AlgorithmError) as caught:
        Bracket("single_elimination", (1, 2), 2, (first, later), "W2-1")
    assert caught.value.code == "order"


def test_entry_ids_are_ints_or_strings_not_booleans() -> None:
    with pytest.raises(AlgorithmError) as caught:
        entry_sort_key(True)
    assert caught.value.code == "type"
