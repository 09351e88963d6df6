"""An id no row can have is not found (404), or refused as a filter (400), in the error shape:
never a database error."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

HUGE = "9" * 20


@pytest.mark.parametrize(
    "path",
    [
        f"/api/v1/games/{HUGE}/",
        f"/api/v1/games/{HUGE}/hands/",
        f"/api/v1/games/{HUGE}/hands/1/",
        f"/api/v1/players/{HUGE}/",
        f"/api/v1/teams/{HUGE}/",
        f"/api/v1/disputes/{HUGE}/",
        f"/api/v1/matches/{HUGE}/",
        f"/api/v1/ratings/{HUGE}/",
        "/api/v1/ratings/abc/",
        "/api/v1/players/abc/",
    ],
)
def test_reading_an_id_no_row_can_have_is_404(path: str) -> None:
    response = APIClient().get(path)
    assert response.status_code == 404
    assert set(response.json()) == {"message", "code", "fields"}


@pytest.mark.parametrize(
    "path",
    [
        f"/api/v1/games/{HUGE}/hands/",
        f"/api/v1/games/{HUGE}/end-early/",
        f"/api/v1/matches/{HUGE}/games/",
    ],
)
def test_writing_to_an_id_no_row_can_have_is_404(path: str) -> None:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("writer"))
    response = client.post(path, {}, format="json", headers={"If-Match": '"1"'})
    assert response.status_code == 404
    assert set(response.json()) == {"message", "code", "fields"}


def test_a_filter_by_an_id_no_row_can_have_is_400_naming_it() -> None:
    response = APIClient().get("/api/v1/disputes/", {"game": HUGE})
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["game"]
