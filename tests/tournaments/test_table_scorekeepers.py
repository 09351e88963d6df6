# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,union-attr"
# mypy: disable-error-code="type-var,misc,assignment"
"""Who keeps score at a tournament's tables: a table sheet's QR code or PIN, and the accounts
its directors name. Each keeps score at its tables of its tournament, and does nothing else."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring_services
from scoring.models import Hand
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments import selectors, services
from tournaments.models import Match, TableKey, Tournament

pytestmark = pytest.mark.django_db

HAND = {"caller": "0", "trump": "H", "count_team": "team_a", "count": "100"}


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def _running(**values) -> tuple[Tournament, list[Match]]:
    """A tournament played today, its first round of two matches ready at tables 1 and 2."""
    today = timezone.localdate()
    tournament = tournament_ready(4, starts_on=today, ends_on=today, **values)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    matches = ready_matches(stage.pk)
    assert sorted(m.table for m in matches) == [1, 2]
    return tournament, sorted(matches, key=lambda m: m.table or 0)


def _director_client(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(tournament.organiser)
    return client


def _sheet_key(tournament: Tournament, match: Match) -> TableKey:
    """Print the match's sheet as its director does: the table's key is issued then."""
    response = _director_client(tournament).get(reverse("tournaments:match-sheet", args=[match.pk]))
    assert response.status_code == 200
    key = TableKey.objects.get(tournament=tournament, table=match.table, revoked_at=None)
    page = response.content.decode()
    assert reverse("tournaments:table-claim", args=[key.token]) in page
    assert key.pin in page
    return key


def _scan(key: TableKey) -> Client:
    """A phone that scans the sheet's code and taps its one button."""
    phone = Client()
    url = reverse("tournaments:table-claim", args=[key.token])
    asked = phone.get(url)
    assert asked.status_code == 200
    assert f"Keep score at table {key.table}" in asked.content.decode()
    response = phone.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournaments:table-pad", args=[key.tournament.slug, key.table]
    )
    return phone


def test_the_sheets_code_lets_a_phone_keep_score_at_its_table_and_nothing_more():
    tournament, (first, second) = _running()
    key = _sheet_key(tournament, first)
    phone = _scan(key)
    # the table's page leads to its match, whose next game the phone starts
    to_match = phone.get(reverse("tournaments:table-pad", args=[tournament.slug, first.table]))
    assert to_match["Location"] == reverse("tournaments:match-pad", args=[first.pk])
    page = phone.get(reverse("tournaments:match-detail", args=[first.pk])).content.decode()
    assert 'id="start-game"' in page
    assert 'id="forfeit"' not in page
    started = phone.post(reverse("tournaments:match-game-start", args=[first.pk]))
    assert started.status_code == 302
    game = first.match_games.get().game
    scoring_services.game_first_dealer_set(game=game, seat=0)
    entered = phone.post(reverse("scoring:game-hand-add", args=[game.pk]), HAND)
    assert entered.status_code == 302
    assert Hand.objects.filter(game=game).count() == 1
    account = key.account
    game.refresh_from_db()
    assert scoring_services.user_can_keep_score(account, game)
    assert not scoring_services.user_can_direct(account, game)
    # no other table, no forfeit
    refused = phone.post(reverse("tournaments:match-game-start", args=[second.pk]))
    assert refused.status_code == 403
    assert not second.match_games.exists()
    forfeit = phone.post(
        reverse("tournaments:match-forfeit", args=[first.pk]),
        {"version": str(first.version), "loser": "home", "confirmed": "yes"},
    )
    assert forfeit.status_code == 403
    first.refresh_from_db()
    assert first.winner_id is None
    # nor the director's page of scorekeepers
    assert phone.get(reverse("tournaments:scorekeepers", args=[tournament.slug])).status_code == 403


