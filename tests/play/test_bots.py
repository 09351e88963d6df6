"""Computer players: only legal actions, and at least as strong as the simulator's greedy
player (duplicate deals: each deal played twice, the two teams swapping players)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from play import bots
from scoring.engine import (
    Action,
    CallTrump,
    HandState,
    Pass,
    Play,
    Ruleset,
    Suit,
    deal,
    shuffled_deck,
)


def _greedy(state: HandState, seat: int) -> Action | None:
    """The simulator's greedy player: calls its strongest suit (reading all nine cards) at
    90, plays its strongest card on the trick, then the most points."""
    urgent = bots.urgent(state, seat)
    if urgent is not None:
        return urgent
    if state.to_act != seat:
        return None
    if state.phase == "calling":
        cards = state.deal.hands[seat]
        best = max(Suit, key=lambda s: bots.suit_strength(cards, s))
        if bots.suit_strength(cards, best) >= 90 or state.why_illegal(Pass(seat)) is not None:
            return CallTrump(seat, best)
        return Pass(seat)
    for action in state.legal_actions(seat):
        if not isinstance(action, Play | CallTrump):
            return action
    led = None
    if state.current:
        from scoring.engine import DECK

        led = DECK[state.current[0]].suit
    return Play(
        seat,
        max(
            state.legal_plays(),
            key=lambda c: bots._power(c, state.trump, led if led is not None else c.suit),
        ),
    )


def _play(
    state: HandState, players: Mapping[int, Callable[[HandState, int], Action | None]]
) -> HandState:
    while not state.done or any(bots.urgent(state, s) for s in range(4)):
        moved = False
        for seat in [*range(4)]:
            chooser = players[seat]
            action = chooser(state, seat)
            if action is not None:
                assert action in state.legal_actions(seat)
                state = state.apply(action)
                moved = True
                break
        if not moved:
            break
    return state


def test_computer_players_beat_greedy_players_over_duplicate_deals() -> None:
    rules = Ruleset()
    mine = theirs = 0
    for n in range(60):
        dealer = n % 4
        dealt = deal(shuffled_deck(random.Random(n)), dealer)
        for bot_team in (0, 1):
            players = {s: bots.choose if s % 2 == bot_team else _greedy for s in range(4)}
            state = _play(HandState.start(rules, dealer, dealt), players)
            points = state.result().points
            mine += points[bot_team]
            theirs += points[1 - bot_team]
    assert mine >= theirs, (mine, theirs)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), dealer=st.integers(0, 3), may_pass=st.booleans())
def test_computer_players_only_ever_take_legal_actions(
    seed: int, dealer: int, may_pass: bool
) -> None:
    rules = Ruleset(dealer_may_pass=may_pass, forced_at=300)
    state = HandState.start(rules, dealer, deal(shuffled_deck(seed), dealer), (310, 120))
    state = _play(state, dict.fromkeys(range(4), bots.choose))
    assert state.done
    assert sum(state.result().card_points) in (0, 162)
