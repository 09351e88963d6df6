# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""The pages of teams that register themselves: the form on the tournament's page and its
refusals next to the field, the partner's answer, a player's registrations, and the
director's window."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, TeamRegistration, Tournament
from tournaments.services import team_registration_create

pytestmark = pytest.mark.django_db
NOW = timezone.now()


def open_tournament(**values):
    values = {
        "slug": "legion-open",
        "status": Tournament.Status.REGISTRATION,
        "self_registration": True,
        "registration_closes_at": NOW + dt.timedelta(days=1),
        **values,
    }
    return TournamentFactory(**values)


DETAIL = "/tournaments/legion-open/"
REGISTER = "/tournaments/legion-open/register/"


def test_a_signed_in_player_sees_the_form_while_the_window_is_open(client):
    open_tournament()
    assert "Sign in to register a team" in client.get(DETAIL).content.decode()
    client.force_login(UserFactory())
    page = client.get(DETAIL).content.decode()
    assert 'id="register"' in page
    assert 'name="partner"' in page
    assert "Registration is open until" in page


def test_a_closed_window_shows_no_form(client):
    open_tournament(registration_closes_at=NOW - dt.timedelta(minutes=5))
    client.force_login(UserFactory())
    page = client.get(DETAIL).content.decode()
    assert "Registration is closed." in page
    assert 'name="partner"' not in page
    assert client.post(REGISTER, {"partner": "flora"}).status_code == 409


def test_a_tournament_without_self_registration_shows_nothing_of_it(client):
    tournament = open_tournament(self_registration=False)
    client.force_login(UserFactory())
    assert 'id="register"' not in client.get(DETAIL).content.decode()
    # a form posted all the same is told why
    refused = client.post(REGISTER, {"partner": "flora"})
    assert refused.status_code == 409
    assert "its directors register them" in refused.content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(
        self_registration=True, status=Tournament.Status.RUNNING
    )
    refused = client.post(REGISTER, {"partner": "flora"})
    assert "play has started" in refused.content.decode()


def test_a_refusal_is_shown_next_to_the_partner_field(client):
    open_tournament()
    angus = UserFactory(username="angus")
    client.force_login(angus)
    refused = client.post(REGISTER, {"partner": "angus", "team_name": "Bait"})
    assert refused.status_code == 400
    page = refused.content.decode()
    error = page.split('id="id_partner_error">', 1)[1].split("</div></div>", 1)[0]
    assert "name your partner, not yourself" in error
    assert 'value="Bait"' in page
    unknown = client.post(REGISTER, {"partner": "nobody"}).content.decode()
    assert "there is no account &#x27;nobody&#x27;" in unknown


