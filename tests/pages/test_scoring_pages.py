# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,operator"
"""The score-pad and game pages: what they show, what they refuse, how many queries they take."""

import json
import random
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from scoring import services
from scoring.engine import simulate_hand
from scoring.models import Game, Hand, MisplayDispute
from tests.scoring.factories import GameFactory, UserFactory, record_hand, record_hands, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    return UserFactory()


@pytest.fixture
def game(keeper):
    return GameFactory(scorekeepers=[keeper])


def test_shell_manifest_and_service_worker(client):
    manifest = client.get(reverse("scoring:manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["display"] == "standalone"
    worker = client.get(reverse("scoring:service-worker"))
    assert worker["Service-Worker-Allowed"] == "/"
    body = worker.content.decode()
    assert "/static/css/site.css" in body
    # every script module, the score-pad's parts included, is kept for a start with no signal
    scripts = Path(settings.BASE_DIR) / "static" / "js"
    modules = sorted(scripts.rglob("*.js"))
    assert len(modules) > 10
    for module in modules:
        assert f'"/static/js/{module.relative_to(scripts).as_posix()}"' in body
    assert "tarabish-shell-" in body
    assert client.get(reverse("scoring:offline")).status_code == 200


def test_pad_shows_sheet_and_next_deal(client, keeper, game, django_assert_max_num_queries):
    record_hand(game, summary(caller=1, card_points=(100, 62)))  # team B called and was baited
    client.force_login(keeper)
    url = reverse("scoring:game-pad", args=[game.pk])
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-outcome="bait"' in page
    assert 'role="img" aria-label="Hearts"' in page  # the trump, said as a word
    assert 'id="hand-form"' in page
    config = response.context["config"]
    assert config["nextNumber"] == 2
    # the dealers ahead come from the engine: hand 2 is dealt by seat 1, hand 5 by seat 0 again
    assert (config["dealers"][2], config["dealers"][5]) == (1, 0)
    assert json.loads(page.split('id="pad-config" type="application/json">')[1].split("<")[0])


def test_pad_query_count_is_flat(client, keeper, django_assert_max_num_queries):
    client.force_login(keeper)
    small = GameFactory(scorekeepers=[keeper])
    record_hands(small, 2)
    big = GameFactory(scorekeepers=[keeper], ruleset_preset="kitchen-table")
    for _ in range(12):
        record_hand(big, summary(caller=None, trump=None, card_points=None))
    record_hands(big, 3)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("scoring:game-pad", args=[small.pk]))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("scoring:game-pad", args=[big.pk]))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("scoring:game-detail", args=[big.pk]))


def test_watchers_see_the_sheet_but_no_form(client, game):
    record_hand(game)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert 'id="hand-form"' not in page
    assert "Sign in" in page


def test_form_post_stores_a_hand_without_script(client, keeper, game):
    client.force_login(keeper)
    url = reverse("scoring:game-hand-add", args=[game.pk])
    response = client.post(
        url,
        {"caller": "0", "trump": "H", "count_team": "team_a", "count": "100", "bella_seat": "2"},
    )
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.entry["card_points"] == {"team": "team_a", "points": 100}
    assert hand.bella_seat == 2
    assert (hand.points_a, hand.points_b) == (120, 62)


def test_form_post_puts_the_engine_reason_next_to_the_field(client, keeper, game):
    client.force_login(keeper)
    url = reverse("scoring:game-hand-add", args=[game.pk])
    response = client.post(url, {"caller": "0", "trump": "H", "count_team": "team_a", "count": "1"})
    assert response.status_code == 400
    assert response.context["form"].errors["count"]
    assert Hand.objects.count() == 0


