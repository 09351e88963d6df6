# mypy: disable-error-code="no-untyped-call,attr-defined,operator"
"""Pages go out gzipped to clients that accept it; the API keeps its strong ETags."""

import gzip

import pytest
from django.test import Client

from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_page_is_sent_compressed_when_the_client_accepts_gzip() -> None:
    tournament = TournamentFactory(public=True)
    client = Client()
    plain = client.get(f"/tournaments/{tournament.slug}/")
    packed = client.get(f"/tournaments/{tournament.slug}/", HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in str(packed["Vary"])
    text = gzip.decompress(packed.content).decode()
    assert tournament.name in text
    assert len(packed.content) < len(plain.content)


def test_the_api_is_not_compressed_so_its_etags_stay_strong() -> None:
    tournament = TournamentFactory(public=True)
    answer = Client().get(f"/api/v1/tournaments/{tournament.slug}/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer.status_code == 200
    assert "Content-Encoding" not in answer
    assert answer["ETag"] == f'"{tournament.version}"'
