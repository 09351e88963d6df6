"""The front page offers each person the way in that fits them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.scoring.factories import UserFactory

pytestmark = pytest.mark.django_db

SET_UP = reverse("tournaments:tournament-setup")
SIGN_IN = reverse("login")
REGISTRATIONS = reverse("tournaments:my-registrations")


def front_page(client: Client) -> str:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_a_visitor_is_asked_to_sign_in(client: Client) -> None:
    page = front_page(client)
    assert f'href="{SIGN_IN}"' in page
    assert SET_UP not in page
    assert REGISTRATIONS not in page


def test_a_director_is_offered_to_set_up_a_tournament_and_may(client: Client) -> None:
    client.force_login(UserFactory.create(director=True))
    page = front_page(client)
    assert f'href="{SET_UP}">Set up a tournament</a>' in page
    assert "Sign in to run a tournament" not in page
    assert client.get(SET_UP).status_code == 200  # the page the button opens lets them in


def test_someone_signed_in_who_directs_nothing_is_shown_their_registrations(
    client: Client,
) -> None:
    client.force_login(UserFactory.create())
    page = front_page(client)
    assert f'href="{REGISTRATIONS}"' in page
    assert SET_UP not in page
    assert "Sign in to run a tournament" not in page
    assert client.get(SET_UP).status_code == 403  # as the page itself would have said


def test_the_front_page_reads_a_fixed_number_of_rows_for_someone_signed_in(
    client: Client, django_assert_num_queries: Any
) -> None:
    client.force_login(UserFactory.create())
    # the session, the account, then its own and its groups' permissions (Django's backend,
    # asked whether the account may direct)
    with django_assert_num_queries(4):
        front_page(client)