def test_first_dealer_entered_or_flipped(client, keeper):
    client.force_login(keeper)
    game = GameFactory(scorekeepers=[keeper], first_dealer=None)
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert "Flip for jacks" in page
    url = reverse("scoring:game-first-dealer", args=[game.pk])
    assert 'name="version" value="1"' in page
    assert client.post(url, {"flip": "1", "version": "1"}).status_code == 302
    game.refresh_from_db()
    assert game.first_dealer in (0, 1, 2, 3)
    assert game.first_dealer_flips
    other = GameFactory(scorekeepers=[keeper], first_dealer=None)
    url = reverse("scoring:game-first-dealer", args=[other.pk])
    assert client.post(url, {"seat": "3", "version": str(other.version)}).status_code == 302
    other.refresh_from_db()
    assert other.first_dealer == 3


def test_a_first_dealer_not_chosen_is_said_beside_the_choice(client, keeper):
    client.force_login(keeper)
    game = GameFactory(scorekeepers=[keeper], first_dealer=None)
    url = reverse("scoring:game-first-dealer", args=[game.pk])
    refused = client.post(url, {"set": "1", "version": str(game.version)})
    assert refused.status_code == 400
    page = refused.content.decode()
    beside = page.split('id="first-dealer-error">', 1)[1].split("</div>", 1)[0]
    assert beside == "Choose the player who deals first."
    assert 'aria-describedby="first-dealer-error"' in page
    assert 'id="pad-error"' not in page  # not in a banner above the page
    assert page.count(" required><label") == 4  # and the browser asks before sending


def test_undo_needs_confirmation(client, keeper, game):
    record_hands(game, 2)
    client.force_login(keeper)
    url = reverse("scoring:game-undo", args=[game.pk])
    version = str(game.version)
    assert f'name="version" value="{version}"' in client.get(url).content.decode()
    assert client.post(url, {"version": version}).status_code == 400
    assert client.post(url, {"confirm": "on", "version": version}).status_code == 302
    game.refresh_from_db()
    assert game.hands_played == 1


def test_undo_refuses_a_hand_the_page_did_not_show(client, keeper, game):
    record_hands(game, 2)
    client.force_login(keeper)
    url = reverse("scoring:game-undo", args=[game.pk])
    shown = str(game.version)  # the page shows hand 2 as the last
    record_hand(game)  # another score-pad enters hand 3
    refused = client.post(url, {"confirm": "on", "version": shown})
    assert refused.status_code == 400
    assert "changed since you read it" in str(refused.context["form"].non_field_errors())
    page = refused.content.decode()
    assert "Hand 3" in page  # the page now shows what would be undone
    assert f'name="version" value="{Game.objects.get(pk=game.pk).version}"' in page
    assert Hand.objects.active().count() == 3
    game.refresh_from_db()
    assert client.post(url, {"confirm": "on", "version": str(game.version)}).status_code == 302
    assert Hand.objects.active().count() == 2


def test_correct_a_hand_with_a_reason(client, keeper, game):
    first = record_hand(game, summary(caller=0, card_points=(92, 70)))
    record_hand(game, summary(caller=1, card_points=(70, 92)))
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    page = client.get(url)
    assert page.context["form"].initial["count"] == 92
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "60", "version": "1"}
    refused = client.post(url, data)
    assert refused.context["form"].errors["reason"]
    data["reason"] = "the count was 60, not 92"
    assert client.post(url, data).status_code == 302
    first.refresh_from_db()
    assert first.outcome == "bait"
    assert first.version == 2
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (0 + 70, 162 + 92)
    stale = client.post(url, {**data, "version": "1"})
    assert stale.status_code == 400
    assert "version" in str(stale.context["form"].non_field_errors())


