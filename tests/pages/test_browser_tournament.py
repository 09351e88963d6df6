# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""Bracket and standings pages in a real browser, before and after results change."""

import re

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments.models import Match
from tournaments.services import stage_start, standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bracket_follows_results_and_the_big_screen_updates_itself(page):
    tournament = tournament_ready(6)
    stage = add_stage(tournament, "double_elim", grand_final="reset")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)

    page.goto(f"/tournaments/{tournament.slug}/")
    bracket = page.locator("svg.bracket")
    expect(bracket).to_be_visible()
    expect(bracket.locator("text.bye").first).to_be_visible()
    semi = bracket.locator("[data-match='W2-1']")
    expect(semi).to_contain_text("Winner W1-2")

    screen = page.context.new_page()
    screen.set_viewport_size({"width": 1366, "height": 900})
    screen.goto(f"/tournaments/{tournament.slug}/screen/?every=2")
    expect(screen.locator("svg.bracket [data-match='W2-1']")).to_contain_text("Winner W1-2")

    # (the screen holds its polls while the result is written: SQLite shares one file)
    page.context.set_offline(True)
    match = win_match(Match.objects.get(stage=stage, key="W1-2"), "away")
    page.context.set_offline(False)

    # the big screen redraws by itself: the winner moves on, the loser drops down
    semi = screen.locator(f"svg.bracket [data-match='W2-1'] rect[data-entry='{match.away_id}']")
    expect(semi).to_have_count(1, timeout=15_000)
    dropped = screen.locator(f"svg.bracket [data-match='L1-1'] rect[data-entry='{match.home_id}']")
    expect(dropped).to_have_count(1)
    expect(screen.locator("svg.bracket [data-match='W2-1']")).to_contain_text(match.away.team.name)

    # the tournament page after a reload: the result, and the winner's path when followed
    page.reload()
    expect(bracket.locator("[data-match='W1-2']")).to_contain_text("1")
    page.select_option("#follow-team", str(match.away_id))
    page.click("form.follow button")
    expect(page.locator("rect.slot.path")).to_have_count(2)
    screen.close()


def test_pool_standings_after_results(page):
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    page.goto(f"/tournaments/{tournament.slug}/")
    expect(page.locator(".standings-pool, .stage").first).to_be_visible()

    first = Match.objects.filter(stage=stage, state=Match.State.READY).order_by("pk").first()
    first = win_match(first, "home")
    standings_recompute(stage_id=stage.pk, force=True)
    page.reload()
    leader = page.locator("table.standings tbody tr").first
    expect(leader.locator("td.rank")).to_have_text("1")
    expect(leader).to_contain_text(first.home.team.name)
    expect(leader).to_contain_text("1\u20130")
    expect(page.locator(".tiebreakers")).to_contain_text("Head-to-head")
    # the schedule shows the result at its table
    page.click("text=The whole schedule")
    row = page.locator(f"tr[data-match='{first.pk}']")
    expect(row).to_contain_text("Complete")


