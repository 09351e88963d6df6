"""Speed of the rules engine: simulated hands per second and misplay adjudication time.

Run from the project root::

    python benchmarks/engine_bench.py

Targets (CPython 3.11, one core): at least 10,000 complete simulated hands per second (deal,
call, 36 legal plays chosen by the random player, runs, bella, score) and adjudicating a
complete nine-trick record in under 50 microseconds. The machine is shared, so every figure is
measured in many short batches and the best batch is reported (as :mod:`timeit` does), with the
median beside it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
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


def batches(run: Callable[[], int], repeat: int) -> list[float]:
    """Seconds per item of each batch; ``run`` does one batch and returns its item count."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        n = run()
        out.append((time.perf_counter() - start) / n)
    return out


def fast_hands(rng: random.Random, size: int) -> Callable[[], int]:
    """The fast loop: deal, call, 36 legal plays by the random player, runs, bella, score."""
    rnd, bits = rng.random, rng.getrandbits

    def run() -> int:
        for k in range(size):
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
        return size

    return run


def full_hands(rng: random.Random, size: int) -> Callable[[], int]:
    """simulate_hand: the fast loop plus the log, record, summary and result values."""
    ruleset = Ruleset()

    def run() -> int:
        for k in range(size):
            simulate_hand(ruleset, rng, k & 3)
        return size

    return run


def records(rng: random.Random, count: int) -> list[TrickRecord]:
    ruleset = Ruleset()
    return [simulate_hand(ruleset, rng, k & 3).record for k in range(count)]


def adjudications(recs: list[TrickRecord], *, with_deal: bool) -> Callable[[], int]:
    ruleset = Ruleset()
    cases = []
    for k, rec in enumerate(recs):
        r = (
            rec
            if with_deal
            else TrickRecord(
                rec.dealer, rec.caller, rec.trump, rec.tricks, None, rec.runs, rec.bella_seat
            )
        )
        cases.append((r, Accusation(accused=(k + 1) % 4, trick=1 + k % 8, called_by=k % 4)))

    def run() -> int:
        for rec, accusation in cases:
            adjudicate(ruleset, rec, accusation)
        return len(cases)

    return run


def finds(recs: list[TrickRecord]) -> Callable[[], int]:
    ruleset = Ruleset()

    def run() -> int:
        for rec in recs:
            find_misplays(ruleset, rec)
        return len(recs)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description="Speed of the Tarabish rules engine.")
    parser.add_argument("--repeat", type=int, default=40, help="batches per figure")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    recs = records(rng, 100)

    fast = batches(fast_hands(rng, 500), args.repeat)
    full = batches(full_hands(rng, 100), args.repeat)
    bare = batches(adjudications(recs, with_deal=False), args.repeat * 5)
    dealt = batches(adjudications(recs, with_deal=True), args.repeat * 5)
    found = batches(finds(recs), args.repeat)

    def per_s(xs: list[float]) -> str:
        return f"{1 / min(xs):,.0f} hands/s (median {1 / statistics.median(xs):,.0f})"

    def us(xs: list[float]) -> str:
        return f"{min(xs) * 1e6:.1f} us (median {statistics.median(xs) * 1e6:.1f})"

    print(f"Python {sys.version.split()[0]}; best of {args.repeat} batches, median beside it")
    print(
        f"simulated hands, fast loop (deal, call, 36 plays, runs, bella, score): "
        f"{per_s(fast)}  [target >= 10,000]"
    )
    print(f"simulate_hand, also building log, record, summary, result:    {per_s(full)}")
    print(
        f"adjudicate a complete nine-trick record:                       {us(bare)}"
        "  [target < 50 us]"
    )
    print(f"adjudicate a complete record with the deal known:              {us(dealt)}")
    print(f"find_misplays on a complete record:                            {us(found)}")


if __name__ == "__main__":
    main()