def test_end_early_and_start_the_next_game(client, keeper, game):
    record_hand(game)
    client.force_login(keeper)
    game.refresh_from_db()
    response = client.post(
        reverse("scoring:game-end", args=[game.pk]),
        {"reason": "hall closing", "version": str(game.version)},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    response = client.post(reverse("scoring:game-next", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("scoring:game-pad", args=[new.pk])
    assert (new.team_a_id, new.team_b_id, new.seat_ids) == (
        game.team_a_id,
        game.team_b_id,
        game.seat_ids,
    )


def test_dispute_is_opened_and_its_verdict_shown(
    client, keeper, game, django_capture_on_commit_callbacks
):
    played = simulate_hand(game.engine_ruleset, random.Random(7), 0)
    record_hand(game, played.summary.to_json())
    client.force_login(keeper)
    url = reverse("scoring:hand-dispute", args=[game.pk, 1])
    tricks = "\n".join(" ".join(str(card) for card in trick) for trick in played.record.tricks)
    accused = (played.summary.caller + 1) % 4
    data = {"called_by": str((accused + 1) % 4), "accused": str(accused), "trick": "2"}
    # a record that could not have happened is rejected by the engine, with its reason
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {**data, "tricks": "JH JH JH JH"}).status_code == 302
    rejected = MisplayDispute.objects.get()
    assert rejected.status == MisplayDispute.Status.RECORD_REJECTED
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert "Record rejected" in page
    assert escape(rejected.reason) in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**data, "tricks": tricks})
    assert response.status_code == 302
    dispute = MisplayDispute.objects.exclude(pk=rejected.pk).get()
    # every card was played legally: the engine finds no misplay
    assert dispute.status == MisplayDispute.Status.NOT_PROVEN
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert f'data-dispute="{dispute.pk}" data-status="not_proven"' in page
    # its scorekeeper may not rule; a director upholds the verdict from the day's page form
    rule = reverse("scoring:dispute-rule", args=[dispute.pk])
    assert client.post(rule, {"ruling": "upheld", "next": "/"}).status_code == 403
    director = UserFactory(director=True)
    client.force_login(director)
    assert client.post(rule, {"ruling": "upheld", "next": "/"}).status_code == 302
    dispute.refresh_from_db()
    assert dispute.ruling == "upheld"


def test_casual_game_from_four_names(client, keeper):
    client.force_login(keeper)
    data = {
        "a_one": "Ann",
        "a_two": "Bob",
        "b_one": "Cy",
        "b_two": "Di",
        "table": "Kitchen",
        "ruleset_preset": "cape-breton-standard",
    }
    response = client.post(reverse("scoring:game-new"), data)
    game = Game.objects.get()
    assert response["Location"] == reverse("scoring:game-pad", args=[game.pk])
    assert [p.display_name for p in game.seats] == ["Ann", "Cy", "Bob", "Di"]
    assert services.user_can_keep_score(keeper, game)
    # the same names again: the same players and teams
    client.post(reverse("scoring:game-new"), data)
    second = Game.objects.exclude(pk=game.pk).get()
    assert (second.team_a_id, second.team_b_id) == (game.team_a_id, game.team_b_id)


def test_a_casual_pad_goes_back_only_to_a_page_of_this_site(client, keeper, game):
    client.force_login(keeper)
    url = reverse("scoring:game-pad", args=[game.pk])
    assert 'id="then"' not in client.get(url, {"then": "https://x.example/"}).content.decode()
    assert (
        'href="/tournaments/" id="then"'
        in client.get(url, {"then": "/tournaments/"}).content.decode()
    )


def test_a_casual_game_kept_private(client, keeper):
    client.force_login(keeper)
    form = client.get(reverse("scoring:game-new")).content.decode()
    assert 'id="id_public" checked' in form  # anyone may follow, unless unticked
    data = {"a_one": "Ann", "a_two": "Bob", "b_one": "Cy", "b_two": "Di"}
    data["ruleset_preset"] = "cape-breton-standard"
    client.post(reverse("scoring:game-new"), data)  # the box left unticked
    game = Game.objects.get()
    assert game.public is False
    page = client.get(reverse("scoring:game-detail", args=[game.pk])).content.decode()
    assert 'id="private-game"' in page


def test_a_private_game_is_not_found_by_others(client, keeper):
    game = GameFactory(scorekeepers=[keeper], public=False)
    record_hand(game)
    pages = [
        reverse("scoring:game-detail", args=[game.pk]),
        reverse("scoring:game-pad", args=[game.pk]),
        reverse("scoring:game-print", args=[game.pk]),
        reverse("tournaments:player-detail", args=[game.seat_0_id]),
    ]

    def seen() -> list[object]:
        answers = [client.get(url) for url in pages]
        listed = escape(game.team_b.name) in answers[-1].content.decode()
        return [a.status_code for a in answers[:-1]] + [listed]

    assert seen() == [404, 404, 404, False]
    client.force_login(UserFactory())
    assert seen() == [404, 404, 404, False]
    client.force_login(keeper)
    assert seen() == [200, 200, 200, True]


