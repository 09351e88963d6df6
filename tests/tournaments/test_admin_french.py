# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,misc"
"""The admin in French: Django's own words come from its catalogue, and the service's own
(actions, columns, fieldsets, help texts, messages, refusals) from ours."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Game
from tests.scoring.factories import GameFactory, PlayerFactory, UserFactory, record_hands
from tests.tournaments.factories import TournamentFactory, add_stage, tournament_ready
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A request leaves its language active in the thread that served it."""
    yield
    translation.deactivate()


@pytest.fixture
def french_admin() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr-ca"
    return client


def _text(response: Any) -> str:
    assert response.status_code == 200
    return html.unescape(str(response.content.decode()))


def test_the_tournament_list_and_form_speak_french(french_admin: Client) -> None:
    tournament = TournamentFactory(name="Omble de Chéticamp")
    listing = _text(french_admin.get(reverse("admin:tournaments_tournament_changelist")))
    assert '<html lang="fr-ca"' in listing
    assert "Accueil" in listing  # Django's breadcrumbs, not the home team of a match
    assert "Omble de Chéticamp" in listing
    assert "Tournois" in listing  # the application
    for french, english in [
        ("Ouvrir les inscriptions", "Open registration"),  # an action
        ("Terminer et enregistrer le classement final", "Finish and store final placements"),
        ("Présences confirmées", "Checked in"),  # a column
        ("Équipes inscrites", ">Entries<"),
    ]:
        assert french in listing
        assert english not in listing
    form = _text(
        french_admin.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    )
    assert "Importer des équipes (CSV)" in form
    assert "Les règles de toutes les parties du tournoi" in form  # the ruleset's help
    assert "Règles de jeu" in form
    assert "Le marqueur de la table d'un match peut inscrire une partie" in form  # a model's help
    assert "Historique" in form  # the inline of finishes and reopenings
    for english in ("Import teams (CSV)", "The rules every game", "Custom ruleset"):
        assert english not in form
    imported = _text(
        french_admin.get(
            reverse("admin:tournaments_tournament_import_entries", args=[tournament.pk])
        )
    )
    assert "Fichier CSV" in imported
    assert 'value="Importer"' in imported
    assert "Accueil" in imported
    assert "Locale" not in imported


def test_the_game_list_and_form_speak_french(french_admin: Client) -> None:
    game = GameFactory.create(table="Table 4")
    record_hands(game, 1)
    listing = _text(french_admin.get(reverse("admin:scoring_game_changelist")))
    assert "Terminer avant la fin les parties en cours choisies (direction)" in listing
    assert "Rouvrir les parties finies choisies (direction)" in listing
    assert "Pointage" in listing
    assert "End the selected running games early" not in listing
    form = _text(french_admin.get(reverse("admin:scoring_game_change", args=[game.pk])))
    for french in (
        "Équipes et places",  # fieldsets
        "Résultat (selon le moteur)",
        "Premier donneur",
        "Le donneur peut passer",  # the ruleset in words
        "Nom de la table, p. ex. «\u00a0Table 4\u00a0»",  # a model's help text
        "Saisie",  # the hands' column of what was entered
    ):
        assert french in form, french
    for english in ("Teams and seats", "Result (from the engine)", "Dealer may pass"):
        assert english not in form


def test_the_actions_report_in_french(french_admin: Client) -> None:
    game = GameFactory.create()
    record_hands(game, 1)
    ended = _text(
        french_admin.post(
            reverse("admin:scoring_game_changelist"),
            {"action": "end_early", "_selected_action": [game.pk]},
            follow=True,
        )
    )
    assert "1 partie terminée avant la fin." in ended
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED
    # a refusal of a service: its code's wording, as the API says it
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.filter(stage=stage).first()
    refused = _text(
        french_admin.post(
            reverse("admin:tournaments_match_changelist"),
            {"action": "confirm_reset", "_selected_action": [match.pk]},
            follow=True,
        )
    )
    assert "Aucun résultat changé n'attend la direction dans ce match." in refused
    assert "holds no result change" not in refused
    matches = _text(french_admin.get(reverse("admin:tournaments_match_changelist")))
    assert "Locale" in matches  # the home team's column
    assert "en attente de la direction" in matches  # the filter of held results


def test_a_stage_s_tiebreakers_are_explained_and_refused_in_french(french_admin: Client) -> None:
    add = reverse("admin:tournaments_stage_add")
    form = _text(french_admin.get(add))
    assert "L'ordre des critères qui départagent les égalités" in form
    assert "The order that breaks ties" not in form
    tournament = TournamentFactory()
    refused = _text(
        french_admin.post(
            add,
            {"tournament": tournament.pk, "kind": "round_robin", "tiebreakers": "points"},
        )
    )
    assert "«\u00a0points\u00a0» n'est pas un critère de départage" in refused


