# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""The score-pad's page around the hand: the flip's cards as faces, a finished game's way to
change its last hands, the folds that open only when a hand needs them, the sheet below the
form one tap away (the browser's figures: test_browser_pad_one_screen)."""

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.views.pad import card_face
from tests.scoring.factories import GameFactory, UserFactory, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    return UserFactory()


def test_a_flip_for_the_first_dealer_shows_the_cards_faces(client, keeper):
    client.force_login(keeper)
    game = GameFactory(scorekeepers=[keeper], first_dealer=None)
    url = reverse("scoring:game-first-dealer", args=[game.pk])
    assert client.post(url, {"flip": "1", "version": str(game.version)}).status_code == 302
    game.refresh_from_db()
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    flips = page.split('id="flips">', 1)[1].split("</p>", 1)[0]
    faces = re.findall(r'class="card-face suit suit-([CDHS])">([^<]+)<', flips)
    assert len(faces) == len(game.first_dealer_flips)
    for (suit, face), (_seat, code) in zip(faces, game.first_dealer_flips, strict=True):
        assert face[-1] in "♣♦♥♠"
        assert suit == code[-1]
        assert face[:-1] == code[:-1]
    assert faces[-1][1].startswith("J")


def test_card_faces():
    assert card_face("JH") == {"card": "J♥", "suit": "H"}
    assert card_face("10S") == {"card": "10♠", "suit": "S"}
    assert card_face("TC") == {"card": "10♣", "suit": "C"}


def test_a_finished_games_pad_says_how_to_change_its_last_hands(client, keeper):
    game = GameFactory(scorekeepers=[keeper])
    services.game_end_early(game=game, reason="the hall is closing")
    client.force_login(keeper)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    note = page.split('id="over-note">', 1)[1].split("</p>", 1)[0]
    assert "a director reopens it" in note
    director = UserFactory(is_staff=True)
    client.force_login(director)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    note = page.split('id="over-note">', 1)[1].split("</p>", 1)[0]
    assert "reopen it first" in note
    assert 'id="reopen-link"' in page


def test_the_folds_are_closed_for_a_new_hand_and_open_for_a_refused_one(client, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    client.force_login(keeper)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert '<details class="fold" id="runs-fold">' in page
    assert page.index('id="hand-form"') < page.index('id="sheet-table"')
    assert 'href="#sheet-table"' in page
    assert page.count('data-bump="twenty_') == 4
    assert page.count('data-bump="fifty_') == 4
    two_fifties = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92"}
    two_fifties.update({"fifty_0": "1", "fifty_1": "1"})
    refused = client.post(reverse("scoring:game-hand-add", args=[game.pk]), two_fifties)
    assert refused.status_code == 400
    assert '<details class="fold" id="runs-fold" open>' in refused.content.decode()


def test_undo_names_an_all_passed_hand_as_such(client, keeper):
    game = GameFactory(scorekeepers=[keeper], ruleset={"dealer_may_pass": True})
    record_hands(game, 1)
    services.hand_record(game=game, entry_kind="summary", entry={"caller": None, "trump": None})
    client.force_login(keeper)
    page = client.get(reverse("scoring:game-undo", args=[game.pk])).content.decode()
    assert "Hand 2 (all passed" in page