def test_the_directors_day_keeps_a_ruling_being_written_while_it_refreshes(
    page, sign_in, browser_context
):
    import random

    from scoring import services as scoring_services
    from scoring.engine import simulate_hand
    from scoring.models import MisplayDispute
    from tournaments.services import match_game_start

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    played = simulate_hand(game.engine_ruleset, random.Random(5), 0)
    hand = scoring_services.hand_record(
        game=game, entry_kind="summary", entry=played.summary.to_json()
    )
    dispute = scoring_services.dispute_open(
        hand=hand, called_by=1, accused=2, trick=2, evidence=played.record.to_json()
    )
    sign_in(tournament.organiser)
    page.clock.install()
    page.goto(f"/tournaments/{tournament.slug}/director/")
    region = page.locator("#day-live")
    expect(page.locator(f"#note-{dispute.pk}")).to_be_visible()

    # Nothing new (the forms' CSRF tokens differ at every render): the day is left alone.
    with page.expect_response(re.compile("/director/live/")):
        page.clock.run_for(11_000)
    page.wait_for_timeout(500)
    assert region.get_attribute("data-refreshed-at") is None

    # Nothing filled in and the day changed: it is redrawn on the next refresh.
    MisplayDispute.objects.filter(pk=dispute.pk).update(reason="read by the engine at 9")
    page.clock.run_for(11_000)
    expect(region).to_contain_text("read by the engine at 9")
    first = region.get_attribute("data-refreshed-at")

    # A ruling begun, then the director looks away; the day changes meanwhile.
    page.click(f"label[for=overrule-{dispute.pk}]")
    page.fill(f"#note-{dispute.pk}", "the seat 2 player had a heart")
    page.locator("h1").click()
    MisplayDispute.objects.filter(pk=dispute.pk).update(reason="read again by the engine")
    page.clock.run_for(11_000)
    page.wait_for_timeout(1_000)
    assert region.get_attribute("data-refreshed-at") == first
    expect(page.locator(f"#note-{dispute.pk}")).to_have_value("the seat 2 player had a heart")
    expect(page.locator(f"#overrule-{dispute.pk}")).to_be_checked()

    # Emptied again, the form no longer holds the day back.
    page.fill(f"#note-{dispute.pk}", "")
    page.click(f"label[for=uphold-{dispute.pk}]")
    page.locator("h1").click()
    page.clock.run_for(11_000)
    expect(region).to_contain_text("read again by the engine")

    # Overruling with no note is stopped beside the note, the choice kept; with one, it is sent.
    page.click(f"label[for=overrule-{dispute.pk}]")
    page.click(f"article[data-dispute='{dispute.pk}'] button[type=submit]")
    expect(page.locator(f"#note-error-{dispute.pk}")).to_have_text(
        "Say why the verdict is overruled."
    )
    expect(page.locator(f"#overrule-{dispute.pk}")).to_be_checked()
    assert MisplayDispute.objects.get(pk=dispute.pk).ruling == "none"
    page.fill(f"#note-{dispute.pk}", "the seat 2 player had a heart")
    page.click(f"article[data-dispute='{dispute.pk}'] button[type=submit]")
    page.wait_for_url(re.compile("/director/$"))
    assert MisplayDispute.objects.get(pk=dispute.pk).ruling == "overruled"

    # Signed out meanwhile (the session ended): the refresh is sent to signing in, and the day
    # is left as it is, not replaced by the sign-in page.
    browser_context.clear_cookies()
    with page.expect_response(re.compile("/director/live/")):
        page.clock.run_for(11_000)
    page.wait_for_timeout(500)
    assert region.get_attribute("data-refreshed-at") is None
    expect(region.locator("input[name=password]")).to_have_count(0)


def test_every_page_a_director_or_a_player_opens_fits_a_phone(page, sign_in):
    """No page scrolls sideways at a phone's width (the big screen is for the hall's
    projector and is left out)."""
    from tournaments.services import match_game_start

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    team = match.home.team
    sign_in(tournament.organiser)
    paths = [
        "/",
        "/tournaments/",
        f"/tournaments/{tournament.slug}/",
        f"/tournaments/{tournament.slug}/schedule/",
        f"/tournaments/{tournament.slug}/director/",
        f"/tournaments/{tournament.slug}/sheets/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/sheet/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/pad/",
        f"/games/{game.pk}/print/",
        f"/teams/{team.pk}/",
        f"/players/{team.player_one_id}/",
    ]
    wide = {}
    for path in paths:
        assert page.goto(path).status == 200, path
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        if width[0] > width[1]:
            wide[path] = width[0]
    assert wide == {}


@pytest.mark.parametrize("kind", ["round_robin", "double_elim"])
def test_the_big_screen_fits_a_phone(page, kind):
    """The hall's screen, opened on a phone (a player checking the standings from a seat),
    does not scroll sideways: a wide table or bracket scrolls in its own box."""
    import random

    from tournaments.demo import stage_play_simulated
    from tournaments.services import stage_advance

    tournament = tournament_ready(8)
    pools = add_stage(tournament, "round_robin", pool_count=2)
    add_stage(tournament, "double_elim", qualifiers_per_pool=3, grand_final="reset")
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    stage_play_simulated(
        stage_id=pools.pk, rng=random.Random(7), limit=None if kind == "double_elim" else 1
    )
    standings_recompute(stage_id=pools.pk, force=True)
    if kind == "double_elim":
        stage_advance(tournament_id=tournament.pk, actor=tournament.organiser)
    page.goto(f"/tournaments/{tournament.slug}/screen/")
    expect(page.locator("table.standings").first).to_be_visible()
    if kind == "double_elim":
        expect(page.locator("svg.bracket")).to_be_visible()
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
