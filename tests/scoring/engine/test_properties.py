"""Property tests (hypothesis) over simulated hands, legality, misplays and JSON."""

import random
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    DECK,
    Accusation,
    CallTrump,
    Card,
    HandLog,
    HandResult,
    HandState,
    HandSummary,
    Pass,
    Play,
    Rank,
    Ruleset,
    Suit,
    ThrowIn,
    TrickRecord,
    Verdict,
    _bits,
    adjudicate,
    broken_rule,
    deal,
    find_misplays,
    legal_plays,
    replay,
    score_summary,
    score_tricks,
    shuffled_deck,
    simulate_hand,
    trick_winner,
)
from scoring.engine.cards import trump_strength
from scoring.engine.simulate import play_hand, score_fast

PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rulesets = st.builds(
    Ruleset,
    dealer_may_pass=st.booleans(),
    forced_at=st.one_of(st.none(), st.integers(0, 600)),
    runs_count_for_team=st.booleans(),
    bella_on_first=st.booleans(),
    half_bait_is_whole_bait=st.booleans(),
    no_trump_allowed=st.booleans(),
    target=st.integers(1, 2000),
    both_over=st.sampled_from(["higher", "caller"]),
    first_dealer=st.sampled_from(["flip_for_jacks", "high_card"]),
    pass_reveals_kitty=st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)
seats = st.integers(0, 3)
players = st.sampled_from(["random", "greedy"])
scores = st.tuples(st.integers(0, 700), st.integers(0, 700))
trumps = st.one_of(st.none(), st.sampled_from(list(Suit)))


def oracle_legal(hand: tuple[Card, ...], trick: tuple[Card, ...], trump: Suit | None) -> list[Card]:
    """The rules of play written out directly from RULES.md, card by card (no bit-sets)."""
    if not trick:
        return list(hand)

    def tstr(c: Card) -> int:
        return trump_strength(c.rank)

    led = trick[0].suit
    on_trick = [c for c in trick if trump is not None and c.suit is trump]
    best = max(on_trick, key=tstr) if on_trick else None
    follow = [c for c in hand if c.suit is led]
    if follow:
        if led is trump and best is not None:
            beat = [c for c in follow if tstr(c) > tstr(best)]
            return beat or follow
        return follow
    trumps_held = [c for c in hand if trump is not None and c.suit is trump]
    if trumps_held:
        if best is not None:
            beat = [c for c in trumps_held if tstr(c) > tstr(best)]
            return beat or trumps_held
        return trumps_held
    return list(hand)


@PROPS
@given(st.permutations(DECK), st.integers(1, 9), st.integers(0, 3), trumps)
def test_legal_plays_match_the_rules_written_out(deck, size, on_table, trump):
    hand = tuple(deck[:size])
    trick = tuple(deck[size : size + on_table])
    got = legal_plays(hand, trick, trump)
    assert list(got) == oracle_legal(hand, trick, trump)
    assert got  # never empty
    assert set(got) <= set(hand)  # every legal play is in hand


@PROPS
@given(rulesets, seeds, seats, scores, players)
def test_simulated_hand_totals_and_every_form_agrees(ruleset, seed, dealer, score, player):
    sim = simulate_hand(ruleset, random.Random(seed), dealer, score, player)
    r = sim.result
    if r.caller is None:
        assert ruleset.dealer_may_pass
        assert r.points == (0, 0)
        return
    assert sum(r.card_points) == (130 if r.trump is None else 162)
    states = replay(sim.log)
    assert states[-1].result() == r
    assert score_tricks(ruleset, sim.record) == r
    assert score_summary(ruleset, sim.summary) == r
    assert find_misplays(sim.record) == ()
    for state in states:
        if state.phase == "playing":
            legal = state.legal_plays()
            assert legal
            assert set(legal) <= set(state.held_cards(state.turn))


@PROPS
@given(rulesets, seeds, seats, players)
def test_fast_loop_and_friendly_api_agree(ruleset, seed, dealer, player):
    trace: list[int] = []
    rng = random.Random(seed)
    order, hands, caller, t, plays, card_pts = play_hand(
        rng.random,
        rng.getrandbits,
        dealer=dealer,
        forced_seat=-1,
        dealer_may_pass=ruleset.dealer_may_pass,
        no_trump_allowed=ruleset.no_trump_allowed,
        greedy=player == "greedy",
        trace=trace,
    )
    assume(caller >= 0)
    # the untraced loop (the one the benchmark times) makes exactly the same hand
    rng2 = random.Random(seed)
    untraced = play_hand(
        rng2.random,
        rng2.getrandbits,
        dealer=dealer,
        forced_seat=-1,
        dealer_may_pass=ruleset.dealer_may_pass,
        no_trump_allowed=ruleset.no_trump_allowed,
        greedy=player == "greedy",
    )
    assert untraced == (order, hands, caller, t, plays, card_pts)
    d = deal([DECK[i] for i in order], dealer)
    assert [_bits.mask_of(h) for h in d.hands] == hands
    state = HandState.start(ruleset, dealer, d)
    while state.to_act != caller:
        state = state.apply(Pass(state.turn))
    state = state.apply(CallTrump(caller, None if t == 4 else list(Suit)[t]))
    for n, i in enumerate(plays):
        assert state.legal_mask() == trace[n]  # same legal set
        state = state.apply(Play(state.turn, DECK[i]))
    res = state.result()
    assert res.card_points == tuple(card_pts)
    p0, p1, _ = score_fast(
        hands=hands,
        caller=caller,
        t=t,
        card_points=card_pts,
        runs_for_team=ruleset.runs_count_for_team,
        half_bait_is_whole_bait=ruleset.half_bait_is_whole_bait,
    )
    # the friendly result counts only shown runs and called bella; the fast loop assumes all
    # are shown and called, which simulate_hand's log does: compare through simulate_hand
    sim = simulate_hand(ruleset, random.Random(seed), dealer, player=player)
    assert sim.result.points == (p0, p1)
    assert sim.result.card_points == tuple(card_pts)


