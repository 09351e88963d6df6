"""Seeded simulation of whole hands and games with simple players.

Players: ``"random"`` (passes or names a random suit at even odds, plays a random legal card)
and ``"greedy"`` (names its strongest suit when it is strong enough, plays its best legal card).
Both show every run they hold and call bella when they hold it.

The hand is played by one tight loop over the bit-set tables of :mod:`scoring.engine._bits`,
the same tables the friendly API uses; :func:`simulate_hand` then turns the plays into a
:class:`TrickRecord`, a :class:`HandSummary` and the :class:`HandResult`, and into a
:class:`HandLog` (every action, for replay) when that is first asked for.

>>> import random
>>> sim = simulate_hand(Ruleset(), random.Random(1), dealer=0)
>>> sum(sim.result.card_points)
162
>>> from scoring.engine.hand import replay
>>> replay(sim.log)[-1].result() == sim.result
True
>>> game = simulate_game(Ruleset(), random.Random(2))
>>> game.progress.over
True
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Literal

from scoring.engine import _bits
from scoring.engine._values import maker
from scoring.engine.cards import DECK, Card, Rank, Suit
from scoring.engine.dealing import DEALT_AT, Deal, choose_first_dealer
from scoring.engine.game import GameProgress, forced_call, game_progress
from scoring.engine.hand import (
    Action,
    AnnounceRun,
    CallBella,
    CallTrump,
    HandLog,
    Pass,
    Play,
    ShowRun,
)
from scoring.engine.record import TrickRecord
from scoring.engine.ruleset import Ruleset
from scoring.engine.runs import Run, RunKind, RunShown, runs_of_mask
from scoring.engine.scoring import HandResult, HandSummary, Outcome, settle

__all__ = ["Player", "SimulatedGame", "SimulatedHand", "simulate_game", "simulate_hand"]

Player = Literal["random", "greedy"]

_BIT = _bits.BIT
_ABOVE = _bits.ABOVE
_WIN_KEY = _bits.WIN_KEY
_POINTS = _bits.POINTS
_IDX9 = _bits.IDX9
_RUN_KEY9 = _bits.RUN_KEY9
_RUN_POINTS9 = _bits.RUN_POINTS9
#: ``_ABOVE9[r]``: the ranks (9-bit) that beat rank r in the trump suit.
_ABOVE9 = tuple(_bits.ABOVE[r] for r in range(9))
_SUITS = tuple(Suit)
#: King and queen of each trump.
_BELLA = (*((1 << (9 * s + 7)) | (1 << (9 * s + 6)) for s in range(4)), 0)
#: The made / half-bait / bait test by the fast loop's number for it.
_OUTCOMES = (Outcome.MADE, Outcome.HALF_BAIT, Outcome.BAIT)


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    """One simulated hand in every form the engine knows. Its :attr:`log` is made when first
    asked for (most callers want only the record, the summary or the result)."""

    record: TrickRecord
    summary: HandSummary
    result: HandResult
    _make_log: Callable[[], HandLog] = field(repr=False, compare=False)
    _log: list[HandLog] = field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def log(self) -> HandLog:
        """Every action of the hand, to :func:`~scoring.engine.hand.replay` it."""
        if not self._log:
            self._log.append(self._make_log())
        return self._log[0]


#: The values of a simulated hand, made from every field (see :mod:`scoring.engine._values`).
_make_record = maker(TrickRecord)
_make_summary = maker(HandSummary)
_make_result = maker(HandResult)
_make_hand = maker(SimulatedHand)  # record, summary, result, _make_log, _log (empty)


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A simulated game to the end."""

    first_dealer: int
    hands: tuple[SimulatedHand, ...]
    progress: GameProgress


def _strength(hand: int, s: int) -> int:
    """How good suit ``s`` is as trump for this hand (the greedy caller's measure)."""
    pts = _POINTS[s]
    return sum(pts[i] + 8 for i in _IDX9[s][(hand >> (9 * s)) & 511])