def test_game_page_has_chart_with_marks(client, game):
    record_hand(game, summary(caller=1, card_points=(100, 62)))  # bait
    record_hand(game, summary(caller=0, card_points=(81, 81)))  # half-bait
    page = client.get(reverse("scoring:game-detail", args=[game.pk])).content.decode()
    assert 'class="mark bait"' in page
    assert 'class="mark half_bait"' in page
    assert "<polyline" in page


def test_print_sheet_has_a_qr_code_of_the_pad(client, game):
    response = client.get(reverse("scoring:game-print", args=[game.pk]))
    page = response.content.decode()
    assert "<svg" in page
    assert f"/games/{game.pk}/pad/" in page
    assert '<svg role="img" aria-label="QR code that opens this game&#x27;s score-pad"' in page


def test_live_fragment_is_empty_when_nothing_changed(client, game):
    url = reverse("scoring:game-pad-sheet", args=[game.pk])
    assert client.get(url, {"version": game.version}).status_code == 204
    record_hand(game)
    game.refresh_from_db()
    response = client.get(url, {"version": game.version - 1})
    assert response.status_code == 200
    assert response["X-Game-Version"] == str(game.version)


def test_a_browser_asking_for_french_gets_the_pages_in_french_throughout(client, keeper):
    # The page says it is French, and its own text and Django's messages both are.
    client.force_login(keeper)
    response = client.post(reverse("scoring:game-new"), {}, HTTP_ACCEPT_LANGUAGE="fr")
    text = response.content.decode()
    assert '<html lang="fr-ca">' in text
    assert "Ce champ est obligatoire." in text
    assert "This field is required." not in text
    assert "Nouvelle partie" in text
    translation.deactivate()


def test_a_refusal_of_the_runs_is_shown_beside_the_runs(client, keeper, game):
    client.force_login(keeper)
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92"}
    data.update({"fifty_0": "1", "fifty_1": "1"})  # two fifties: the top cards decide
    response = client.post(reverse("scoring:game-hand-add", args=[game.pk]), data)
    assert response.status_code == 400
    text = response.content.decode()
    beside = text.split('data-error-for="runs">', 1)[1].split("</div>", 1)[0]
    names = escape(f"{game.seat_0.display_name} and {game.seat_1.display_name}")
    assert f"{names} each show a fifty" in beside
    assert "suits and top cards" in beside
    assert not game.hands.exists()


def test_a_dispute_without_its_trick_record_says_so_at_the_tricks_box(client, keeper, game):
    record_hand(game, summary(caller=0))
    client.force_login(keeper)
    url = reverse("scoring:hand-dispute", args=[game.pk, 1])
    data = {"called_by": "1", "accused": "0", "trick": "2", "tricks": ""}
    response = client.post(url, data)
    assert response.status_code == 400
    after_tricks = response.content.decode().split('name="tricks"', 1)[1]
    beside = after_tricks.split('id="id_tricks_error">', 1)[1].split("</div>", 1)[0]
    assert "trick record" in beside
    same_seat = client.post(url, {**data, "accused": "1"}).content.decode()
    assert "cannot call a misplay on themselves" in same_seat
    assert not MisplayDispute.objects.exists()


def test_field_errors_are_linked_to_their_inputs(client, keeper, game):
    # A screen reader reads a field's error with the field: the input names the error's id.
    pages = [
        client.post(reverse("login"), {"username": "", "password": ""}),
        client.post(reverse("login"), {"username": "", "password": "x"}),
    ]
    client.force_login(keeper)
    pages.append(client.post(reverse("scoring:game-new"), {"a_one": "Ann"}))
    pages.append(client.post(reverse("scoring:game-end", args=[game.pk]), {"version": "1"}))
    fields = ["id_username", "id_username", "id_a_two", "id_reason"]
    for response, field in zip(pages, fields, strict=True):
        text = response.content.decode()
        assert f'aria-describedby="{field}_error"' in text
        error = text.split(f'id="{field}_error"', 1)[1].split("</div>", 1)[0]
        assert "This field is required." in error