def test_a_new_sheet_closes_the_old_one_and_the_phones_signed_in_with_it():
    tournament, (first, _second) = _running()
    old = _sheet_key(tournament, first)
    phone = _scan(old)
    director = _director_client(tournament)
    url = reverse("tournaments:scorekeepers", args=[tournament.slug])
    page = director.get(url).content.decode()
    assert 'id="issue-1"' in page
    issued = director.post(url, {"act": "issue", "table": "1"})
    assert issued.status_code == 302
    new = TableKey.objects.get(tournament=tournament, table=1, revoked_at=None)
    assert (new.token, new.pin) != (old.token, old.pin)
    old.refresh_from_db()
    old.account.refresh_from_db()
    assert old.revoked_at is not None
    assert not old.account.is_active
    gone = Client().get(reverse("tournaments:table-claim", args=[old.token]))
    assert gone.status_code == 410
    assert "replaced by a new one" in gone.content.decode()
    # the phone signed in with the old sheet is signed out: it starts nothing
    refused = phone.post(reverse("tournaments:match-game-start", args=[first.pk]))
    assert refused.status_code == 302
    assert refused["Location"].startswith(reverse("login"))
    assert not first.match_games.exists()
    # the new sheet works
    _scan(new)


@pytest.mark.parametrize("how", ["finished", "yesterday"])
def test_yesterdays_sheet_opens_nothing(how):
    tournament, (first, _second) = _running()
    key = _sheet_key(tournament, first)
    game = services.match_game_start(match_id=first.pk, actor=None, first_dealer=0).game
    assert scoring_services.user_can_keep_score(key.account, game)
    if how == "finished":
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    else:
        yesterday = timezone.localdate() - dt.timedelta(days=1)
        Tournament.objects.filter(pk=tournament.pk).update(starts_on=yesterday, ends_on=yesterday)
    response = Client().get(reverse("tournaments:table-claim", args=[key.token]))
    assert response.status_code == 410
    assert not scoring_services.user_can_keep_score(key.account, game)
    assert (
        not Client()
        .post(reverse("tournaments:table-claim", args=[key.token]))
        .has_header("Location")
    )


def test_a_sheet_of_one_tournament_opens_no_table_of_another():
    tournament, (first, _second) = _running()
    _other, (other_first, _other_second) = _running()
    key = _sheet_key(tournament, first)
    assert other_first.table == first.table
    game = services.match_game_start(match_id=other_first.pk, actor=None, first_dealer=0).game
    assert not scoring_services.user_can_keep_score(key.account, game)
    assert not selectors.match_kept_by(other_first, key.account)


def test_a_code_never_issued_is_not_found():
    assert Client().get(reverse("tournaments:table-claim", args=["nonsense"])).status_code == 404


def test_the_pin_is_the_code_for_a_phone_without_a_camera():
    tournament, (first, second) = _running()
    key = _sheet_key(tournament, first)
    url = reverse("tournaments:table-pin", args=[tournament.slug])
    phone = Client()
    wrong = phone.post(url, {"table": "1", "pin": "x" if key.pin != "x" else "y"})
    assert wrong.status_code == 400
    assert "digits" in wrong.context["errors"]["pin"]
    other = "000000" if key.pin != "000000" else "111111"
    wrong = phone.post(url, {"table": "1", "pin": other})
    assert wrong.status_code == 400
    assert "not the PIN of table 1" in wrong.context["errors"]["pin"]
    no_table = phone.post(url, {"table": "", "pin": key.pin})
    assert "table" in no_table.context["errors"]
    # the right PIN of another table is wrong for this one
    _sheet_key(tournament, second)
    assert phone.post(url, {"table": "2", "pin": key.pin}).status_code in (302, 400)
    right = phone.post(url, {"table": "1", "pin": key.pin})
    assert right.status_code == 302
    assert right["Location"] == reverse("tournaments:table-pad", args=[tournament.slug, 1])
    assert phone.session["_auth_user_id"] == str(key.account.pk)


