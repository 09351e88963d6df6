"""Whatever scorekeepers do (enter, correct, undo, in any order), the stored game agrees with
the engine's reading of the hands that count."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.engine import EngineError, HandResult, game_progress
from scoring.models import Game, Hand
from tarabish_site.api.errors import ValidationFailed
from tests.scoring.factories import GameFactory, summary

CARD_POINTS = st.sampled_from([0, 20, 40, 62, 70, 81, 92, 100, 122, 162])
ENTRIES = st.builds(
    lambda caller, mine, runs: summary(
        caller=caller, card_points=(mine, 162 - mine), run_points=[runs, 0]
    ),
    st.integers(0, 3),
    CARD_POINTS,
    st.sampled_from([0, 20, 50]),
)
ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("record"), ENTRIES, st.just(0)),
        st.tuples(st.just("correct"), ENTRIES, st.integers(0, 20)),
        st.tuples(st.just("undo"), st.none(), st.just(0)),
    ),
    min_size=1,
    max_size=12,
)


def _check(game: Game) -> None:
    game.refresh_from_db()
    hands = list(Hand.objects.active().filter(game=game).order_by("number"))
    assert [h.number for h in hands] == list(range(1, len(hands) + 1))
    assert game.first_dealer is not None
    progress = game_progress(
        game.engine_ruleset, game.first_dealer, [HandResult.from_json(h.result) for h in hands]
    )
    assert (game.score_a, game.score_b) == progress.totals
    assert [(h.running_a, h.running_b) for h in hands] == list(progress.running)
    assert game.hands_played == len(hands)
    assert game.next_dealer == progress.next_dealer
    assert game.forced_seat == progress.forced_seat
    assert (game.status == "finished") == progress.over
    assert game.winner == ("" if progress.winner is None else ("team_a", "team_b")[progress.winner])


@pytest.mark.django_db
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_stored_game_follows_the_engine(actions: list[tuple[str, Any, int]]) -> None:
    game = GameFactory.create(ruleset={"target": 500, "forced_at": 400})
    version = game.version
    for action, entry, index in actions:
        refused = False
        try:
            if action == "record":
                services.hand_record(game=game, entry_kind="summary", entry=entry)
            elif action == "correct":
                hands = list(Hand.objects.active().filter(game=game).order_by("number"))
                if not hands:
                    continue
                hand = hands[index % len(hands)]
                services.hand_correct(
                    hand=hand, entry=entry, reason="property", expected_version=hand.version
                )
            else:
                services.hand_undo_last(game=game)
        except (ValidationFailed, EngineError):
            # game over, nothing to undo, a call the forced rule refuses, ...: nothing may
            # have changed (the engine's refusals reach callers as they are)
            refused = True
        game.refresh_from_db()
        assert game.version == version if refused else game.version > version
        version = game.version
        _check(game)
