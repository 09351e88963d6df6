# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc"
"""Correcting a hand on its page: the grid of runs as a score-sheet holds them, and its
refusals beside it."""

import pytest
from django.urls import reverse

from tests.scoring.factories import GameFactory, UserFactory, record_hand, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    return UserFactory()


@pytest.fixture
def game(keeper):
    return GameFactory(scorekeepers=[keeper])


def test_too_many_runs_for_one_player_are_refused_beside_the_grid(client, keeper, game):
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92", "version": "1"}
    refused = client.post(url, {**data, "twenty_3": "4", "reason": "the runs were missed"})
    assert refused.status_code == 400
    page = refused.content.decode()
    seat_3 = game.seat_3.display_name
    assert f"{seat_3} cannot show more than 3 twenties in nine cards" in page
    assert 'aria-invalid="true" aria-describedby="runs-errors"' in page
    assert '<div class="field-error" id="runs-errors" data-error-for="runs">' in page


def test_a_count_alone_is_corrected_when_both_teams_showed_runs(client, keeper, game):
    """Seat 0 showed a fifty and seat 1 a twenty: only team A's fifty counts. The form holds
    the fifty alone, so changing the count does not become runs counted on both sides."""
    runs = [
        {"seat": 0, "kind": "fifty", "suit": "C", "top": "K"},
        {"seat": 1, "kind": "twenty", "suit": "S", "top": "A"},
    ]
    hand = record_hand(game, summary(caller=0, card_points=(92, 70), runs=runs))
    assert (hand.run_points_a, hand.run_points_b) == (50, 0)
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    initial = client.get(url).context["form"].initial
    assert (initial["fifty_0"], initial.get("twenty_1", 0)) == (1, 0)
    data = {
        "caller": "0",
        "trump": "H",
        "count_team": "team_a",
        "count": "100",
        "fifty_0": "1",
        "version": "1",
        "reason": "the count was 100",
    }
    assert client.post(url, data).status_code == 302
    hand.refresh_from_db()
    assert (hand.card_points_a, hand.card_points_b, hand.run_points_a) == (100, 62, 50)
