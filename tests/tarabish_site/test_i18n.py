# mypy: disable-error-code="arg-type,no-untyped-call,misc,attr-defined"
"""French (fr-CA): the pages, the score-pad's words and the API's errors in the visitor's
language, chosen with the switch or by the browser's Accept-Language."""

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tarabish_site.api.messages import CODE_MESSAGES
from tests.play.helpers import table_with
from tests.scoring.api.conftest import client_for
from tests.scoring.factories import GameFactory, UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A request activates its language in the thread that served it and leaves it there:
    the tests after these go on in English."""
    yield
    translation.deactivate()


def _page(response: Any) -> str:
    assert response.status_code == 200
    return str(response.content.decode())


@pytest.mark.parametrize("accept", ["fr-CA,fr;q=0.9", "fr", "fr-FR", "fr-ca"])
def test_a_browser_asking_for_any_french_gets_canadian_french(client: Client, accept: str) -> None:
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=accept)
    page = _page(response)
    assert '<html lang="fr-ca">' in page
    assert ">Tournois</a>" in page
    assert "Pointez chaque main à la table" in page
    assert "Accept-Language" in response["Vary"]


def test_english_stays_the_default(client: Client) -> None:
    page = _page(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de,es;q=0.8"))
    assert '<html lang="en">' in page
    assert ">Tournaments</a>" in page


def test_the_switch_is_a_form_that_works_without_script_and_is_remembered(client: Client) -> None:
    page = _page(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en"))
    # One button a language, each named in its own language; the current one is marked.
    assert 'action="/i18n/setlang/"' in page
    assert 'value="fr-ca" lang="fr-ca">Français</button>' in page
    assert 'value="en" lang="en" aria-current="true" disabled>English</button>' in page

    answer = client.post(
        reverse("set_language"),
        {"language": "fr-ca", "next": reverse("tournaments:tournament-list")},
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournaments:tournament-list")
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr-ca"
    assert int(cookie["max-age"]) >= 300 * 24 * 3600  # outlives the browser session

    # The choice wins over the browser's language, on every page.
    page = _page(client.get(reverse("tournaments:tournament-list"), HTTP_ACCEPT_LANGUAGE="en"))
    assert '<html lang="fr-ca">' in page
    assert "Préparer un tournoi" in page or "Pas encore de tournois." in page
    assert 'value="fr-ca" lang="fr-ca" aria-current="true" disabled>Français</button>' in page

    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert ">Tournaments</a>" in _page(client.get(reverse("home"), **FRENCH))


def test_the_score_pad_and_its_script_words_are_in_french(client: Client) -> None:
    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper])
    client.force_login(keeper)
    response = client.get(reverse("scoring:game-pad", args=[game.pk]), **FRENCH)
    page = _page(response)
    assert '<html lang="fr-ca">' in page
    assert "Atout" in page
    words = response.context["config"]["words"]
    assert words["notSent"] == "Pas encore envoyée"
    assert words["countOne"].endswith("aucune carte ne vaut 1")
    assert "%(points)s" in words["countRange"]  # filled in by the script
    assert response.context["config"]["outcomes"]["bait"] == "Bête"


def test_a_game_s_rules_and_the_presets_are_said_in_french(client: Client) -> None:
    game = GameFactory()
    page = _page(client.get(reverse("scoring:game-detail", args=[game.pk]), **FRENCH))
    # the engine's phrases, the one with a number included
    assert "Le donneur peut passer" in page
    assert "Non\u00a0: le donneur est pris et doit nommer l&#x27;atout" in page
    assert f"{game.engine_ruleset.target} points" in page
    client.force_login(UserFactory())
    form = _page(client.get(reverse("scoring:game-new"), **FRENCH))
    assert "Standard du Cap-Breton" in form
    # English readers still get the engine's own words
    translation.deactivate()
    english = _page(
        client.get(reverse("scoring:game-detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert "No: the dealer is stuck and must name trump" in english


def test_a_tournament_page_is_in_french(client: Client) -> None:
    tournament = tournament_ready(4, slug="cheticamp")
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    page = _page(client.get(reverse("tournaments:tournament-detail", args=["cheticamp"]), **FRENCH))
    assert ">Phases</h2>" in page
    assert "Grand écran" in page
    assert '<span class="status running">En cours</span>' in page
    assert "Toutes rondes" in page  # the stage's kind, a model's choice label


def test_an_online_table_gives_its_script_french_words(client: Client) -> None:
    table, (player,) = table_with(1)
    client.force_login(player)
    response = client.get(reverse("play:table", args=[table.pk]), **FRENCH)
    page = _page(response)
    assert 'id="play-words"' in page
    words = response.context["words"]
    assert words["pass"] == "Passer"
    assert words["called"] == "%(name)s a appelé %(suit)s"
    assert words["hearts"] == "cœur"
    assert words["outcomes"]["half_bait"] == "Demi-bête"
    assert "Dernière levée" in page


def test_an_api_error_is_in_french_with_its_code_unchanged() -> None:
    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper])
    api = client_for(keeper)
    entry = {
        "entry_kind": "summary",
        "number": 1,
        "caller": 0,
        "trump": "S",
        "card_points": {"team": "team_a", "points": 161},
    }
    english = api.post(f"/api/v1/games/{game.pk}/hands/", entry, format="json")
    french = api.post(f"/api/v1/games/{game.pk}/hands/", entry, format="json", **FRENCH)
    assert english.status_code == french.status_code == 400
    assert english.json()["code"] == french.json()["code"] == "card_points_impossible"
    assert "impossible" in english.json()["message"]
    body = french.json()
    assert body["message"] == "Ces points de cartes sont impossibles."
    # the fields named are the same; the reason next to each is in French
    assert set(body["fields"]) == set(english.json()["fields"])
    assert all(reasons == [body["message"]] for reasons in body["fields"].values())


def test_the_api_s_own_answers_are_in_french(client: Client) -> None:
    missing = client.get("/api/v1/games/999999/", **FRENCH)
    assert missing.status_code == 404
    assert missing.json() == {
        "message": "Il n'y a rien à cette adresse.",
        "code": "not_found",
        "fields": {},
    }
    nowhere = client.get("/api/v1/no-such-thing/", **FRENCH)
    assert nowhere.json()["message"] == "Il n'y a rien à cette adresse."
    # DRF's own messages come from its French catalogue
    unauthenticated = client.post("/api/v1/games/", {}, **FRENCH)
    assert unauthenticated.status_code in {401, 403}
    assert "authentification" in unauthenticated.json()["message"].lower()


def test_every_error_code_the_code_raises_has_a_wording() -> None:
    """A new code without a wording would leave its message in English for French clients."""
    root = Path(settings.BASE_DIR)
    source = subprocess.run(
        [
            "/usr/bin/grep",
            "-rhoE",
            r'(code="|default_code = ")[a-z_]+"',
            "--include=*.py",
            "scoring",
            "tournaments",
            "tarabish_site",
            "play",
            "webhooks",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    raised = set(re.findall(r'"([a-z_]+)"', source))
    assert len(raised) > 100
    assert raised - set(CODE_MESSAGES) == set()
