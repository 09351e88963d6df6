"""Playing cards to tricks: legal plays, why a card is illegal, who wins a trick.

* Follow the suit led. Without it, play a trump if holding one. Without both, any card.
* Whenever a trump is played (following a trump lead, or trumping in) it must beat every trump
  already on the trick if the player holds one that can; otherwise any trump of the required
  kind (a player void in the suit led holding only lower trumps must still under-trump).
* No exemption when one's partner is winning; no duty to beat a plain-suit card.

Every function here takes the cards first (the hand, the trick) and the trump after them;
seats are numbered 0 to 3.

>>> from scoring.engine.cards import parse_cards
>>> hand = parse_cards("6S 9S AH 7D")
>>> [str(c) for c in legal_plays(hand, parse_cards("KS"), Suit.SPADES)]
['9S']
>>> [str(c) for c in legal_plays(hand, parse_cards("KC"), Suit.HEARTS)]
['AH']
>>> why_illegal_play(parse_cards("6S")[0], hand, parse_cards("KS"), Suit.SPADES)
'the 6 of spades does not beat the king of spades on the trick: the 9 of spades does'
>>> trick_winner(parse_cards("KC AC 6H 10C"), Suit.HEARTS, leader=1)
3
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from scoring.engine import _bits
from scoring.engine.cards import DECK, Card, Suit

__all__ = [
    "MisplayRule",
    "broken_rule",
    "legal_plays",
    "trick_winner",
    "why_illegal_play",
]


class MisplayRule(enum.StrEnum):
    """The rule a misplay breaks."""

    FOLLOW_SUIT = "follow_suit"
    TRUMP = "trump"
    BEAT_TRUMP = "beat_trump"

    @property
    def label(self) -> str:
        return {
            MisplayRule.FOLLOW_SUIT: "did not follow suit",
            MisplayRule.TRUMP: "did not trump",
            MisplayRule.BEAT_TRUMP: "did not beat the trump on the trick",
        }[self]


def _trick_ctx(trick: Sequence[Card], t: int) -> tuple[int, int]:
    """(the suit led or -1, the index of the best trump on the trick or -1)."""
    if not trick:
        return -1, -1
    top = -1
    if t < 4:
        above = _bits.ABOVE
        for c in trick:
            i = c.index
            if i // 9 == t and (top < 0 or above[top] >> i & 1):
                top = i
    return trick[0].index // 9, top


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already on it, led first).

    >>> from scoring.engine.cards import parse_cards
    >>> [str(c) for c in legal_plays(parse_cards("7H 9H AD"), parse_cards("AS 8H"), Suit.HEARTS)]
    ['9H']
    >>> [str(c) for c in legal_plays(parse_cards("7H AD"), (), Suit.HEARTS)]  # leading
    ['7H', 'AD']
    >>> [str(c) for c in legal_plays(parse_cards("7C AD"), parse_cards("KS"), Suit.HEARTS)]
    ['7C', 'AD']
    """
    if not trick:
        return tuple(hand)  # the lead: any card
    # One look at each card, no bit-set: most plays are answered by the suit alone. Plain
    # loops rather than comprehensions: in a call this short, making a comprehension's
    # function costs more than its loop.
    led = trick[0].suit
    must: list[Card] = []
    for c in hand:
        if c.suit is led:
            must.append(c)  # noqa: PERF401 - see above
    if must:
        if led is not trump:
            return tuple(must)
        return _beating(must, trick, trump)  # trump led: beat the trumps on the trick
    if trump is None:
        return tuple(hand)
    for c in hand:
        if c.suit is trump:
            must.append(c)  # noqa: PERF401
    if not must:
        return tuple(hand)  # neither the suit led nor a trump: any card
    return _beating(must, trick, trump)


def _beating(trumps: list[Card], trick: Sequence[Card], trump: Suit | None) -> tuple[Card, ...]:
    """The ``trumps`` that beat every trump on ``trick``, or all of them when none can."""
    # The best trump on the trick, by its strength (0..8), looked for here: no call per card.
    strength = _bits.TRUMP_STRENGTH
    top = -1
    for c in trick:
        if c.suit is trump and strength[c.index] > top:
            top = strength[c.index]
    if top < 0:
        return tuple(trumps)
    beat: list[Card] = []
    for c in trumps:
        if strength[c.index] > top:
            beat.append(c)  # noqa: PERF401
    return tuple(beat or trumps)


