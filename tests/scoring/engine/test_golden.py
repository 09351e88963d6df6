"""Golden replays: whole hands stored as JSON logs with their expected results.

The logs were recorded from seeded simulated hands; replaying them through the engine must give
exactly the stored result, so any change in the rules' behaviour shows up here.
"""

import json
from pathlib import Path

import pytest

from scoring.engine import HandLog, HandResult, replay, score_tricks

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay(path: Path) -> None:
    data = json.loads(path.read_text())
    log = HandLog.from_json(data["log"])
    expected = HandResult.from_json(data["result"])
    final = replay(log)[-1]
    assert final.done
    assert final.result() == expected
    assert score_tricks(log.ruleset, final.record()) == expected
    assert log.to_json() == data["log"]


def test_there_are_golden_hands() -> None:
    assert len(GOLDEN) >= 3