def test_pins_cannot_be_guessed_faster_than_passwords(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "3/minute",
        },
    }
    from rest_framework.settings import api_settings
    from rest_framework.throttling import SimpleRateThrottle

    api_settings.reload()
    SimpleRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    try:
        tournament, (first, _second) = _running()
        key = _sheet_key(tournament, first)
        url = reverse("tournaments:table-pin", args=[tournament.slug])
        phone = Client()
        statuses = [phone.post(url, {"table": "1", "pin": "999999"}).status_code for _ in range(3)]
        assert set(statuses) <= {400, 302}
        limited = phone.post(url, {"table": "1", "pin": key.pin})
        assert limited.status_code == 429
        assert "Too many attempts" in limited.content.decode()
    finally:
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK
        api_settings.reload()
        SimpleRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES


def test_a_director_names_a_scorekeeper_of_every_table_and_takes_them_off():
    tournament, (first, second) = _running()
    keeper = UserFactory(username="marie")
    director = _director_client(tournament)
    url = reverse("tournaments:scorekeepers", args=[tournament.slug])
    unknown = director.post(url, {"act": "add", "username": "nobody"})
    assert unknown.status_code == 400
    assert "no active account 'nobody'" in unknown.context["errors"]["username"]
    # a refusal is shown on an address that answers a reload
    assert director.get(url).status_code == 200
    assert director.post(url, {"act": "add", "username": "marie"}).status_code == 302
    assert "marie" in director.get(url).content.decode()
    games = [
        services.match_game_start(match_id=m.pk, actor=keeper, first_dealer=0).game
        for m in (first, second)
    ]
    assert all(scoring_services.user_can_keep_score(keeper, g) for g in games)
    assert not any(scoring_services.user_can_direct(keeper, g) for g in games)
    assert director.post(url, {"act": "remove", "user": str(keeper.pk)}).status_code == 302
    assert not tournament.scorekeepers.exists()
    outsider = UserFactory()
    assert not scoring_services.user_can_keep_score(outsider, games[0])


def test_a_table_account_is_not_named_a_scorekeeper_of_every_table():
    tournament, (first, _second) = _running()
    key = _sheet_key(tournament, first)
    director = _director_client(tournament)
    url = reverse("tournaments:scorekeepers", args=[tournament.slug])
    refused = director.post(url, {"act": "add", "username": key.account.username})
    assert refused.status_code == 400
    assert "table sheet's account" in refused.context["errors"]["username"]


def test_only_directors_print_a_sheet_with_its_code():
    tournament, (_first, _second) = _running()
    page = Client().get(reverse("tournaments:round-sheets", args=[tournament.slug]))
    text = page.content.decode()
    assert "PIN" not in text
    assert "/tables/" not in text
    assert not TableKey.objects.exists()
    printed = _director_client(tournament).get(
        reverse("tournaments:round-sheets", args=[tournament.slug])
    )
    keys = TableKey.objects.filter(tournament=tournament)
    assert keys.count() == 2
    for key in keys:
        assert key.pin in printed.content.decode()
    # printing again prints the same keys
    _director_client(tournament).get(reverse("tournaments:round-sheets", args=[tournament.slug]))
    assert TableKey.objects.filter(tournament=tournament).count() == 2


def test_only_directors_issue_sheets():
    tournament, _matches = _running()
    outsider = UserFactory()
    with pytest.raises(Exception, match="Only a director"):
        services.table_key_issue(tournament_id=tournament.pk, actor=outsider, table=1)
    assert not get_user_model().objects.filter(username__startswith="table-").exists()


def test_keeping_score_is_asked_in_one_query(django_assert_num_queries):
    tournament, (first, _second) = _running()
    key = _sheet_key(tournament, first)
    game = services.match_game_start(match_id=first.pk, actor=None, first_dealer=0).game
    account = key.account
    with django_assert_num_queries(1):
        assert selectors.game_kept_by(game.pk, account)