@PROPS
@given(seeds, seats, st.integers(0, 7), st.booleans())
def test_one_injected_illegal_play_is_found_and_proven_at_that_trick(seed, dealer, at, known):
    rng = random.Random(seed)
    base = simulate_hand(Ruleset(), rng, dealer)
    trump = base.result.trump
    hands = [list(h) for h in base.log.deal.hands]
    leader = (dealer + 1) % 4
    tricks = []
    injected = None
    for k in range(9):
        trick: list[Card] = []
        for p in range(4):
            seat = (leader + p) % 4
            legal = legal_plays(hands[seat], trick, trump)
            illegal = [c for c in hands[seat] if c not in legal]
            if injected is None and k >= at and p > 0 and illegal:
                card = rng.choice(illegal)
                rule, _ = broken_rule(card, hands[seat], trick, trump)
                injected = (seat, k, card, rule)
            else:
                card = rng.choice(legal)
            hands[seat].remove(card)
            trick.append(card)
        tricks.append(tuple(trick))
        leader = trick_winner(trick, trump, leader=leader)
    assume(injected is not None)
    assert injected is not None
    seat, k, card, rule = injected
    record = TrickRecord(
        dealer=dealer,
        caller=base.result.caller,
        trump=trump,
        tricks=tuple(tricks),
        hands=base.log.deal.hands if known else None,
    )
    found = find_misplays(record)
    assert [(v.accused, v.trick, v.offending_card, v.rule) for v in found] == [
        (seat, k, card, rule)
    ]
    v = adjudicate(record, Accusation(accused=seat, trick=k, called_by=(seat + 1) % 4))
    assert v.proven
    assert v.proof_trick is not None
    assert v.proof_trick > k
    # every other play of the record is not a provable misplay
    for other in range(4):
        for kk in range(9):
            if (other, kk) != (seat, k):
                assert not adjudicate(record, Accusation(accused=other, trick=kk)).proven


@PROPS
@given(rulesets, seeds, seats, st.integers(0, 35), st.randoms(use_true_random=False))
def test_legality_never_depends_on_cards_not_held(ruleset, seed, dealer, steps, shuffler):
    sim = simulate_hand(ruleset, random.Random(seed), dealer)
    assume(sim.result.caller is not None)
    states = [s for s in replay(sim.log) if s.phase == "playing"]
    state = states[min(steps, len(states) - 1)]
    me = state.turn
    others = [s for s in range(4) if s != me]
    pool = [i for s in others for i in _bits.indices(state.held[s])]
    shuffler.shuffle(pool)
    held = list(state.held)
    for s in others:
        n = state.held[s].bit_count()
        held[s] = sum(1 << i for i in pool[:n])
        pool = pool[n:]
    moved = replace(state, held=tuple(held))
    assert moved.legal_plays() == state.legal_plays()
    for c in DECK:
        assert (moved.why_illegal(Play(me, c)) is None) == (state.why_illegal(Play(me, c)) is None)


@PROPS
@given(rulesets)
def test_ruleset_json_round_trip(ruleset):
    assert Ruleset.from_json(ruleset.to_json()) == ruleset


@PROPS
@given(rulesets, seeds, seats, scores, players)
def test_hand_json_round_trips(ruleset, seed, dealer, score, player):
    sim = simulate_hand(ruleset, random.Random(seed), dealer, score, player)
    assert HandLog.from_json(sim.log.to_json()) == sim.log
    assert TrickRecord.from_json(sim.record.to_json()) == sim.record
    assert HandSummary.from_json(sim.summary.to_json()) == sim.summary
    assert HandResult.from_json(sim.result.to_json()) == sim.result
    if sim.result.caller is not None:
        v = adjudicate(sim.record, Accusation(accused=(dealer + 2) % 4, trick=2))
        assert Verdict.from_json(v.to_json()) == v
        assert v.to_json()["trick"] == 3


def test_rank_table_sanity():
    assert trump_strength(Rank.JACK) > trump_strength(Rank.NINE) > trump_strength(Rank.ACE)


@PROPS
@given(rulesets, seeds, seats, scores, st.randoms(use_true_random=False))
def test_a_random_walk_over_legal_actions_always_applies(ruleset, seed, dealer, score, walker):
    state = HandState.start(ruleset, dealer, deal(shuffled_deck(seed), dealer), score)
    steps = 0
    while not state.done and steps < 200:
        options = [a for s in range(4) for a in state.legal_actions(s)]
        assert options  # somebody can always act
        for a in options:
            assert state.why_illegal(a) is None
        if state.to_act is not None:
            assert any(a.seat == state.to_act for a in options)
        # prefer moving the hand on; declarations and throw-ins now and then
        moves = [a for a in options if isinstance(a, Play | Pass | CallTrump)]
        other = [a for a in options if a not in moves and not isinstance(a, ThrowIn)]
        pick = walker.choice(other) if other and walker.random() < 0.3 else walker.choice(moves)
        state = state.apply(pick)
        steps += 1
    assert state.done
    r = state.result()
    if r.caller is not None:
        assert sum(r.card_points) == (130 if r.trump is None else 162)
