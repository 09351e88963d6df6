"""The Content-Security-Policy: on every answer, with the site's own WebSocket, changed by a
view for itself, and templates that need no inline script or style."""

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.scoring.factories import GameFactory, UserFactory

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/tournaments/", "/games/{game}/pad/", "/admin/", "/api/v1/games/", "/healthz"]
)
def test_every_answer_has_the_strict_policy(client: Client, path: str) -> None:
    game = GameFactory.create()
    client.force_login(UserFactory.create(username="operator", is_staff=True, is_superuser=True))
    answer = client.get(path.format(game=game.pk))
    assert answer.status_code == 200
    policy = directives(answer["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"]


@pytest.mark.django_db
def test_over_https_only_the_secure_websocket(client: Client) -> None:
    answer = client.get("/", secure=True)
    assert directives(answer["Content-Security-Policy"])["connect-src"] == [
        "'self'",
        "wss://testserver",
    ]


@pytest.mark.urls("tests.tarabish_site.csp_urls")
def test_a_view_changes_the_policy_for_itself(client: Client) -> None:
    embed = client.get("/embed/")
    assert directives(embed["Content-Security-Policy"])["frame-ancestors"] == ["*"]
    assert "X-Frame-Options" not in embed
    assert directives(embed["Content-Security-Policy"])["script-src"] == ["'self'"]
    plain = client.get("/plain/")
    assert directives(plain["Content-Security-Policy"])["frame-ancestors"] == ["'none'"]


def test_only_redoc_may_add_styles_to_its_page(client: Client) -> None:
    redoc = directives(client.get("/api/redoc/")["Content-Security-Policy"])
    assert redoc["style-src"] == ["'self'", "'unsafe-inline'"]
    assert redoc["script-src"] == ["'self'"]
    swagger = client.get("/api/docs/")
    assert directives(swagger["Content-Security-Policy"])["style-src"] == ["'self'"]
    assert b"<script>" not in swagger.content
    assert b"fonts.googleapis.com" not in client.get("/api/redoc/").content


INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def test_no_template_has_an_inline_script_style_or_handler() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []
