"""Computer players: choose an action for a seat from what that seat may see.

A computer player calls its strongest suit when it is strong enough (the dealer when stuck,
the forced seat when forced), announces and shows every run it holds, calls bella, and plays
only legal cards: the cheapest card that takes the trick when it plays last, the strongest
when others follow, a point card on a trick its partner holds, else its poorest card. Its
call reads only the cards it can see (never its face-down kitty).

>>> from scoring.engine import HandState, Ruleset, deal, shuffled_deck
>>> state = HandState.start(Ruleset(), dealer=0, deal=deal(shuffled_deck(11), 0))
>>> choose(state, 1) in state.legal_actions(1)
True
>>> choose(state, 2) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine import (
    DECK,
    Action,
    AnnounceRun,
    CallBella,
    CallTrump,
    Card,
    HandState,
    Pass,
    Play,
    ShowRun,
    Suit,
    card_points,
    trick_winner,
)

#: How strong (see :func:`suit_strength`) a suit must be for a computer player to call it.
CALL_AT = 62


def suit_strength(cards: Sequence[Card], suit: Suit) -> int:
    """A suit's worth as trump for these cards: its trump points and 8 a card."""
    return sum(card_points(c, suit) + 8 for c in cards if c.suit is suit)


def _power(card: Card, trump: Suit | None, led: Suit | None) -> tuple[int, int, int, int]:
    return (
        int(trump is not None and card.suit is trump),
        int(led is not None and card.suit is led),
        card_points(card, trump),
        int(card.rank),
    )


def urgent(state: HandState, seat: int) -> Action | None:
    """A declaration that must be made now or never: bella right after the card."""
    bella = CallBella(seat)
    return bella if state.why_illegal(bella) is None else None


def choose(state: HandState, seat: int) -> Action | None:
    """The computer player's action for ``seat`` now (None: nothing to do)."""
    found = urgent(state, seat)
    if found is not None:
        return found
    if state.to_act != seat:
        return None
    if state.phase == "calling":
        return _call(state, seat)
    announce = AnnounceRun(seat)
    if state.played_count(seat) == 0 and state.why_illegal(announce) is None:
        return announce
    if state.played_count(seat) == 1:
        for action in state.legal_actions(seat):
            if isinstance(action, ShowRun):
                return action
    return Play(seat, _card(state, seat))


def _call(state: HandState, seat: int) -> Action:
    view = state.view_for(seat)
    strengths = {s: suit_strength(view.hand, s) for s in Suit}
    best = max(Suit, key=lambda s: (strengths[s], s.value))
    if strengths[best] >= CALL_AT or state.why_illegal(Pass(seat)) is not None:
        return CallTrump(seat, best)
    return Pass(seat)


def _card(state: HandState, seat: int) -> Card:
    legal = state.legal_plays()
    trump = state.trump
    current = [DECK[i] for i in state.current]
    led = current[0].suit if current else None
    if not current:
        return max(legal, key=lambda c: _power(c, trump, c.suit))
    winning = trick_winner(current, trump, leader=state.leader)
    last = len(current) == 3
    if winning == (seat + 2) % 4:
        pick = max if last else min
        return pick(legal, key=lambda c: (card_points(c, trump), -_power(c, trump, led)[0]))
    takers = [c for c in legal if trick_winner([*current, c], trump, leader=state.leader) == seat]
    if takers:
        pick = min if last else max
        return pick(takers, key=lambda c: _power(c, trump, led))
    return min(legal, key=lambda c: (card_points(c, trump), _power(c, trump, led)))
