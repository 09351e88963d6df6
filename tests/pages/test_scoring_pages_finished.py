# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,operator"
"""The scoring pages of a game that is over: reopening it, correcting its hands (and what that
does to its end), the way back to its match, its printed record; and the undo, tie and
correction preview pages around them."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.models import Game, Hand
from tests.scoring.factories import (
    GameFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
    record_hand,
    record_hands,
    summary,
)
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_game
from tournaments.models import Match, Tournament
from tournaments.services import match_sync, stage_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    return UserFactory()


@pytest.fixture
def director():
    return UserFactory(director=True)


@pytest.fixture
def finished(keeper):
    """Team A won 552-420, six hands of 92-70."""
    game = GameFactory(scorekeepers=[keeper])
    record_hands(game, 6)
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", "team_a")
    return game


def _correction(count, reason="the count was wrong", version=1, **more):
    return {
        "caller": "0",
        "trump": "H",
        "count_team": "team_a",
        "count": str(count),
        "version": str(version),
        "reason": reason,
        **more,
    }


# ----------------------------------------------------------------------------- reopen


def test_a_director_reopens_a_finished_game_and_can_then_undo_its_last_hand(
    client, director, finished
):
    client.force_login(director)
    pad = client.get(reverse("scoring:game-pad", args=[finished.pk])).content.decode()
    reopen = reverse("scoring:game-reopen", args=[finished.pk])
    assert f'href="{reopen}" id="reopen-link"' in pad
    assert 'id="undo-link"' not in pad
    detail = client.get(reverse("scoring:game-detail", args=[finished.pk])).content.decode()
    assert 'id="reopen-link"' in detail
    confirm = client.get(reopen)
    assert confirm.status_code == 200
    assert escape(f"{finished.team_a.name} won, ") in confirm.content.decode()
    assert f'name="version" value="{finished.version}"' in confirm.content.decode()
    response = client.post(reopen, {"version": str(finished.version)})
    assert response["Location"] == reverse("scoring:game-pad", args=[finished.pk])
    finished.refresh_from_db()
    assert (finished.status, finished.winner) == ("in_progress", "")
    pad = client.get(reverse("scoring:game-pad", args=[finished.pk])).content.decode()
    assert 'id="undo-link"' in pad
    assert 'id="reopen-link"' not in pad


def test_a_reopen_on_a_page_grown_stale_is_refused_beside_the_button(client, director, finished):
    client.force_login(director)
    shown = finished.version
    Game.objects.filter(pk=finished.pk).update(version=shown + 1)  # another director acted
    refused = client.post(reverse("scoring:game-reopen", args=[finished.pk]), {"version": shown})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'id="reopen-error"' in page
    assert "changed since you read it" in page
    assert Game.objects.get(pk=finished.pk).status == "finished"


def test_a_scorekeeper_is_offered_no_reopen_and_is_refused_one(client, keeper, finished):
    client.force_login(keeper)
    pad = client.get(reverse("scoring:game-pad", args=[finished.pk])).content.decode()
    assert 'id="reopen-link"' not in pad
    reopen = reverse("scoring:game-reopen", args=[finished.pk])
    for response in (client.get(reopen), client.post(reopen, {"version": finished.version})):
        assert response.status_code == 403
        assert "Only a director can reopen a game." in response.content.decode()
    assert Game.objects.get(pk=finished.pk).status == "finished"


# ----------------------------------------------------------------------------- corrections


def test_a_scorekeeper_is_offered_no_correction_of_a_finished_game(
    client, keeper, director, finished
):
    client.force_login(keeper)
    correct = reverse("scoring:hand-correct", args=[finished.pk, 1])
    for name in ("game-pad", "game-detail", "game-pad-sheet"):
        page = client.get(reverse(f"scoring:{name}", args=[finished.pk])).content.decode()
        assert correct not in page, name
        assert reverse("scoring:hand-dispute", args=[finished.pk, 1]) not in page, name
    for url in (correct, reverse("scoring:hand-dispute", args=[finished.pk, 1])):
        refused = client.get(url)
        assert refused.status_code == 403
        assert refused.content.decode().count("only a director corrects or disputes") == 1
    refused = client.post(correct, _correction(60))
    assert refused.status_code == 403
    assert refused.content.decode().count("only a director corrects or disputes") == 1
    assert Hand.objects.get(game=finished, number=1).version == 1
    client.force_login(director)
    assert correct in client.get(reverse("scoring:game-pad", args=[finished.pk])).content.decode()
    assert client.get(correct).status_code == 200


def test_a_correction_giving_another_winner_is_saved_only_once_confirmed(
    client, director, finished
):
    """Hand 6 was a bait, not made: team B gets its 162 and wins 512-460."""
    client.force_login(director)
    url = reverse("scoring:hand-correct", args=[finished.pk, 6])
    asked = client.post(url, _correction(40))
    assert asked.status_code == 400
    page = asked.content.decode()
    assert 'id="end-change"' in page
    said = escape(
        f"{finished.team_b.name} would win the game instead of {finished.team_a.name}: "
        f"{finished.team_a.name} 460, {finished.team_b.name} 512."
    )
    assert said in page
    assert "tick the box to confirm" in page
    assert Hand.objects.get(game=finished, number=6).version == 1
    assert Game.objects.get(pk=finished.pk).winner == "team_a"
    token = asked.context["end_token"]
    assert f'name="confirm_end" value="{token}"' in page
    assert client.post(url, _correction(40, confirm_end=token)).status_code == 302
    game = Game.objects.get(pk=finished.pk)
    assert (game.status, game.winner, game.score_a, game.score_b) == (
        "finished",
        "team_b",
        460,
        512,
    )


def test_a_correction_putting_a_finished_game_back_in_play_says_so_first(client, director):
    game = GameFactory()
    record_hands(game, 5, points=(122, 40))  # team A 610: finished
    client.force_login(director)
    url = reverse("scoring:hand-correct", args=[game.pk, 5])
    asked = client.post(url, _correction(81))  # a half-bait: team A 488, under 500
    page = asked.content.decode()
    assert asked.status_code == 400
    assert "would no longer have won" in page
    assert "the game is not over (playing to 500), so it goes back in play" in page
    # a confirmation of another end (a page seen before the count changed) is asked again
    stale = client.post(url, _correction(81, confirm_end="finished:team_b"))
    assert stale.status_code == 400
    assert Game.objects.get(pk=game.pk).status == "finished"
    confirmed = client.post(url, _correction(81, confirm_end=asked.context["end_token"]))
    assert confirmed.status_code == 302
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_a_correction_keeping_the_end_of_the_game_asks_nothing_more(client, director, finished):
    client.force_login(director)
    url = reverse("scoring:hand-correct", args=[finished.pk, 1])
    assert client.post(url, _correction(100)).status_code == 302
    game = Game.objects.get(pk=finished.pk)
    assert (game.status, game.winner, game.score_a) == ("finished", "team_a", 560)


def test_the_correction_page_shows_the_new_score_before_saving(client, keeper):
    game = GameFactory(scorekeepers=[keeper])
    record_hands(game, 2)
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    assert 'id="preview-correction"' in client.get(url).content.decode()
    shown = client.post(url, _correction(60, preview="1"))
    assert shown.status_code == 200
    page = shown.content.decode()
    assert 'id="correction-preview"' in page
    assert "With this correction, hand 1 is: Bait, 0\u2013162." in page
    assert escape(f"The score becomes {game.team_a.name} 92, {game.team_b.name} 232.") in page
    assert 'id="end-change"' not in page
    assert Hand.objects.get(game=game, number=1).version == 1  # nothing saved
    assert Game.objects.get(pk=game.pk).score_a == 184
    refused = client.post(url, _correction(200, preview="1"))
    assert refused.status_code == 400
    assert 'id="correction-preview"' not in refused.content.decode()


# ----------------------------------------------------------------------------- undo, tie


def test_undo_asks_once_and_undoes_nothing_unconfirmed(client, keeper):
    game = GameFactory(scorekeepers=[keeper])
    record_hands(game, 2)
    game.refresh_from_db()
    client.force_login(keeper)
    url = reverse("scoring:game-undo", args=[game.pk])
    asked = client.get(url).content.decode()
    assert 'type="checkbox"' not in asked  # no box to tick: the one button confirms
    assert 'name="confirm" value="yes"' in asked
    assert "Undo hand 2" in asked
    refused = client.post(url, {"version": game.version})
    assert refused.status_code == 400
    assert "Nothing was undone" in refused.content.decode()
    assert Game.objects.get(pk=game.pk).hands_played == 2
    done = client.post(url, {"version": game.version, "confirm": "yes"})
    assert done.status_code == 302
    assert Game.objects.get(pk=game.pk).hands_played == 1


def test_a_tie_over_the_target_says_another_hand_is_played(client):
    game = GameFactory(ruleset={"target": 150})
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    record_hand(game, summary(caller=1, card_points=(70, 92)))
    for name in ("game-pad", "game-detail"):
        page = client.get(reverse(f"scoring:{name}", args=[game.pk])).content.decode()
        assert "Tied at 162, over 150: the game is not over, another hand is played." in page
    record_hand(game, summary(caller=1, card_points=(62, 100)))
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert "Tied at" not in page


# ----------------------------------------------------------------------------- the match


def _match_game(games: int) -> tuple[Tournament, Match, Game]:
    tournament = tournament_ready(2, match_games=games)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage, state=Match.State.READY)
    game = win_game(match)
    match_sync(match_id=match.pk)
    return tournament, match, game


def test_a_finished_match_game_sends_back_to_the_match_for_its_next_game(client):
    tournament, match, game = _match_game(3)
    assert Match.objects.get(pk=match.pk).state != Match.State.COMPLETE
    client.force_login(tournament.organiser)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert 'id="then">Back to the match for its next game</a>' in page


def test_the_last_game_of_a_match_says_the_match_is_over(client):
    tournament, match, game = _match_game(1)
    match.refresh_from_db()
    assert match.state == Match.State.COMPLETE
    client.force_login(tournament.organiser)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert "Back to the match for its next game" not in page
    said = page.split('id="then">', 1)[1].split("</a>", 1)[0]
    assert said in {
        "The match is over: see its result",
        escape(f"The match and {match.stage.name} are over: see the results"),
    }


# ----------------------------------------------------------------------------- print


def test_the_print_sheet_of_a_finished_game_is_its_record(client):
    game = GameFactory()
    runs = [{"seat": 0, "kind": "fifty", "suit": "C", "top": "K"}]
    record_hand(game, summary(caller=0, card_points=(92, 70), runs=runs, bella_seat=2))
    record_hands(game, 4)  # team A 530
    game.refresh_from_db()
    assert game.status == "finished"
    response = client.get(reverse("scoring:game-print", args=[game.pk]))
    page = response.content.decode()
    assert escape(f"{game.team_a.name} won, {game.team_a.name} {game.score_a}") in page
    assert "Scan the code" not in page
    assert "<svg" not in page
    assert 'class="blank-line"' not in page
    assert page.count("<tr data-hand=") == 5
    assert "runs 50" in page
    assert "bella (" in page
    assert 'id="print-rules"' in page
    assert "500 points" in page
    running = GameFactory()
    record_hand(running)
    page = client.get(reverse("scoring:game-print", args=[running.pk])).content.decode()
    assert "Scan the code to open this table's score-pad." in page
    assert "<svg" in page
    assert page.count('class="blank-line"') == 15


def test_the_print_sheet_breaks_no_word_at_a_phones_width(page, live_server):
    """At 390 px, names and headings wrap between words, never inside one."""
    players = ["Shirley MacNeil", "Murdock Gillis", "Catherine Rankin", "Alexander Beaton"]
    a1, b1, a2, b2 = (PlayerFactory(display_name=name) for name in players)
    game = GameFactory(
        team_a=TeamFactory(player_one=a1, player_two=a2),
        team_b=TeamFactory(player_one=b1, player_two=b2),
        seats=(a1, b1, a2, b2),
    )
    record_hand(game, summary(caller=1, card_points=(100, 62), bella_seat=3))
    while game.status == Game.Status.IN_PROGRESS:
        record_hand(game)
    page.goto(f"{live_server.url}/games/{game.pk}/print/")
    broken = page.evaluate(
        """() => {
        const broken = [];
        const root = document.querySelector("#print-table");
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const node = walker.currentNode;
          const text = node.textContent;
          for (const match of text.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(match[0]);
          }
        }
        return broken;
      }"""
    )
    assert broken == []
    assert page.locator("#final-result").is_visible()