def play_hand(
    rnd: Callable[[], float],
    getrandbits: Callable[[int], int],
    *,
    dealer: int,
    forced_seat: int,
    dealer_may_pass: bool,
    no_trump_allowed: bool,
    greedy: bool,
    trace: list[int] | None = None,
) -> tuple[list[int], list[int], int, int, list[int], list[int]]:
    """The fast loop: deal, call and play one hand on bit-sets.

    Returns (deck order after the cut, dealt hand masks by seat, caller or -1, trump index,
    the 36 card indices in play order, card points won per team with the last trick's 10).
    Runs, bella and the made / bait test are :func:`score_fast`. With ``trace``, the legal
    set (a mask) of every play is appended to it, to compare with the friendly API.
    """
    order, hands = _deal_fast(rnd, getrandbits, dealer)
    caller, t = _call_fast(
        rnd,
        hands,
        dealer=dealer,
        forced_seat=forced_seat,
        dealer_may_pass=dealer_may_pass,
        no_trump_allowed=no_trump_allowed,
        greedy=greedy,
    )
    if caller < 0:
        return order, hands, -1, 4, [], [0, 0]
    # ---- play: each seat's cards as four 9-bit suit masks (index 4: no trump, empty)
    held = [[h & 511, (h >> 9) & 511, (h >> 18) & 511, h >> 27, 0] for h in hands]
    plays: list[int] = []
    append = plays.append
    leader = (dealer + 1) & 3
    above = _ABOVE9
    keys_of = _WIN_KEY[t * 4 : t * 4 + 4]
    pts = _POINTS[t]
    idx9 = _IDX9
    i0, i1, i2, i3 = idx9
    tidx = idx9[t] if t < 4 else idx9[0]
    slow = greedy or trace is not None
    cp = [0, 0]
    win = leader
    for _ in range(9):
        s = leader
        hs = held[s]
        if slow:
            i = _slow_pick(hs, -1, -1, t=t, greedy=greedy, trace=trace, rnd=rnd)
        else:
            cards = i0[hs[0]] + i1[hs[1]] + i2[hs[2]] + i3[hs[3]]
            i = cards[int(rnd() * len(cards))]
        append(i)
        led = i // 9
        r = i - 9 * led
        hs[led] ^= 1 << r
        keys = keys_of[led]
        best = keys[i]
        win = s
        top = r if led == t else -1  # rank (0..8) of the best trump on the trick
        total = pts[i]
        lidx = idx9[led]
        for _ in range(3):
            s = (s + 1) & 3
            hs = held[s]
            m = hs[led]
            if m:
                if led == t:
                    m = m & above[top] or m
                su = led
            else:
                m = hs[t]
                if m:
                    if top >= 0:
                        m = m & above[top] or m
                    su = t
                else:
                    su = -1
            if slow:
                i = _slow_pick(hs, su, m, t=t, greedy=greedy, trace=trace, rnd=rnd, led=led)
            elif su >= 0:
                cards = lidx[m] if su == led else tidx[m]
                i = cards[int(rnd() * len(cards))]
            else:
                cards = i0[hs[0]] + i1[hs[1]] + i2[hs[2]] + i3[hs[3]]
                i = cards[int(rnd() * len(cards))]
            append(i)
            if su < 0:
                su = i // 9
            r = i - 9 * su
            hs[su] ^= 1 << r
            total += pts[i]
            k = keys[i]
            if k > best:
                best = k
                win = s
            if su == t and (top < 0 or above[top] >> r & 1):
                top = r
        cp[win & 1] += total
        leader = win
    cp[win & 1] += 10
    return order, hands, caller, t, plays, cp


def _deal_fast(
    rnd: Callable[[], float], getrandbits: Callable[[int], int], dealer: int
) -> tuple[list[int], list[int]]:
    """Shuffle (one draw of random bits, 36! < 2**139), cut and deal in packets of three:
    (deck order after the cut, dealt hand masks by seat)."""
    bit = _BIT
    order = list(range(36))
    x = getrandbits(192)
    for n in range(35, 0, -1):
        x, j = divmod(x, n + 1)
        order[n], order[j] = order[j], order[n]
    cut = 4 + int(rnd() * 29)
    order = order[cut:] + order[:cut]
    hands = [0, 0, 0, 0]
    for p in range(12):
        b = 3 * p
        hands[(dealer + 1 + p) & 3] |= bit[order[b]] | bit[order[b + 1]] | bit[order[b + 2]]
    return order, hands


