"""Admin pages a director uses: games with hands inline, disputes with verdict and ruling."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game, Hand, MisplayDispute
from tests.scoring.factories import GameFactory, PlayerFactory, record_hand, record_hands, summary
from tests.scoring.test_disputes import EVIDENCE

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(client: Client) -> Client:
    user = get_user_model().objects.create_superuser("director", "d@example.org", "pw")
    client.force_login(user)
    return client


def _judged_dispute(capture: Any) -> MisplayDispute:
    game = GameFactory.create(first_dealer=3)
    hand = record_hand(game, summary(caller=0, card_points=(92, 70)))
    with capture(execute=True):
        dispute = services.dispute_open(
            hand=hand, called_by=0, accused=1, trick=1, evidence=EVIDENCE
        )
    dispute.refresh_from_db()
    return dispute


def test_game_pages_show_entries_beside_results(director_client: Client) -> None:
    game = GameFactory.create(table="Legion hall table 4")
    record_hands(game, 2)
    listing = director_client.get(reverse("admin:scoring_game_changelist"), {"q": "Legion"})
    assert listing.status_code == 200
    assert "Legion hall table 4" in listing.content.decode()
    page = director_client.get(reverse("admin:scoring_game_change", args=[game.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "&quot;card_points&quot;" in body or '"card_points"' in body  # the entry as entered
    assert "Dealer may pass" in body  # the ruleset in words
    for path in ("admin:scoring_game_changelist", "admin:scoring_misplaydispute_changelist"):
        assert director_client.get(reverse(path), {"status": "finished"}).status_code == 200


def test_players_and_teams_are_searchable(director_client: Client) -> None:
    PlayerFactory.create(display_name="Rita MacNeil", community="Big Pond")
    page = director_client.get(reverse("admin:scoring_player_changelist"), {"q": "Big Pond"})
    assert "Rita MacNeil" in page.content.decode()
    assert director_client.get(reverse("admin:scoring_team_changelist")).status_code == 200
    assert director_client.get(reverse("admin:scoring_handrevision_changelist")).status_code == 200


def test_reopen_action(director_client: Client) -> None:
    game = GameFactory.create()
    services.game_end_early(game=game, reason="snow")
    response = director_client.post(
        reverse("admin:scoring_game_changelist"),
        {"action": "reopen", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_director_overrules_in_the_dispute_form(
    director_client: Client,
    django_capture_on_commit_callbacks: Any,
    only_this_receiver: list[int],
) -> None:
    dispute = _judged_dispute(django_capture_on_commit_callbacks)
    url = reverse("admin:scoring_misplaydispute_change", args=[dispute.pk])
    page = director_client.get(url)
    assert "did not beat" in page.content.decode()  # the engine's reason is shown
    response = director_client.post(
        url, {"ruling": "overruled", "ruling_note": "the 9 came from the kitty"}
    )
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling) == ("proven", "overruled")
    assert dispute.ruling_note == "the 9 came from the kitty"
    assert Hand.objects.get(pk=dispute.hand_id).outcome == "misplay_not_proven"


def test_dispute_actions(
    director_client: Client,
    django_capture_on_commit_callbacks: Any,
    only_this_receiver: list[int],
) -> None:
    dispute = _judged_dispute(django_capture_on_commit_callbacks)
    changelist = reverse("admin:scoring_misplaydispute_changelist")
    director_client.post(changelist, {"action": "uphold", "_selected_action": [dispute.pk]})
    dispute.refresh_from_db()
    assert dispute.ruling == "upheld"
    director_client.post(
        changelist, {"action": "adjudicate_again", "_selected_action": [dispute.pk]}
    )
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling, dispute.version) == ("proven", "upheld", 4)


def test_a_player_or_team_added_twice_is_refused_in_words(director_client: Client) -> None:
    from tests.scoring.factories import TeamFactory

    PlayerFactory.create(display_name="Hector MacNeil", community="Iona")
    twice = director_client.post(
        "/admin/scoring/player/add/", {"display_name": "Hector MacNeil", "community": "Iona"}
    )
    assert twice.status_code == 200
    errors = twice.context["adminform"].form.non_field_errors()
    assert errors == [
        (
            "A player with this name already plays from this community: choose that player, "
            "or tell the two apart by name or community."
        )
    ]
    assert "Constraint" not in twice.content.decode()
    team = TeamFactory.create()
    pair = director_client.post(
        "/admin/scoring/team/add/",
        {"name": "Again", "player_one": team.player_two_id, "player_two": team.player_one_id},
    )
    assert pair.context["adminform"].form.non_field_errors() == [
        "These two players are already a team: choose that team instead."
    ]
    alone = director_client.post(
        "/admin/scoring/team/add/",
        {"name": "Alone", "player_one": team.player_one_id, "player_two": team.player_one_id},
    )
    assert alone.context["adminform"].form.non_field_errors() == [
        "A team is two different players: choose another second player."
    ]


def test_a_game_with_hands_cannot_be_deleted_one_by_one(director_client: Client) -> None:
    game = GameFactory.create()
    record_hands(game, 2)
    url = reverse("admin:scoring_game_delete", args=[game.pk])
    assert director_client.get(url).status_code == 403
    assert director_client.post(url, {"post": "yes"}).status_code == 403
    change = director_client.get(reverse("admin:scoring_game_change", args=[game.pk]))
    assert url not in change.content.decode()  # no delete link to follow
    assert Hand.objects.filter(game=game).count() == 2


def test_delete_selected_keeps_games_with_hands_and_their_revisions(
    director_client: Client,
) -> None:
    played = GameFactory.create()
    hands = record_hands(played, 2)
    services.hand_correct(
        hand=hands[0],
        entry=summary(caller=0, card_points=(100, 62)),
        reason="miscounted",
        expected_version=hands[0].version,
    )
    unscored = GameFactory.create()
    response = director_client.post(
        reverse("admin:scoring_game_changelist"),
        {"action": "delete_selected", "_selected_action": [played.pk, unscored.pk], "post": "yes"},
    )
    assert response.status_code == 200  # the page that says what protects them
    assert "Cannot delete" in response.content.decode()
    assert Game.objects.filter(pk__in=[played.pk, unscored.pk]).count() == 2
    assert Hand.objects.filter(game=played).count() == 2
    assert hands[0].revisions.exists()


def test_a_game_nobody_scored_can_be_deleted(director_client: Client) -> None:
    game = GameFactory.create()
    url = reverse("admin:scoring_game_delete", args=[game.pk])
    assert director_client.post(url, {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


def test_the_database_refuses_to_delete_a_game_with_hands() -> None:
    from django.db.models import ProtectedError

    game = GameFactory.create()
    record_hands(game, 1)
    with pytest.raises(ProtectedError):
        game.delete()


def test_running_games_are_ended_early_from_the_list(director_client: Client) -> None:
    game = GameFactory.create()
    record_hands(game, 1)
    response = director_client.post(
        reverse("admin:scoring_game_changelist"),
        {"action": "end_early", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.ended_reason == "Ended early in the admin by director"
    assert Hand.objects.filter(game=game).count() == 1
