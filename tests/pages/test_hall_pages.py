# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""The hall's pages as its people meet them: no dead address after a refusal, the big screen's
games under way, how byes count in Swiss standings, ratings ranked alike on page and API."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services as scoring_services
from tests.scoring.factories import GameFactory, PlayerFactory, UserFactory, summary
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_match
from tournaments import services
from tournaments.models import PlayerRating

pytestmark = pytest.mark.django_db


def test_a_refused_hand_leaves_no_address_that_answers_405():
    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    client = Client()
    client.force_login(keeper)
    url = reverse("scoring:game-hand-add", args=[game.pk])
    refused = client.post(url, {"caller": "0", "trump": "H", "count_team": "team_a", "count": "1"})
    assert refused.status_code == 400
    reload = client.get(url)  # the browser's address after the refusal, loaded again
    assert reload.status_code == 302
    assert reload["Location"] == reverse("scoring:game-pad", args=[game.pk])
    first = client.get(reverse("scoring:game-first-dealer", args=[game.pk]))
    assert first["Location"] == reverse("scoring:game-pad", args=[game.pk])
    assert client.put(url).status_code == 405


def test_a_refused_director_act_leaves_no_address_that_answers_405():
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    client = Client()
    client.force_login(tournament.organiser)
    url = reverse("tournaments:match-forfeit", args=[match.pk])
    refused = client.post(url, {"version": str(match.version)})
    assert refused.status_code == 400
    back = reverse("tournaments:match-detail", args=[match.pk])
    for name in ("match-forfeit", "match-reset-confirm", "match-hold-clear", "match-game-start"):
        reload = client.get(reverse(f"tournaments:{name}", args=[match.pk]))
        assert (reload.status_code, reload["Location"]) == (302, back), name


def test_the_big_screen_shows_the_points_of_games_under_way_and_watches_them():
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = services.match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    scoring_services.hand_record(
        game=game, entry_kind="summary", entry=summary(caller=0, card_points=(100, 62))
    )
    game.refresh_from_db()
    page = Client().get(reverse("tournaments:big-screen", args=[tournament.slug])).content.decode()
    row = page.split(f"<strong>{match.table}</strong>", 1)[1].split("</tr>", 1)[0]
    assert f"<strong>{game.score_a}\N{EN DASH}{game.score_b}</strong>" in row
    assert (game.score_a, game.score_b) != (0, 0)
    assert f'data-watch-key="game/{game.pk}"' in row
    # no bracket: the standings and the matches side by side, no column left empty
    assert 'class="screen-grid with-bracket"' not in page
    grid = page.split('class="screen-grid">', 1)[1]
    assert grid.index("Standings") < grid.index("</section>") < grid.index("Now playing")


def test_swiss_standings_say_how_byes_count():
    tournament = tournament_ready(5)
    stage = add_stage(tournament, "swiss", swiss_rounds=2)
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    for match in ready_matches(stage.pk):
        win_match(match)
    services.standings_recompute(stage_id=stage.pk, force=True)
    page = Client().get(
        reverse("tournaments:tournament-detail", args=[tournament.slug]), {"stage": stage.pk}
    )
    legend = page.content.decode().split('class="byes">', 1)[1].split("</div>", 1)[0]
    assert "counts as a match won" in legend
    assert "not as a match played" in legend
    assert "Buchholz" in legend


def test_ratings_rank_alike_on_the_page_and_in_the_api():
    sure = PlayerRating.objects.create(player=PlayerFactory(), mu=25.0, sigma=1.0, matches=40)
    lucky = PlayerRating.objects.create(player=PlayerFactory(), mu=30.0, sigma=8.0, matches=1)
    assert lucky.mu > sure.mu
    assert lucky.ordinal < sure.ordinal
    page = Client().get(reverse("tournaments:rating-list")).content.decode()
    assert page.index(sure.player.display_name) < page.index(lucky.player.display_name)
    assert "less three times its uncertainty" in page
    api = Client().get("/api/v1/ratings/").json()["results"]
    assert [row["player"] for row in api] == [sure.player_id, lucky.player_id]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_big_screen_fills_a_projector_and_long_names_fit(browser, live_server):
    tournament = tournament_ready(4)
    entry = tournament.entries.order_by("seed").first()
    entry.team.name = "Alphonse Poirier-Boudreau & Marie-Madeleine MacLellan-Deveau"
    entry.team.save(update_fields=["name"])
    stage = add_stage(tournament, "round_robin")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    for match in ready_matches(stage.pk)[:1]:
        services.match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}
    )
    page = context.new_page()
    page.goto(f"/tournaments/{tournament.slug}/screen/")
    sections = page.locator(".screen-grid > section").all()
    assert len(sections) == 2
    widths = [section.bounding_box()["width"] for section in sections]
    assert min(widths) > 1920 * 0.3  # no empty third: both halves hold something
    size = float(page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)"))
    assert size >= 28  # read from the back of the hall
    for cell in page.locator(".now-playing td.teams, .standings td.team").all():
        assert cell.evaluate("el => el.scrollWidth <= el.clientWidth"), cell.inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


