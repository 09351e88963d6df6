"""The simulator: seeded, both players, whole games."""

import dataclasses
import pickle
import random

import pytest

from scoring.engine import Outcome, Ruleset, score_summary, simulate_game, simulate_hand
from scoring.engine.simulate import Player


def test_same_seed_same_hand():
    a = simulate_hand(Ruleset(), random.Random(9), 1)
    b = simulate_hand(Ruleset(), random.Random(9), 1)
    assert a == b
    assert a.log.dealer == 1


def test_greedy_player_calls_its_strongest_suit_and_makes_more_often():
    made = {"random": 0, "greedy": 0}
    player: Player
    for player in ("random", "greedy"):
        rng = random.Random(5)
        for n in range(200):
            r = simulate_hand(Ruleset(), rng, n % 4, player=player).result
            made[player] += r.outcome is Outcome.MADE
    assert made["greedy"] > made["random"]


def test_dealer_may_pass_gives_void_hands_sometimes():
    outcomes = {
        simulate_hand(Ruleset(dealer_may_pass=True), random.Random(n), 0).result.outcome
        for n in range(200)
    }
    assert Outcome.VOID in outcomes


def test_forced_seat_calls_in_simulation():
    ruleset = Ruleset(forced_at=400)
    for n in range(100):
        sim = simulate_hand(ruleset, random.Random(n), dealer=1, scores=(450, 0))
        # seat 0 (team 0, dealer's right) may not pass: someone before or at it calls
        assert sim.result.caller in (2, 3, 0)


def test_simulated_game_ends_with_a_winner():
    for seed in range(5):
        g = simulate_game(Ruleset(target=300), random.Random(seed))
        assert g.progress.over
        assert g.progress.winner in (0, 1)
        assert max(g.progress.totals) >= 300
        assert [h.result.dealer for h in g.hands][:2] == [g.first_dealer, (g.first_dealer + 1) % 4]


def test_no_trump_games():
    ruleset = Ruleset(no_trump_allowed=True)
    totals = {
        sum(simulate_hand(ruleset, random.Random(n), 0).result.card_points) for n in range(100)
    }
    assert totals == {130, 162}


@pytest.mark.parametrize("seed", range(12))
def test_simulated_values_are_the_ones_their_classes_make(seed):
    ruleset = Ruleset(dealer_may_pass=seed % 3 == 0)
    sim = simulate_hand(ruleset, random.Random(seed), seed % 4)
    scored = score_summary(ruleset, sim.summary)
    for value in (sim.record, sim.summary, sim.result, scored):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        again = type(value)(**fields)
        assert (again, hash(again), repr(again)) == (value, hash(value), repr(value))
        assert pickle.loads(pickle.dumps(value)) == value  # noqa: S301  (our own bytes)
