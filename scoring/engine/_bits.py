"""Internal bit-set representation used by every rule of the engine.

A set of cards is an ``int`` of 36 bits; bit ``i`` stands for ``DECK[i]`` (suit index * 9 +
rank - 6). A trump is an index 0..3 (clubs, diamonds, hearts, spades) or :data:`NO_TRUMP` (4).
The tables here are computed once at import; the friendly functions of the other modules and
the fast simulation loop both read them, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.engine.cards import DECK, Card, Rank, Suit, plain_strength, trump_strength

NO_TRUMP = 4
ALL = (1 << 36) - 1

BIT: tuple[int, ...] = tuple(1 << i for i in range(36))
SUIT_OF: tuple[int, ...] = tuple(i // 9 for i in range(36))
RANK_OF: tuple[int, ...] = tuple(i % 9 for i in range(36))  # 0 = six .. 8 = ace
SUIT_MASK: tuple[int, ...] = (*(0x1FF << (9 * s) for s in range(4)), 0)
#: ``SUIT_MASK_OF[i]``: the mask of card i's suit.
SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASK[i // 9] for i in range(36))


def _points(i: int, trump: int) -> int:
    card = DECK[i]
    if i // 9 == trump:
        return {Rank.JACK: 20, Rank.NINE: 14}.get(card.rank, 0) or _plain_points(card.rank)
    return _plain_points(card.rank)


def _plain_points(rank: Rank) -> int:
    return {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}.get(rank, 0)


#: ``POINTS[trump][i]``: card points of card i (trump 4 = no trump).
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_points(i, t) for i in range(36)) for t in range(5)
)
#: Strength of card i inside its own suit when that suit is trump / when it is plain.
TRUMP_STRENGTH: tuple[int, ...] = tuple(trump_strength(c.rank) for c in DECK)
PLAIN_STRENGTH: tuple[int, ...] = tuple(plain_strength(c.rank) for c in DECK)
#: ``ABOVE[i]``: the cards of card i's suit that beat it when that suit is trump.
ABOVE: tuple[int, ...] = tuple(
    sum(1 << j for j in range(36) if j // 9 == i // 9 and TRUMP_STRENGTH[j] > TRUMP_STRENGTH[i])
    for i in range(36)
)


def _win_key(i: int, trump: int, led: int) -> int:
    if i // 9 == trump:
        return 16 + TRUMP_STRENGTH[i]
    if i // 9 == led:
        return PLAIN_STRENGTH[i]
    return -1


#: ``WIN_KEY[trump * 4 + led_suit][i]``: the higher the key, the stronger the card on the trick.
WIN_KEY: tuple[tuple[int, ...], ...] = tuple(
    tuple(_win_key(i, t, led) for i in range(36)) for t in range(5) for led in range(4)
)

#: ``IDX9[s][m]``: the card indices of the 9-bit mask m of suit s, low to high.
IDX9: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(9 * s + r for r in range(9) if m >> r & 1) for m in range(512)) for s in range(4)
)
#: ``POPCOUNT9[m]``: number of bits of a 9-bit mask.
POPCOUNT9: tuple[int, ...] = tuple(m.bit_count() for m in range(512))


def indices(mask: int) -> tuple[int, ...]:
    """The card indices of a mask, low to high."""
    return (
        IDX9[0][mask & 511]
        + IDX9[1][(mask >> 9) & 511]
        + IDX9[2][(mask >> 18) & 511]
        + IDX9[3][(mask >> 27) & 511]
    )


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in deck order."""
    return tuple(DECK[i] for i in indices(mask))


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= BIT[c.index]
    return m


def trump_index(trump: Suit | None) -> int:
    """0..3 for a suit, :data:`NO_TRUMP` for ``None``."""
    return NO_TRUMP if trump is None else trump.index


def legal_mask(hand: int, led: int, top_trump: int, trump: int) -> int:
    """The cards of ``hand`` that may be played.

    ``led`` is the suit index of the card led (-1 when leading), ``top_trump`` the index of the
    best trump already on the trick (-1 if none), ``trump`` the trump index.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        if led == trump and top_trump >= 0:
            return follow & ABOVE[top_trump] or follow
        return follow
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        if top_trump >= 0:
            return trumps & ABOVE[top_trump] or trumps
        return trumps
    return hand


def trick_state(trick: Iterable[int], trump: int) -> tuple[int, int, int, int]:
    """(led suit, best trump index or -1, position of the winning card, its key) of a trick."""
    led = -1
    top = -1
    best_pos = -1
    best_key = -2
    keys: tuple[int, ...] = ()
    for pos, i in enumerate(trick):
        if pos == 0:
            led = i // 9
            keys = WIN_KEY[trump * 4 + led]
        k = keys[i]
        if k > best_key:
            best_key = k
            best_pos = pos
        if i // 9 == trump and (top < 0 or TRUMP_STRENGTH[i] > TRUMP_STRENGTH[top]):
            top = i
    return led, top, best_pos, best_key


def _runs9(m: int) -> tuple[tuple[int, int], ...]:
    """Runs of a 9-bit suit mask: blocks of (length, top rank 0..8), best first."""
    out: list[tuple[int, int]] = []
    r = 8
    while r >= 0:
        if not m >> r & 1:
            r -= 1
            continue
        top = r
        while r >= 0 and m >> r & 1:
            r -= 1
        length = top - r
        t = top
        while length >= 4:
            out.append((4, t))
            t -= 4
            length -= 4
        if length == 3:
            out.append((3, t))
    return tuple(out)


#: ``RUNS9[m]``: the runs (length, top rank 0..8) in a 9-bit suit mask, high to low.
RUNS9: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs9(m) for m in range(512))
#: ``RUN_POINTS9[m]``: points of those runs.
RUN_POINTS9: tuple[int, ...] = tuple(
    sum(20 if n == 3 else 50 for n, _ in RUNS9[m]) for m in range(512)
)
#: ``RUN_KEY9[m]``: rank of the best run of the suit mask: length * 16 + top, 0 when none.
RUN_KEY9: tuple[int, ...] = tuple(
    max((n * 16 + t for n, t in RUNS9[m]), default=0) for m in range(512)
)


def run_key(hand: int, trump: int) -> int:
    """Rank of the best run in a hand: (length * 16 + top) * 2 + is-trump; 0 when none."""
    best = 0
    for s in range(4):
        k = RUN_KEY9[(hand >> (9 * s)) & 511]
        if k:
            k = k * 2 + (s == trump)
            best = max(best, k)
    return best


def run_points(hand: int) -> int:
    """Points of every run in a hand."""
    return (
        RUN_POINTS9[hand & 511]
        + RUN_POINTS9[(hand >> 9) & 511]
        + RUN_POINTS9[(hand >> 18) & 511]
        + RUN_POINTS9[(hand >> 27) & 511]
    )