def broken_rule(
    card: Card, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None
) -> tuple[MisplayRule | None, tuple[Card, ...]]:
    """(the rule broken by playing ``card`` from ``hand``, the cards that were required).

    ``hand`` is what the player held before playing (``card`` is added if missing).
    Returns ``(None, ())`` for a legal play.

    >>> from scoring.engine.cards import parse_card, parse_cards
    >>> rule, required = broken_rule(parse_card("AD"), parse_cards("6S AD"), parse_cards("KS"),
    ...                              Suit.HEARTS)
    >>> rule.value, [str(c) for c in required]
    ('follow_suit', ['6S'])
    """
    t = _bits.trump_index(trump)
    led, top = _trick_ctx(trick, t)
    i = card.index
    held = _bits.mask_of(hand) | _bits.BIT[i]
    rule, required = rule_of(i, held, led, top, t)
    return rule, _bits.cards_of(required)


def rule_of(i: int, held: int, led: int, top: int, t: int) -> tuple[MisplayRule | None, int]:
    """Bit-set form of :func:`broken_rule`: (rule or None, mask of required cards)."""
    legal = _bits.legal_mask(held, led, top, t)
    if legal >> i & 1:
        return None, 0
    suit = i // 9
    if held & _bits.SUIT_MASK[led]:
        if suit != led:
            return MisplayRule.FOLLOW_SUIT, legal
        return MisplayRule.BEAT_TRUMP, legal
    if suit != t:
        return MisplayRule.TRUMP, legal
    return MisplayRule.BEAT_TRUMP, legal


def _describe(rule: MisplayRule, card: Card, required: Sequence[Card], led: int, top: int) -> str:
    need = required[-1] if required else None
    suit = DECK[led * 9].suit.label if led >= 0 else ""
    if rule is MisplayRule.FOLLOW_SUIT:
        held = f"the {need.label}" if need else suit
        return f"the {card.label} does not follow suit: {suit} were led and the hand holds {held}"
    if rule is MisplayRule.TRUMP:
        trump = f"the {need.label}, a trump" if need else "a trump"
        return f"the {card.label} is not a trump: the hand holds no {suit} but {trump}"
    text = f"the {card.label} does not beat the {DECK[top].label} on the trick"
    if required:
        best = max(required, key=lambda c: _bits.TRUMP_STRENGTH[c.index])
        text += f": the {best.label} does"
    return text


def why_illegal_play(
    card: Card, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None
) -> str | None:
    """Plain words saying why playing ``card`` is against the rules, or None when legal.

    >>> from scoring.engine.cards import parse_card, parse_cards
    >>> why_illegal_play(parse_card("AD"), parse_cards("9H AD"), parse_cards("KS"), Suit.HEARTS)
    'the ace of diamonds is not a trump: the hand holds no spades but the 9 of hearts, a trump'
    """
    if card not in hand:
        return f"the {card.label} is not in the hand"
    t = _bits.trump_index(trump)
    led, top = _trick_ctx(trick, t)
    rule, required = rule_of(card.index, _bits.mask_of(hand), led, top, t)
    if rule is None:
        return None
    return _describe(rule, card, _bits.cards_of(required), led, top)


def trick_winner(trick: Sequence[Card], trump: Suit | None, *, leader: int) -> int:
    """The seat that wins ``trick`` (its cards in the order played, led by seat ``leader``):
    the highest trump, else the highest card of the suit led.

    >>> from scoring.engine.cards import parse_cards
    >>> trick_winner(parse_cards("KD AD 6C AS"), None, leader=2)
    3
    """
    if len(trick) == 4:  # a whole trick, looked at without a loop
        a, b, c, d = trick
        keys = _bits.WIN_KEY[(4 if trump is None else trump.index) * 4 + a.index // 9]
        pos, best = 0, keys[a.index]
        if keys[b.index] > best:
            pos, best = 1, keys[b.index]
        if keys[c.index] > best:
            pos, best = 2, keys[c.index]
        if keys[d.index] > best:
            pos = 3
        return (leader + pos) & 3
    pos = -1
    if trick:
        t = 4 if trump is None else trump.index
        keys = _bits.WIN_KEY[t * 4 + trick[0].index // 9]
        best = -2
        for p, c in enumerate(trick):
            k = keys[c.index]
            if k > best:
                best, pos = k, p
    return (leader + pos) % 4
