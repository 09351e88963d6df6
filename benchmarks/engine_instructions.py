"""Instructions per hand of the rules engine, counted by callgrind: a figure a busy machine
does not move.

Run from the project root (needs ``valgrind``)::

    python benchmarks/engine_instructions.py

For each workload of :mod:`benchmarks.engine_bench` (``simulate_hand``, the private fast loop
beneath it, and the random player driving the per-card interface), the script runs itself under
``valgrind --tool=callgrind`` twice with ``PYTHONHASHSEED=0``: once playing ``--hands`` hands
from ``random.Random(--seed)``, once playing none (the interpreter's start, the imports and the
workload's set-up). The difference divided by the hands is the figure printed, beside
``simulate_hand`` over the fast loop and the per-card player over its 1.57M instructions a hand
when it was first counted.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import fast_hands, full_hands, per_card_hands

WORKLOADS = {
    "simulate_hand": full_hands,
    "fast_loop": fast_hands,
    "per_card": per_card_hands,
}
#: Instructions a hand of the per-card player when first counted.
PER_CARD_FIRST = 1_570_000


def play(workload: str, hands: int, seed: int) -> None:
    """The measured run: set the workload up, then play its hands (none for the baseline)."""
    run = WORKLOADS[workload](random.Random(seed), hands)
    if hands:
        run()


def instructions(workload: str, hands: int, seed: int) -> int:
    """Instructions callgrind counts for one run of this script as ``play``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--play",
            workload,
            "--hands",
            str(hands),
            "--seed",
            str(seed),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(command, env=env, check=True, capture_output=True)  # noqa: S603
        match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if match is None:
            raise SystemExit(f"no instruction total in callgrind's output for {workload}")
        return int(match.group(1))


def per_hand(workload: str, hands: int, seed: int) -> float:
    """Instructions a hand: a run of ``hands`` hands less a run of none."""
    return (instructions(workload, hands, seed) - instructions(workload, 0, seed)) / hands


def main() -> None:
    parser = argparse.ArgumentParser(description="Instructions per hand of the rules engine.")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--workload", choices=sorted(WORKLOADS), action="append", help="only these (repeatable)"
    )
    parser.add_argument("--play", choices=sorted(WORKLOADS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play, args.hands, args.seed)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH")
    chosen = args.workload or list(WORKLOADS)
    figures = {name: per_hand(name, args.hands, args.seed) for name in chosen}
    print(f"Python {sys.version.split()[0]}; {args.hands} hands, seed {args.seed}, callgrind")
    for name, figure in figures.items():
        print(f"{name + ', instructions a hand:':40} {figure:>12,.0f}")
    if "simulate_hand" in figures and "fast_loop" in figures:
        ratio = figures["simulate_hand"] / figures["fast_loop"]
        print(f"{'simulate_hand / fast loop:':40} {ratio:>12.2f}x  [target <= 1.5x]")
    if "per_card" in figures:
        speedup = PER_CARD_FIRST / figures["per_card"]
        print(f"{'per-card player, 1.57M / now:':40} {speedup:>12.2f}x  [target >= 2x]")


if __name__ == "__main__":
    main()