def test_a_refusal_is_a_page_of_the_site_with_the_way_back(client, keeper, game):
    played = simulate_hand(game.engine_ruleset, random.Random(7), 0)
    dispute = services.dispute_open(
        hand=record_hand(game, played.summary.to_json()),
        called_by=1,
        accused=2,
        trick=2,
        evidence=played.record.to_json(),
    )
    client.force_login(UserFactory())
    pad = reverse("scoring:game-pad", args=[game.pk])
    refusals = [
        (client.get(reverse("scoring:game-undo", args=[game.pk])), "scorekeepers and directors"),
        (client.post(reverse("scoring:game-hand-add", args=[game.pk]), {}), "scorekeepers"),
        (
            client.post(reverse("scoring:dispute-rule", args=[dispute.pk]), {"ruling": "upheld"}),
            "Only a director of this game rules on its disputes.",
        ),
    ]
    for response, said in refusals:
        text = response.content.decode()
        assert response.status_code == 403
        assert 'class="site-header"' in text
        assert "<h1>" in text
        assert said in text.split('id="forbidden-reason">', 1)[1]
        assert f'href="{pad}">Back to the game</a>' in text


def test_the_watching_notice_offers_sign_in_only_to_those_not_signed_in(client, game):
    pad = reverse("scoring:game-pad", args=[game.pk])
    sign_in = f'href="{reverse("login")}?next={pad}"'

    def notice() -> str:
        text: str = client.get(pad).content.decode()
        return text.split('id="watching">', 1)[1].split("</p>", 1)[0]

    assert sign_in in notice()
    client.force_login(UserFactory())
    said = notice()
    assert sign_in not in said
    assert "Sign in" not in said
    assert "your account is not one of its scorekeepers" in said
    assert "the person who started the game or a director" in said


def test_a_dispute_form_starts_with_no_player_chosen_and_names_players(client, keeper, game):
    record_hand(game, summary(caller=0))
    client.force_login(keeper)
    url = reverse("scoring:hand-dispute", args=[game.pk, 1])
    form = client.get(url).content.decode()
    for name in ("called_by", "accused"):
        select = form.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
        assert select.split("<option", 2)[1].startswith(' value="" selected>Choose a player')
    tricks_help = form.split('id="id_tricks_helptext">', 1)[1].split("</div>", 1)[0]
    assert "Needed: this hand was entered as a score-sheet line" in tricks_help
    assert 'name="tricks" cols="40" rows="9" autocapitalize="characters"' in form
    assert "required" in form.split('name="tricks"', 1)[1].split(">", 1)[0]

    # the form sent as it came: each missing choice said beside its own field, no seat named
    errors = client.post(url, {"trick": "1", "tricks": ""}).context["form"].errors
    assert errors["called_by"] == ["Choose the player who calls the misplay."]
    assert errors["accused"] == ["Choose the player accused of the misplay."]
    assert "trick record of this hand" in errors["tricks"][0]
    assert "seat" not in str(errors)

    names = [player.display_name for player in game.seats]
    data = {"called_by": "1", "accused": "1", "trick": "2", "tricks": "JH 9H AH 7H"}
    errors = client.post(url, data).context["form"].errors
    assert errors["accused"] == [
        f"{names[1]} cannot call a misplay on themselves: choose who is accused."
    ]
    errors = client.post(url, {**data, "accused": "3"}).context["form"].errors
    assert names[1] in errors["accused"][0]
    assert f"{names[3]} are partners" in errors["accused"][0]
    assert not MisplayDispute.objects.exists()


