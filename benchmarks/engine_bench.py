"""Speed of the rules engine: simulated hands per second and misplay adjudication time.

Run: ``python benchmarks/engine_bench.py`` (from the project root). Prints the best of several
runs, because the machine is shared. Targets: at least 10,000 complete simulated hands per
second (deal, call, 36 legal plays by the random player, runs, bella, score) on one core, and
adjudicating a complete nine-trick record in under 50 microseconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import (
    Accusation,
    Ruleset,
    TrickRecord,
    adjudicate,
    find_misplays,
    simulate_hand,
)
from scoring.engine.simulate import play_hand, score_fast


def fast_hands(n: int, seed: int) -> float:
    """Hands per second of the fast loop: deal, call, 36 plays, runs, bella, score."""
    rng = random.Random(seed)
    rnd, bits = rng.random, rng.getrandbits
    start = time.perf_counter()
    for k in range(n):
        dealer = k & 3
        _, hands, caller, t, _, card_points = play_hand(
            rnd,
            bits,
            dealer=dealer,
            forced_seat=-1,
            dealer_may_pass=False,
            no_trump_allowed=False,
            greedy=False,
        )
        score_fast(
            hands=hands,
            caller=caller,
            t=t,
            card_points=card_points,
            runs_for_team=False,
            half_bait_is_whole_bait=False,
        )
    return n / (time.perf_counter() - start)


def full_hands(n: int, seed: int) -> float:
    """Hands per second of simulate_hand (also builds the log, record, summary and result)."""
    rng = random.Random(seed)
    ruleset = Ruleset()
    start = time.perf_counter()
    for k in range(n):
        simulate_hand(ruleset, rng, k & 3)
    return n / (time.perf_counter() - start)


def adjudication_us(n: int, seed: int) -> tuple[float, float]:
    """Microseconds per adjudication of a complete record (without and with the deal)."""
    rng = random.Random(seed)
    ruleset = Ruleset()
    cases: list[tuple[TrickRecord, TrickRecord, Accusation]] = []
    for k in range(50):
        sim = simulate_hand(ruleset, rng, k & 3)
        rec = sim.record
        bare = TrickRecord(
            rec.dealer, rec.caller, rec.trump, rec.tricks, None, rec.runs, rec.bella_seat
        )
        cases.append((bare, rec, Accusation(accused=(k + 1) % 4, trick=1 + k % 8, called_by=k % 4)))
    out = []
    for which in (0, 1):
        reps = max(1, n // len(cases))
        start = time.perf_counter()
        for _ in range(reps):
            for bare, dealt, accusation in cases:
                adjudicate(ruleset, dealt if which else bare, accusation)
        out.append((time.perf_counter() - start) / (reps * len(cases)) * 1e6)
    return out[0], out[1]


def find_us(n: int, seed: int) -> float:
    rng = random.Random(seed)
    ruleset = Ruleset()
    recs = [simulate_hand(ruleset, rng, k & 3).record for k in range(50)]
    reps = max(1, n // len(recs))
    start = time.perf_counter()
    for _ in range(reps):
        for rec in recs:
            find_misplays(ruleset, rec)
    return (time.perf_counter() - start) / (reps * len(recs)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="take the best of this many runs")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per run")
    args = parser.parse_args()
    fast = max(fast_hands(args.hands, seed) for seed in range(args.runs))
    full = max(full_hands(args.hands // 10, seed) for seed in range(args.runs))
    adj = [adjudication_us(20_000, seed) for seed in range(args.runs)]
    bare = min(a for a, _ in adj)
    dealt = min(b for _, b in adj)
    finds = min(find_us(5_000, seed) for seed in range(args.runs))
    print(f"Python {sys.version.split()[0]}, best of {args.runs} runs")
    print(
        f"simulated hands (fast loop: deal, call, 36 plays, runs, bella, score): "
        f"{fast:,.0f} hands/s  (target >= 10,000)"
    )
    print(f"simulate_hand (also builds log, record, summary, result): {full:,.0f} hands/s")
    print(f"adjudicate a complete nine-trick record: {bare:.1f} us  (target < 50 us)")
    print(f"adjudicate a complete record with the deal known: {dealt:.1f} us")
    print(f"find_misplays on a complete record: {finds:.1f} us")


if __name__ == "__main__":
    main()