def test_the_refusal_is_in_french_on_a_french_page(client):
    open_tournament()
    client.force_login(UserFactory(username="angus"))
    refused = client.post(REGISTER, {"partner": "angus"}, HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert "nommez votre partenaire, pas vous-même" in refused.content.decode()


def test_the_partner_confirms_from_the_tournament_page(client):
    tournament = open_tournament()
    angus, flora = UserFactory(username="angus"), UserFactory(username="flora")
    client.force_login(angus)
    made = client.post(REGISTER, {"partner": "flora", "team_name": "The Bait Shop"})
    assert made.status_code == 302
    page = client.get(DETAIL).content.decode()
    assert "the team is entered once flora confirms it" in page
    assert "Withdraw" in page
    assert 'name="partner"' not in page
    registration = TeamRegistration.objects.get()
    client.force_login(flora)
    page = client.get(DETAIL).content.decode()
    assert reverse("tournaments:registration-confirm", args=[registration.pk]) in page
    answered = client.post(
        reverse("tournaments:registration-confirm", args=[registration.pk]), {"next": DETAIL}
    )
    assert answered["Location"] == DETAIL
    assert "Confirmed: your team is entered." in client.get(DETAIL).content.decode()
    assert tournament.entries.get().team.name == "The Bait Shop"


def test_someone_else_cannot_confirm_and_is_told_why(client):
    open_tournament()
    angus, flora = UserFactory(), UserFactory()
    registration = team_registration_create(
        tournament_id=Tournament.objects.get().pk, actor=angus, partner=flora.username
    )
    client.force_login(angus)
    url = reverse("tournaments:registration-confirm", args=[registration.pk])
    answered = client.post(url, {"next": "https://elsewhere.example/"})
    assert answered["Location"] == reverse("tournaments:my-registrations")
    page = client.get(answered["Location"]).content.decode()
    assert "the partner named, confirms this team" in page
    assert not Entry.objects.exists()


def test_my_registrations_lists_both_sides_in_flat_queries(client, django_assert_max_num_queries):
    angus = UserFactory(username="angus")
    client.force_login(angus)
    for n in range(5):
        tournament = open_tournament(slug=f"open-{n}")
        if n % 2:
            team_registration_create(
                tournament_id=tournament.pk, actor=angus, partner=UserFactory().username
            )
        else:
            team_registration_create(
                tournament_id=tournament.pk, actor=UserFactory(), partner="angus"
            )
    with django_assert_max_num_queries(8):
        page = client.get(reverse("tournaments:my-registrations")).content.decode()
    assert page.count('class="registration"') == 5
    assert page.count(">Confirm</button>") == 3
    assert page.count(">Withdraw</button>") == 2


def test_the_tournament_page_costs_one_query_more_for_self_registration(
    client, django_assert_num_queries
):
    tournament = open_tournament(self_registration=False)
    client.force_login(UserFactory())
    client.get(DETAIL)  # the session and the site's first reads
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as without:
        client.get(DETAIL)
    Tournament.objects.filter(pk=tournament.pk).update(self_registration=True)
    with django_assert_num_queries(len(without.captured_queries) + 1):
        client.get(DETAIL)


def test_the_director_sets_the_window_and_cap(client):
    tournament = open_tournament(self_registration=False, registration_closes_at=None)
    client.force_login(tournament.organiser)
    day = reverse("tournaments:director-day", args=[tournament.slug])
    assert 'id="self-registration"' in client.get(day).content.decode()
    url = reverse("tournaments:director-registration", args=[tournament.slug])
    saved = client.post(
        url,
        {
            "self_registration": "on",
            "registration_opens_at": "2026-11-01T09:00",
            "registration_closes_at": "2026-11-20T21:00",
            "entry_cap": "8",
        },
    )
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert tournament.self_registration
    assert tournament.entry_cap == 8
    assert timezone.localtime(tournament.registration_closes_at).hour == 21
    assert 'value="2026-11-20T21:00"' in client.get(day).content.decode()
    backwards = client.post(
        url,
        {
            "self_registration": "on",
            "registration_opens_at": "2026-11-20T09:00",
            "registration_closes_at": "2026-11-01T09:00",
        },
    )
    assert backwards.status_code == 400
    page = backwards.content.decode()
    error = page.split('id="id_registration_closes_at_error">', 1)[1].split("</div></div>", 1)[0]
    assert "close after it opens" in error
    client.force_login(UserFactory())
    assert client.post(url, {"self_registration": "on"}).status_code == 403


def test_the_directors_day_lists_the_registrations_waiting_for_a_partner(
    client, django_assert_max_num_queries
):
    tournament = open_tournament()
    client.force_login(tournament.organiser)
    day = reverse("tournaments:director-day", args=[tournament.slug])
    with django_assert_max_num_queries(40) as few:
        assert 'id="registrations-pending"' not in client.get(day).content.decode()
    for n in range(4):
        team_registration_create(
            tournament_id=tournament.pk,
            actor=UserFactory(username=f"angus{n}"),
            partner=UserFactory(username=f"flora{n}").username,
            team_name=f"Bait {n}" if n else "",
        )
    with django_assert_max_num_queries(len(few.captured_queries) + 1):
        page = client.get(day).content.decode()
    pending = page.split('id="registrations-pending"', 1)[1].split("</ul>", 1)[0]
    assert pending.count("<li>") == 4
    assert "angus0 &amp; flora0" in pending
    assert "Bait 3: angus3 &amp; flora3" in pending
    assert "Waiting for partners to confirm (4)" in page


def test_the_list_of_tournaments_leads_to_the_form(client):
    open_tournament()
    open_tournament(slug="closed-shop", self_registration=False)
    open_tournament(slug="under-way", status=Tournament.Status.RUNNING)
    page = client.get(reverse("tournaments:tournament-list")).content.decode()
    assert page.count(">Register a team</a>") == 1
    assert f'href="{DETAIL}#register"' in page