def _says(text: str, french: list[str], english: list[str]) -> None:
    for said in french:
        assert said in text, said
    for unsaid in english:
        assert unsaid not in text, unsaid


def test_the_models_and_their_fields_are_named_in_french(french_admin: Client) -> None:
    """The names of the models and the labels of their fields (the lists' titles, columns and
    filters, the forms' labels) are the catalogue's, not the code's."""
    game = GameFactory.create()
    record_hands(game, 1)
    tournament = tournament_ready(4)
    services.stage_start(
        stage_id=add_stage(tournament, "single_elim").pk, actor=tournament.organiser
    )
    index = _text(french_admin.get(reverse("admin:index")))
    _says(
        index,
        ["Parties", "Versions de mains", "Contestations de fautes", "Équipes inscrites", "Phases"],
        [">Games<", ">Hand revisions<", ">Misplay disputes<", ">Stages<"],
    )

    tournaments = _text(french_admin.get(reverse("admin:tournaments_tournament_changelist")))
    _says(
        tournaments,
        ["objet tournoi", "Premier jour", "Lieu", "Visible de tous", "Par premier jour"],
        ["tournament to change", "Starts on", ">Venue<", "By starts on"],
    )
    added = _text(french_admin.get(reverse("admin:tournaments_tournament_add")))
    _says(
        added,
        ["Ajout de tournoi", "Identifiant d'adresse", "Dernier jour", "Formule des matchs"],
        ["Add tournament", "Slug:", "Ends on", "Match format"],
    )

    games = _text(french_admin.get(reverse("admin:scoring_game_changelist")))
    _says(
        games,
        [
            "objet partie",
            "Pointage de l'équipe A",
            "Équipe gagnante",
            "Mains jouées",
            "Par choix du premier donneur",
        ],
        ["game to change", "Score a", "Hands played", ">Team a<", "By first dealer method"],
    )
    changed = _text(french_admin.get(reverse("admin:scoring_game_change", args=[game.pk])))
    _says(
        changed,
        [
            "Place 0",
            "Place forcée d'appeler",
            "Prochain donneur",
            "Genre de saisie",
            "Qui a appelé",
        ],
        ["Seat 0", "Seat 1", "Forced seat", "Next dealer", "Entry kind", ">Caller<"],
    )

    matches = _text(french_admin.get(reverse("admin:tournaments_match_changelist")))
    _says(matches, ["objet match", "Numéro de table", "Raison de la retenue"], ["Held reason"])
    entries = _text(french_admin.get(reverse("admin:tournaments_entry_changelist")))
    _says(
        entries,
        ["objet équipe inscrite", "Tête de série", "Présence confirmée", "Rang final"],
        ["entry to change", "Checked in", "Final place"],
    )
    stage = _text(french_admin.get(reverse("admin:tournaments_stage_add")))
    _says(
        stage,
        ["Ajout de phase", "Nombre de poules", "Qualifiés par poule", "Critères de départage"],
        ["Add stage", "Pool count", "Qualifiers per pool"],
    )
    players = _text(french_admin.get(reverse("admin:scoring_player_changelist")))
    _says(players, ["objet joueur", "Nom affiché", "Par communauté"], ["Display name"])


def test_the_registration_window_is_explained_in_french(french_admin: Client) -> None:
    tournament = TournamentFactory()
    form = _text(
        french_admin.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    )
    _says(
        form,
        [
            "Les joueurs connectés inscrivent eux-mêmes leur équipe",
            "Les équipes s'inscrivent elles-mêmes à partir de ce moment",
            "Les équipes s'inscrivent elles-mêmes jusqu'à ce moment",
        ],
        ["Signed-in players register", "Teams register themselves"],
    )


def test_a_refused_row_is_explained_in_french(french_admin: Client) -> None:
    """A constraint of the database says why it refuses a row in the catalogue's words."""
    PlayerFactory(display_name="Marie MacLellan", community="Chéticamp")
    refused = _text(
        french_admin.post(
            reverse("admin:scoring_player_add"),
            {"display_name": "Marie MacLellan", "community": "Chéticamp"},
        )
    )
    _says(
        refused,
        ["Un joueur de ce nom joue déjà pour cette communauté\u00a0: choisissez ce joueur"],
        ["A player with this name already plays from this community"],
    )