def test_a_dispute_on_a_hand_entered_trick_by_trick_may_leave_the_tricks_empty(
    client, keeper, game
):
    played = simulate_hand(game.engine_ruleset, random.Random(7), 0)
    record_hand(game, played.record.to_json(), entry_kind=Hand.EntryKind.TRICKS)
    client.force_login(keeper)
    url = reverse("scoring:hand-dispute", args=[game.pk, 1])
    form = client.get(url).content.decode()
    assert "The tricks, one per line (optional)" in form
    assert "Leave empty to judge the tricks entered with the hand." in form
    accused = (played.summary.caller + 1) % 4
    data = {"called_by": str((accused + 1) % 4), "accused": str(accused), "trick": "2"}
    assert client.post(url, data).status_code == 302
    assert MisplayDispute.objects.count() == 1


def test_too_many_runs_for_one_player_are_refused_beside_the_grid(client, keeper, game):
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92", "version": "1"}
    refused = client.post(url, {**data, "twenty_3": "4", "reason": "the runs were missed"})
    assert refused.status_code == 400
    page = refused.content.decode()
    seat_3 = game.seat_3.display_name
    assert f"{seat_3} cannot show 4 twenties: nine cards hold at most 3" in page
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


def test_the_grid_is_sent_as_each_players_runs_and_the_best_run_alone_counts(client, keeper, game):
    """Seat 0 showed a fifty and her partner seat 2 a twenty: only seat 0 counts her runs."""
    client.force_login(keeper)
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92"}
    data.update({"fifty_0": "1", "twenty_2": "1", "twenty_1": "1"})
    response = client.post(reverse("scoring:game-hand-add", args=[game.pk]), data)
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.entry["run_counts"] == [
        {"twenties": 0, "fifties": 1},
        {"twenties": 1, "fifties": 0},
        {"twenties": 1, "fifties": 0},
        {"twenties": 0, "fifties": 0},
    ]
    assert (hand.run_points_a, hand.run_points_b, hand.runs_counted_by) == (50, 0, 0)
    assert (hand.points_a, hand.points_b) == (142, 70)
    # the correction page shows each player's runs where they were entered
    initial = client.get(reverse("scoring:hand-correct", args=[game.pk, 1])).context["form"].initial
    grid = [(initial[f"twenty_{s}"], initial[f"fifty_{s}"]) for s in range(4)]
    assert grid == [(0, 1), (1, 0), (1, 0), (0, 0)]


def test_run_points_of_an_older_entry_fill_the_grid_of_one_player_then_the_partner(client, keeper):
    game = GameFactory(scorekeepers=[keeper], ruleset={"runs_count_for_team": True})
    record_hand(game, summary(caller=0, card_points=(92, 70), run_points=[140, 0]))
    client.force_login(keeper)
    url = reverse("scoring:hand-correct", args=[game.pk, 1])
    initial = client.get(url).context["form"].initial
    grid = [(initial[f"twenty_{s}"], initial[f"fifty_{s}"]) for s in range(4)]
    assert grid == [(0, 2), (0, 0), (2, 0), (0, 0)]
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92", "version": "1"}
    data.update({"fifty_0": "2", "twenty_2": "2", "reason": "the count was checked"})
    assert client.post(url, data).status_code == 302
    hand = Hand.objects.get()
    assert (hand.run_points_a, hand.run_points_b, hand.runs_counted_by) == (140, 0, 0)


def test_too_many_runs_for_nine_cards_are_refused_naming_the_player(client, keeper, game):
    client.force_login(keeper)
    data = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "92"}
    response = client.post(
        reverse("scoring:game-hand-add", args=[game.pk]), {**data, "twenty_2": "2", "fifty_2": "1"}
    )
    assert response.status_code == 400
    beside = response.content.decode().split('data-error-for="runs">', 1)[1].split("</div>")[0]
    name = escape(game.seat_2.display_name)
    assert f"{name} cannot show 2 twenties and a fifty: that is 10 cards in runs" in beside
    assert "run points" not in beside
    assert not game.hands.exists()


