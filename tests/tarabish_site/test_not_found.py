"""A page that is not found says so on a page of the site, with the way back."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_address_that_matches_nothing_gets_the_sites_page() -> None:
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="site-header"' in page
    assert "There is nothing at this address" in page
    assert 'href="/">To the front page</a>' in page
    assert "Resolver404" not in page


def test_a_pages_own_reason_is_said() -> None:
    response = Client().get("/tournaments/no-such-cup/")
    assert response.status_code == 404
    assert '<p class="notice error" id="not-found-reason">There is no such tournament.</p>' in (
        response.content.decode()
    )


def test_the_api_still_answers_in_its_error_shape() -> None:
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
