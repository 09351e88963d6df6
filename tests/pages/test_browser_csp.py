# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""The pages under their Content-Security-Policy in a real browser: the score-pad, the bracket,
the director's day and the admin work, and the browser reports no violation."""

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Hand
from tests.pages.test_browser_scorepad import fill_hand, save_hand
from tests.scoring.factories import GameFactory, UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments.models import Match
from tournaments.services import stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every violation the page reports, as the browser sees it.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
  `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def watched(page: Any) -> Any:
    """The page, listening for violations (in the page and on the console) on every load."""
    console: list[str] = []
    page.context.add_init_script(LISTEN)
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.console_violations = console
    return page


def no_violation(page: Any) -> None:
    assert page.evaluate("window.__violations") == []
    assert page.console_violations == []


def policy(response: Any) -> dict[str, str]:
    header = response.headers["content-security-policy"]
    return {part.split()[0]: part for part in (p.strip() for p in header.split(";")) if part}


def test_the_score_pad_enters_hands_under_the_policy(watched: Any, sign_in: Any) -> None:
    keeper = UserFactory()
    game = GameFactory(created_by=keeper)
    sign_in(keeper)
    response = watched.goto(f"/games/{game.pk}/pad/")
    directives = policy(response)
    assert directives["script-src"] == "script-src 'self'"
    assert directives["style-src"] == "style-src 'self'"
    host = response.url.split("/")[2]
    assert f"ws://{host}" in directives["connect-src"]
    expect(watched.locator("#hand-form")).to_be_visible()
    fill_hand(watched, caller=0, trump="H", team="team_a", count=92)
    save_hand(watched, 1)
    expect(watched.locator("#hand-title")).to_have_text("Hand 2")
    assert Hand.objects.filter(game=game).count() == 1
    watched.goto(f"/games/{game.pk}/")
    expect(watched.locator("svg").first).to_be_visible()
    watched.goto(f"/games/{game.pk}/print/")
    expect(watched.locator("#print-table")).to_be_visible()
    no_violation(watched)


def test_the_bracket_and_the_directors_day_under_the_policy(watched: Any, sign_in: Any) -> None:
    tournament = tournament_ready(6)
    stage = add_stage(tournament, "double_elim", grand_final="reset")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    win_match(Match.objects.get(stage=stage, key="W1-2"), "away")
    watched.goto(f"/tournaments/{tournament.slug}/")
    expect(watched.locator("svg.bracket [data-match='W2-1']")).to_be_visible()
    watched.goto(f"/tournaments/{tournament.slug}/screen/?every=2")
    expect(watched.locator("svg.bracket")).to_be_visible()
    sign_in(tournament.organiser)
    watched.goto(f"/tournaments/{tournament.slug}/director/")
    expect(watched.get_by_role("link", name="the whole tournament (JSON)")).to_be_visible()
    watched.goto(f"/tournaments/{tournament.slug}/sheets/")
    expect(watched.locator("#print")).to_be_visible()
    no_violation(watched)


def test_the_admin_works_under_the_policy(watched: Any, sign_in: Any) -> None:
    staff = UserFactory(username="operator", is_staff=True, is_superuser=True)
    game = GameFactory(created_by=staff)
    tournament = tournament_ready(4)
    sign_in(staff)
    watched.set_viewport_size({"width": 1280, "height": 900})
    response = watched.goto("/admin/")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    watched.goto(f"/admin/scoring/game/{game.pk}/change/")
    watched.fill("input[name=table]", "Table 9")
    watched.click("input[name=_save]")
    expect(watched.locator("ul.messagelist")).to_contain_text("was changed successfully")
    assert Game.objects.get(pk=game.pk).table == "Table 9"
    watched.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    expect(watched.locator("#tournament_form")).to_be_visible()
    watched.goto("/admin/tournaments/tournament/add/")
    expect(watched.locator("#tournament_form")).to_be_visible()
    watched.goto("/admin/scoring/game/")
    watched.locator("input.action-select").first.check()  # the admin's own script counts it
    expect(watched.locator(".action-counter")).to_contain_text("1 of")
    no_violation(watched)