def test_a_thrown_in_hand_is_entered_with_both_teams_counts(client, keeper, game):
    client.force_login(keeper)
    url = reverse("scoring:game-hand-add", args=[game.pk])
    data = {"caller": "1", "trump": "H", "count_team": "team_b", "count": "40"}
    data["thrown_in_by"] = "0"
    refused = client.post(url, data)
    assert refused.status_code == 400
    beside = refused.content.decode().split('data-error-for="count">', 1)[1].split("</div>")[0]
    assert "give the other team&#x27;s" in beside
    assert 'id="id_other_count"' in refused.content.decode()
    assert client.post(url, {**data, "other_count": "30"}).status_code == 302
    hand = Hand.objects.get()
    assert hand.entry["card_points"] == [30, 40]  # team A's first
    assert (hand.outcome, hand.points_a, hand.points_b) == ("thrown_in", 30, 132)
    initial = client.get(reverse("scoring:hand-correct", args=[game.pk, 1])).context["form"].initial
    assert (initial["count_team"], initial["count"], initial["other_count"]) == ("team_a", 30, 40)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pad_sends_each_players_runs_and_takes_a_thrown_in_hand(page, sign_in):
    from playwright.sync_api import expect

    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper], first_dealer=3)
    names = [getattr(game, f"seat_{s}").display_name for s in range(4)]
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")

    def tap(name: str, value: str) -> None:
        radio = page.locator(f"input[name={name}][value='{value}']")
        page.click(f"label[for={radio.get_attribute('id')}]")

    preview, runs_error = page.locator("#preview"), page.locator("[data-error-for=runs]")
    # seat 0 a fifty, her partner seat 2 a twenty: her fifty alone counts (92 + 50)
    tap("caller", "0")
    tap("trump", "H")
    tap("count_team", "team_a")
    page.fill("input[name=count]", "92")
    page.click("#runs-fold > summary")  # runs and bella fold open only when needed
    page.fill("input[name=fifty_0]", "1")
    page.fill("input[name=twenty_2]", "1")
    expect(preview).to_contain_text("+142")
    # a fifty on each team: the counts cannot tell, said with the players' names
    page.fill("input[name=fifty_1]", "1")
    expect(runs_error).to_contain_text(f"{names[0]} and {names[1]} each show a fifty")
    expect(preview).not_to_contain_text("seat 0")
    page.fill("input[name=fifty_1]", "0")
    expect(runs_error).to_have_text("")
    page.click("#save-hand")
    expect(page.locator("#hand-1")).to_be_visible()
    hand = Hand.objects.get(game=game, number=1)
    assert [c["fifties"] for c in hand.entry["run_counts"]] == [1, 0, 0, 0]
    assert (hand.run_points_a, hand.runs_counted_by) == (50, 0)

    # a misplay and a throw-in together are refused; clearing both clears the refusal
    thrown_error = page.locator("[data-error-for=thrown_in_by]")
    tap("caller", "1")
    tap("trump", "S")
    page.click("details.field > summary")
    page.select_option("select[name=misplay_by]", "0")
    page.select_option("select[name=thrown_in_by]", "2")
    expect(thrown_error).to_contain_text("both thrown in and stopped for a misplay")
    page.select_option("select[name=misplay_by]", "")
    page.select_option("select[name=thrown_in_by]", "")
    expect(thrown_error).to_have_text("")

    # a thrown-in hand: the other team's count is asked for once "thrown in by" is chosen
    other = page.locator("input[name=other_count]")
    expect(other).to_be_hidden()
    page.select_option("select[name=thrown_in_by]", "0")
    expect(other).to_be_visible()
    tap("count_team", "team_b")
    page.fill("input[name=count]", "40")
    expect(page.locator("[data-error-for=count]")).to_contain_text("both teams' card points")
    other.fill("30")
    expect(preview).to_contain_text("+132")
    page.click("#save-hand")
    expect(page.locator("#hand-2")).to_be_visible()
    hand = Hand.objects.get(game=game, number=2)
    assert hand.entry["card_points"] == [30, 40]
    assert (hand.outcome, hand.points_a, hand.points_b) == ("thrown_in", 30, 132)
