"""Speed of the rules engine, through the interface callers use: simulated hands per second
and misplay adjudication time.

Run from the project root::

    python benchmarks/engine_bench.py

Figures (CPython 3.11, one core):

* ``simulate_hand`` (the public function: deal, call, 36 legal plays by the random player,
  runs, bella, score, and the log, record, summary and result values), beside the private
  fast loop it is built on (the loop alone: no values for callers). Target: within 1.5x of the
  fast loop.
* A random player driving the per-card interface, as an online table does: ``deal``, then for
  every card ``legal_plays`` and a random choice, ``trick_winner`` after every trick,
  ``find_runs`` on every hand and ``score_tricks`` on the record.
* Adjudicating a complete nine-trick record (target under 50 microseconds), and finding every
  misplay in one.

Each figure is measured in many short batches and the best batch is reported (as
:mod:`timeit` does), with the median beside it, in CPU time (``time.process_time``, which
other work on a shared machine does not inflate) and in wall time.
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
    Card,
    Ruleset,
    RunShown,
    Suit,
    TrickRecord,
    adjudicate,
    deal,
    find_misplays,
    find_runs,
    legal_plays,
    score_tricks,
    shuffled_deck,
    simulate_hand,
    trick_winner,
)
from scoring.engine.simulate import play_hand, score_fast


class Batches:
    """Seconds per item of each batch, in CPU time and wall time."""

    def __init__(self, run: Callable[[], int], repeat: int) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        for _ in range(repeat):
            cpu, wall = time.process_time(), time.perf_counter()
            n = run()
            self.cpu.append((time.process_time() - cpu) / n)
            self.wall.append((time.perf_counter() - wall) / n)

    def per_second(self) -> str:
        cpu, wall = min(self.cpu), min(self.wall)
        return (
            f"{1 / cpu:,.0f}/s CPU (median {1 / statistics.median(self.cpu):,.0f}), "
            f"{1 / wall:,.0f}/s wall"
        )

    def micros(self) -> str:
        cpu, wall = min(self.cpu), min(self.wall)
        return (
            f"{cpu * 1e6:.1f} us CPU (median {statistics.median(self.cpu) * 1e6:.1f}), "
            f"{wall * 1e6:.1f} us wall"
        )


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


SUITS = tuple(Suit)


def per_card_hands(rng: random.Random, size: int) -> Callable[[], int]:
    """A random player through the per-card interface: the seat after the dealer calls a
    random trump; every card is chosen among ``legal_plays``; ``trick_winner`` says who leads
    next; each player shows their best run (``find_runs``); ``score_tricks`` scores it."""
    ruleset = Ruleset()

    def run() -> int:
        for k in range(size):
            dealer = k & 3
            dealt = deal(shuffled_deck(rng), dealer)
            caller = (dealer + 1) & 3
            trump = SUITS[rng.getrandbits(2)]
            shown = []
            for seat, cards in enumerate(dealt.hands):
                runs = find_runs(cards)
                if runs:
                    shown.append(RunShown(seat, runs[0].kind, runs[0].suit, runs[0].top))
            hands = [list(h) for h in dealt.hands]
            tricks: list[tuple[Card, ...]] = []
            leader = caller
            for _ in range(9):
                trick: list[Card] = []
                for i in range(4):
                    held = hands[(leader + i) & 3]
                    card = rng.choice(legal_plays(held, trick, trump))
                    held.remove(card)
                    trick.append(card)
                tricks.append(tuple(trick))
                leader = trick_winner(trick, trump, leader=leader)
            record = TrickRecord(
                dealer=dealer,
                caller=caller,
                trump=trump,
                tricks=tuple(tricks),
                hands=dealt.hands,
                runs=tuple(shown),
            )
            score_tricks(ruleset, record)
        return size

    return run


def records(rng: random.Random, count: int) -> list[TrickRecord]:
    ruleset = Ruleset()
    return [simulate_hand(ruleset, rng, k & 3).record for k in range(count)]


def adjudications(recs: list[TrickRecord], *, with_deal: bool) -> Callable[[], int]:
    cases = []
    for k, rec in enumerate(recs):
        r = (
            rec
            if with_deal
            else TrickRecord(
                rec.dealer, rec.caller, rec.trump, rec.tricks, None, rec.runs, rec.bella_seat
            )
        )
        cases.append((r, Accusation(accused=(k + 1) % 4, trick=k % 8, called_by=k % 4)))

    def run() -> int:
        for rec, accusation in cases:
            adjudicate(rec, accusation)
        return len(cases)

    return run


def finds(recs: list[TrickRecord]) -> Callable[[], int]:
    def run() -> int:
        for rec in recs:
            find_misplays(rec)
        return len(recs)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description="Speed of the Tarabish rules engine.")
    parser.add_argument("--repeat", type=int, default=40, help="batches per figure")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    recs = records(rng, 100)

    fast = Batches(fast_hands(rng, 500), args.repeat)
    full = Batches(full_hands(rng, 100), args.repeat)
    per_card = Batches(per_card_hands(rng, 50), args.repeat)
    bare = Batches(adjudications(recs, with_deal=False), args.repeat * 5)
    dealt = Batches(adjudications(recs, with_deal=True), args.repeat * 5)
    found = Batches(finds(recs), args.repeat)

    ratio = min(full.cpu) / min(fast.cpu)
    print(f"Python {sys.version.split()[0]}; best of {args.repeat} batches, median beside it")
    print(f"simulate_hand (public), hands:                    {full.per_second()}")
    print(f"  the private fast loop beneath it, hands:        {fast.per_second()}")
    print(f"  simulate_hand / fast loop, CPU:                 {ratio:.2f}x  [target <= 1.5x]")
    print(f"random player through the per-card API, hands:    {per_card.per_second()}")
    print(f"adjudicate a complete nine-trick record:          {bare.micros()}  [target < 50 us]")
    print(f"adjudicate a complete record with the deal known: {dealt.micros()}")
    print(f"find_misplays on a complete record:               {found.micros()}")


if __name__ == "__main__":
    main()
