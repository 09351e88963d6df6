"""ETag out, If-Match back: 428 without it, 412 when stale, 304 for an unchanged read."""

import pytest
from rest_framework.test import APIClient

from tarabish_site.api.errors import PreconditionFailed
from tarabish_site.api.versioning import ensure_version, etag_for

pytestmark = [pytest.mark.urls("tests.tarabish_site.plumbing_urls")]


def test_etags_are_strong_and_quoted() -> None:
    assert etag_for(7) == '"7"'


def test_ensure_version_refuses_an_old_version_in_words() -> None:
    ensure_version(current=3, expected=3)
    with pytest.raises(PreconditionFailed, match="you sent version 2, it is now at version 3"):
        ensure_version(current=3, expected=2, thing="hand")


def test_a_read_carries_the_etag() -> None:
    response = APIClient().get("/versioned/")
    assert response.status_code == 200
    assert response.headers["ETag"] == '"3"'


def test_a_change_with_the_current_version_passes() -> None:
    response = APIClient().put("/versioned/", {}, format="json", headers={"If-Match": '"3"'})
    assert response.status_code == 200
    assert response.headers["ETag"] == '"4"'


@pytest.mark.parametrize(
    ("if_match", "status", "code"),
    [
        (None, 428, "version_required"),
        ("", 428, "version_required"),
        ("*", 428, "version_required"),
        ('"2"', 412, "stale_version"),
        ('W/"3"', 412, "stale_version"),
        ("3", 400, "invalid_if_match"),
        ('"3", "4"', 400, "invalid_if_match"),
    ],
)
def test_a_change_without_the_current_version_is_refused(
    if_match: str | None, status: int, code: str
) -> None:
    headers = {} if if_match is None else {"If-Match": if_match}
    response = APIClient().put("/versioned/", {}, format="json", headers=headers)
    assert response.status_code == status
    body = response.json()
    assert body["code"] == code
    assert list(body["fields"]) == ["If-Match"]
    assert body["message"]


@pytest.mark.parametrize(
    ("if_none_match", "status"),
    [('"3"', 304), ('W/"3"', 304), ('"1", "3"', 304), ("*", 304), ('"2"', 200)],
)
def test_an_unchanged_read_is_304(if_none_match: str, status: int) -> None:
    response = APIClient().get("/versioned/", headers={"If-None-Match": if_none_match})
    assert response.status_code == status
    assert response.headers["ETag"] == '"3"'
    if status == 304:
        assert not response.content