def _call_fast(
    rnd: Callable[[], float],
    hands: list[int],
    *,
    dealer: int,
    forced_seat: int,
    dealer_may_pass: bool,
    no_trump_allowed: bool,
    greedy: bool,
) -> tuple[int, int]:
    """The calling round from the dealer's left: (caller or -1, trump index)."""
    for k in range(1, 5):
        s = (dealer + k) & 3
        must = s == forced_seat or (k == 4 and not dealer_may_pass)
        if greedy:
            h = hands[s]
            best_s = max(range(4), key=lambda x, h=h: _strength(h, x))  # type: ignore[misc]
            if must or _strength(h, best_s) >= 90:
                return s, best_s
        elif must or rnd() < 0.5:
            return s, 4 if no_trump_allowed and rnd() < 0.2 else int(rnd() * 4)
    return -1, 0


def _slow_pick(
    hs: list[int],
    su: int,
    m: int,
    *,
    t: int,
    greedy: bool,
    trace: list[int] | None,
    rnd: Callable[[], float],
    led: int = -1,
) -> int:
    """A play of the traced or greedy loop; ``m`` is the legal 9-bit mask of suit ``su``, or
    any card when ``su`` is -1."""
    legal = m << (9 * su) if su >= 0 else hs[0] | hs[1] << 9 | hs[2] << 18 | hs[3] << 27
    if trace is not None:
        trace.append(legal)
    if greedy:
        return _greedy_pick(legal, led, -1, t)
    cards = _bits.indices(legal)
    return cards[int(rnd() * len(cards))]