#: Where a bracket drawing ends on the screen, its width, and the size its names are seen at:
#: their type at the drawing's own scale, shrunk as the drawing is to fit its box.
NAMES_DRAWN = """(svg) => {
  const box = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  const font = parseFloat(getComputedStyle(svg.querySelector('text.name, text.bye')).fontSize);
  const scale = Math.min(box.width / view.width, box.height / view.height);
  return {width: box.width, bottom: box.bottom, type: font * scale};
}"""


def _double_elimination_on_the_projector(browser, live_server, teams, query="", names=()):
    """A double elimination of ``teams`` started (the first seeds' teams named ``names``), its
    big screen (with ``query``) open on a 1920 x 1080 projector: the browser context, its page
    and the stage."""
    tournament = tournament_ready(teams)
    for entry, name in zip(tournament.entries.order_by("seed"), names, strict=False):
        entry.team.name = name
        entry.team.save(update_fields=["name"])
    stage = add_stage(tournament, "double_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}
    )
    page = context.new_page()
    page.goto(f"/tournaments/{tournament.slug}/screen/{query}")
    return context, page, stage


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_running_bracket_takes_the_projectors_whole_width_and_fits_its_height(
    browser, live_server
):
    context, page, stage = _double_elimination_on_the_projector(browser, live_server, 8)
    drawn = page.locator("svg.bracket").evaluate(NAMES_DRAWN)
    assert drawn["width"] > 1920 * 0.9  # not a column beside the standings
    assert drawn["bottom"] <= 1080  # the grand final is on the screen, nobody scrolls
    assert drawn["type"] >= 15  # names at the drawing's own size or larger
    # what is played comes below it, on the same page
    first = ready_matches(stage.pk)[0]
    expect(page.locator(".now-playing")).to_contain_text(first.home.team.name)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tall_bracket_turns_a_part_at_a_time_readable_from_the_back(browser, live_server):
    long = [f"Alphonse Poirier-Boudreau & Marie-Madeleine MacLellan {n}" for n in range(4)]
    context, page, stage = _double_elimination_on_the_projector(
        browser, live_server, 32, "?turn=2", long
    )
    # names on two lines: the winners' side by quarters, the losers' side by halves, the last
    # of each as its first rounds and its last (as many rows and rounds as can be read)
    parts = page.locator(".bracket-page")
    expect(parts).to_have_count(8)
    expect(page.locator(".bracket-page:visible")).to_have_count(1)
    shown = page.locator(".bracket-page:visible").inner_text()
    drawn = page.locator(".bracket-page:visible svg.bracket").evaluate(NAMES_DRAWN)
    assert drawn["bottom"] <= 1080  # the part shown is on the screen, nobody scrolls
    # two seconds on, the next part
    expect(page.locator(".bracket-page:visible")).not_to_have_text(shown, timeout=5000)
    expect(page.locator(".bracket-page:visible")).to_have_count(1)
    context.close()
    # without scripts every part shows, one under the other: each read from the back
    still = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1920, "height": 1080},
        java_script_enabled=False,
    )
    every = still.new_page()
    every.goto(f"/tournaments/{stage.tournament.slug}/screen/")
    for part in every.locator(".bracket-page svg.bracket").all():
        drawn = part.evaluate(NAMES_DRAWN)
        assert drawn["type"] >= 14  # drawn whole, a 32-team bracket's names were 7 px
        assert part.bounding_box()["height"] <= 1080 * 0.72 + 1  # a screen's height at most
    still.close()