def _greedy_pick(m: int, led: int, top: int, t: int) -> int:
    """The greedy player's card: the strongest on this trick, then the most points."""
    cards = _bits.indices(m)
    pts = _POINTS[t]
    if led < 0:
        return max(cards, key=lambda i: (_WIN_KEY[t * 4 + i // 9][i], pts[i], -i))
    keys = _WIN_KEY[t * 4 + led]
    return max(cards, key=lambda i: (keys[i], pts[i], -i))


def _runs_and_bella(
    hands: Sequence[int], t: int, *, runs_for_team: bool
) -> tuple[int, int, int, int]:
    """Who counts runs (-1 nobody), the run points of team 0 and 1, and the bella seat (-1
    none) for a fast-loop hand: every player shows all their runs; only the best run's holder
    counts (and the partner, with ``runs_for_team``), and two equal best runs cancel."""
    best_key = 0
    best_seat = -1
    tie = False
    for s in range(4):
        h = hands[s]
        for su in range(4):
            rk = _RUN_KEY9[(h >> (9 * su)) & 511]
            if rk:
                rk = rk * 2 + (su == t)
                if rk > best_key:
                    best_key, best_seat, tie = rk, s, False
                elif rk == best_key and s != best_seat:
                    tie = True
    rp = [0, 0]
    if tie:
        best_seat = -1
    elif best_seat >= 0:
        for s in (best_seat, (best_seat + 2) & 3) if runs_for_team else (best_seat,):
            h = hands[s]
            rp[s & 1] += (
                _RUN_POINTS9[h & 511]
                + _RUN_POINTS9[(h >> 9) & 511]
                + _RUN_POINTS9[(h >> 18) & 511]
                + _RUN_POINTS9[h >> 27]
            )
    bella = -1
    pair = _BELLA[t]
    if pair:
        for s in range(4):
            if hands[s] & pair == pair:
                bella = s
    return best_seat, rp[0], rp[1], bella


def _call_test(
    taken0: int, taken1: int, total: int, caller: int, *, half_bait_is_whole_bait: bool
) -> tuple[int, int, int]:
    """The made / half-bait / bait test: (points team 0, points team 1, outcome 0 made /
    1 half-bait / 2 bait)."""
    ct = caller & 1
    mine = taken1 if ct else taken0
    if 2 * mine > total:
        return taken0, taken1, 0
    if 2 * mine == total and not half_bait_is_whole_bait:
        return (0, taken1, 1) if ct == 0 else (taken0, 0, 1)
    return (0, total, 2) if ct == 0 else (total, 0, 2)


def score_fast(
    *,
    hands: list[int],
    caller: int,
    t: int,
    card_points: list[int],
    runs_for_team: bool,
    half_bait_is_whole_bait: bool,
) -> tuple[int, int, int]:
    """Runs, bella and the made / half-bait / bait test for a fast-loop hand.

    Returns (points team 0, points team 1, outcome 0 made / 1 half-bait / 2 bait).
    """
    _, r0, r1, bella = _runs_and_bella(hands, t, runs_for_team=runs_for_team)
    b0 = 20 if bella in (0, 2) else 0
    b1 = 20 if bella in (1, 3) else 0
    total = (162 if t < 4 else 130) + r0 + r1 + b0 + b1
    return _call_test(
        card_points[0] + r0 + b0,
        card_points[1] + r1 + b1,
        total,
        caller,
        half_bait_is_whole_bait=half_bait_is_whole_bait,
    )


def _actions(
    dealer: int, hands: tuple[int, ...], caller: int, t: int, plays: list[int]
) -> list[Action]:
    """The HandLog actions for a fast-loop hand (runs shown, bella called)."""
    acts: list[Action] = []
    for k in range(1, 5):
        s = (dealer + k) % 4
        if s == caller:
            acts.append(CallTrump(s, None if t == 4 else _SUITS[t]))
            break
        acts.append(Pass(s))
    if caller < 0:
        return acts
    runs = [runs_of_mask(h) for h in hands]
    pair = _BELLA[t]
    bella_seat = _bella_seat(hands, t)
    count = [0, 0, 0, 0]
    held = list(hands)
    leaders = _leaders(plays, t, (dealer + 1) % 4)
    for n, i in enumerate(plays):
        s = (leaders[n >> 2] + n) & 3
        if count[s] == 0 and runs[s]:
            acts.append(AnnounceRun(s))
        if count[s] == 1:
            acts.extend(ShowRun(s, r.cards) for r in runs[s])
        acts.append(Play(s, DECK[i]))
        held[s] ^= 1 << i
        count[s] += 1
        if s == bella_seat and pair >> i & 1 and not held[s] & pair:
            acts.append(CallBella(s))
    return acts


def _hand_log(  # noqa: PLR0917  (bound by partial for every hand: positional is cheaper)
    ruleset: Ruleset,
    dealer: int,
    dealt: tuple[tuple[Card, ...], ...],
    hands: tuple[int, ...],
    caller: int,
    t: int,
    plays: list[int],
    scores: tuple[int, int],
) -> HandLog:
    actions = _actions(dealer, hands, caller, t, plays)
    return HandLog(ruleset, dealer, Deal(dealt), tuple(actions), scores)


def _bella_seat(hands: Sequence[int], t: int) -> int | None:
    """The seat dealt the king and queen of trump, if one was."""
    pair = _BELLA[t]
    if pair:
        for s in range(4):
            if hands[s] & pair == pair:
                return s
    return None


#: ``_RUN_SHOWN[seat][suit][length == 4][top]``: that run shown by that seat (top 0..8).
_RUN_SHOWN: tuple[tuple[tuple[dict[int, RunShown], ...], ...], ...] = tuple(
    tuple(
        tuple(
            {
                top: RunShown(seat, kind, _SUITS[su], Rank(top + 6))
                for top in range(kind.length - 1, 9)
            }
            for kind in (RunKind.TWENTY, RunKind.FIFTY)
        )
        for su in range(4)
    )
    for seat in range(4)
)
#: ``_SHOWN9[seat][suit][m]``: the runs ``seat`` shows holding the 9-bit mask ``m`` of
#: ``suit`` (made once here rather than checked again for every hand).
_SHOWN9: tuple[tuple[tuple[tuple[RunShown, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(by_suit[n == 4][top] for n, top in _bits.RUNS9[m]) for m in range(512))
        for by_suit in by_seat
    )
    for by_seat in _RUN_SHOWN
)


def _shown_rank(r: RunShown) -> tuple[int, int]:
    return (r.kind.length, int(r.top))


def _shown(hands: Sequence[int], t: int, plays: list[int], leader: int) -> tuple[RunShown, ...]:
    """Every run, shown at each player's second card: in the second trick's order, which
    starts with the winner of the first (``leader`` led it); each player's best first."""
    a, b, c, d = plays[0], plays[1], plays[2], plays[3]
    keys = _WIN_KEY[t * 4 + a // 9]
    pos, best = 0, keys[a]
    if keys[b] > best:
        pos, best = 1, keys[b]
    if keys[c] > best:
        pos, best = 2, keys[c]
    if keys[d] > best:
        pos = 3
    second = leader + pos
    shown: list[RunShown] = []
    for s in (second & 3, (second + 1) & 3, (second + 2) & 3, (second + 3) & 3):
        h = hands[s]
        if not (
            _RUN_KEY9[h & 511]
            | _RUN_KEY9[(h >> 9) & 511]
            | _RUN_KEY9[(h >> 18) & 511]
            | _RUN_KEY9[h >> 27]
        ):
            continue  # no run to show
        t0, t1, t2, t3 = _SHOWN9[s]
        mine = t0[h & 511] + t1[(h >> 9) & 511] + t2[(h >> 18) & 511] + t3[h >> 27]
        if len(mine) > 1:
            mine = tuple(sorted(mine, key=_shown_rank, reverse=True))
        shown += mine
    return tuple(shown)


def _leaders(plays: list[int], t: int, leader: int) -> list[int]:
    """The leader of each trick of a fast-loop hand."""
    out = [leader]
    for k in range(0, len(plays) - 4, 4):
        keys = _WIN_KEY[t * 4 + plays[k] // 9]
        pos = max(range(4), key=lambda p, k=k, keys=keys: keys[plays[k + p]])  # type: ignore[misc]
        leader = (leader + pos) & 3
        out.append(leader)
    return out


def _result(
    ruleset: Ruleset,
    *,
    dealer: int,
    scored: tuple[int, int, int, int],
    caller: int,
    t: int,
    card_points: tuple[int, int],
    shown: tuple[RunShown, ...],
) -> HandResult:
    """The :class:`HandResult` of a played fast-loop hand, from what the loop knows (the same
    result :func:`~scoring.engine.scoring.settle` gives from the shown runs and the bella):
    ``scored`` is :func:`_runs_and_bella` of the dealt hands."""
    run_seat, r0, r1, bella = scored
    b0 = 20 if bella in (0, 2) else 0
    b1 = 20 if bella in (1, 3) else 0
    total = (162 if t < 4 else 130) + r0 + r1 + b0 + b1
    taken = (card_points[0] + r0 + b0, card_points[1] + r1 + b1)
    p0, p1, test = _call_test(
        taken[0], taken[1], total, caller, half_bait_is_whole_bait=ruleset.half_bait_is_whole_bait
    )
    counted: tuple[Run, ...] = ()
    if run_seat >= 0:
        seats = (run_seat, run_seat ^ 2) if ruleset.runs_count_for_team else (run_seat,)
        runs: list[Run] = []
        for r in shown:  # a loop: a comprehension's own function costs more than it
            if r.seat in seats:
                runs.append(r.run)  # noqa: PERF401
        counted = tuple(runs)
    return _make_result(
        _OUTCOMES[test],
        dealer,
        caller,
        caller & 1,
        None if t == 4 else _SUITS[t],
        card_points,
        (r0, r1),
        (b0, b1),
        taken,
        total,
        (p0, p1),
        None if run_seat < 0 else run_seat,
        counted,
        None if bella < 0 else bella,
        None,  # misplay_by
        None,  # misplay_accused
        None,  # thrown_in_by
        _OUTCOMES[test],  # call_outcome
    )


def simulate_hand(
    ruleset: Ruleset,
    rng: _random.Random,
    dealer: int,
    scores: tuple[int, int] = (0, 0),
    player: Player = "random",
) -> SimulatedHand:
    """Deal, call, play and score one hand with the given simple player at every seat.

    >>> sim = simulate_hand(Ruleset(), _random.Random(3), dealer=2, player="greedy")
    >>> sim.log.dealer, sum(sim.result.card_points)
    (2, 162)
    """
    if player not in ("random", "greedy"):
        raise ValueError(f'player must be "random" or "greedy", not {player!r}')
    forced, _ = forced_call(ruleset, dealer, scores)
    order, hands, caller, t, plays, card_pts = play_hand(
        rng.random,
        rng.getrandbits,
        dealer=dealer,
        forced_seat=-1 if forced is None else forced,
        dealer_may_pass=ruleset.dealer_may_pass,
        no_trump_allowed=ruleset.no_trump_allowed,
        greedy=player == "greedy",
    )
    # The cards of a list of indices by one itemgetter: one C call, not one a card.
    deck = itemgetter(*order)(DECK)
    g0, g1, g2, g3 = DEALT_AT[dealer]  # each seat's nine cards, read by one itemgetter
    dealt = (g0(deck), g1(deck), g2(deck), g3(deck))
    masks = tuple(hands)
    # ruleset, dealer, dealt, hands, caller, t, plays, scores
    log = partial(_hand_log, ruleset, dealer, dealt, masks, caller, t, plays, scores)
    trump = None if t == 4 else _SUITS[t]
    if caller < 0:
        record = TrickRecord(dealer=dealer, caller=None, trump=None, tricks=(), hands=dealt)
        result = settle(ruleset, dealer=dealer, caller=None, trump=None, card_points=(0, 0))
        summary = HandSummary(dealer=dealer, caller=None, trump=None, card_points=None)
        return _make_hand(record, summary, result, log, [])
    shown = _shown(masks, t, plays, (dealer + 1) % 4)
    played = iter(itemgetter(*plays)(DECK))
    scored = _runs_and_bella(masks, t, runs_for_team=ruleset.runs_count_for_team)
    bella_seat = None if scored[3] < 0 else scored[3]
    # dealer, caller, trump, tricks, hands, runs, bella_seat, thrown_in_by, leaders
    record = _make_record(
        dealer,
        caller,
        trump,
        tuple(zip(played, played, played, played, strict=True)),
        dealt,
        shown,
        bella_seat,
        None,
        None,
    )
    c0, c1 = card_pts
    result = _result(
        ruleset, dealer=dealer, scored=scored, caller=caller, t=t, card_points=(c0, c1), shown=shown
    )
    # dealer, caller, trump, card_points, runs, run_points, bella_seat, misplay, thrown_in_by,
    # run_counts
    summary = _make_summary(
        dealer, caller, trump, (c0, c1), shown, None, bella_seat, None, None, None
    )
    return _make_hand(record, summary, result, log, [])


def simulate_game(
    ruleset: Ruleset, rng: _random.Random, player: Player = "random", max_hands: int = 500
) -> SimulatedGame:
    """Play hands until the game is over (or ``max_hands``, a guard against endless voids).

    >>> g = simulate_game(Ruleset(target=200), _random.Random(4))
    >>> g.progress.over, g.progress.winner in (0, 1)
    (True, True)
    """
    first = choose_first_dealer(ruleset, rng)
    hands: list[SimulatedHand] = []
    progress = game_progress(ruleset, first.dealer, [])
    while not progress.over and len(hands) < max_hands:
        sim = simulate_hand(ruleset, rng, progress.next_dealer, progress.totals, player)
        hands.append(sim)
        progress = game_progress(ruleset, first.dealer, [h.result for h in hands])
    return SimulatedGame(first.dealer, tuple(hands), progress)
