"""``make screenshots``: pictures of the score-pad, a bracket and standings (the pad and standings
in French too), and the director's setup page filled in, at phone and desktop widths, written
to ``screenshots/`` so anyone can see what the pages show.

It builds its own small world in a throw-away SQLite database (a game in progress with a bait
and a half-bait, a tournament with pools and a double elimination bracket part-way through),
all through the services, serves it on a local port and photographs it with Debian's Chromium
through Playwright. Nothing outside the temporary directory is touched.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = {"phone": (390, 844), "desktop": (1366, 900)}
TEAM_NAMES = [
    ("Glace Bay Jacks", "Angus MacNeil", "Mary MacDonald"),
    ("Cheticamp Fifties", "Rene Aucoin", "Julie Chiasson"),
    ("Baddeck Bellas", "Ian MacLeod", "Ruth Morrison"),
    ("Sydney Mines Runs", "Peter Burke", "Anne Gillis"),
    ("North Sydney Nines", "Donald Ferguson", "Carol Hines"),
    ("Dominion Trumps", "Frank Campbell", "Lisa MacKinnon"),
    ("Louisbourg Kitty", "Joe Kennedy", "Sarah Boutilier"),
    ("Port Hood Passers", "Neil Beaton", "Jean MacIsaac"),
]


def _setup(tmp: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/screenshots.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tarabish_site.settings"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    os.environ["LOG_LEVEL"] = "WARNING"
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _teams() -> list[Any]:
    from scoring import services

    teams = []
    for name, one, two in TEAM_NAMES:
        first = services.player_create(display_name=one, community="Cape Breton")
        second = services.player_create(display_name=two, community="Cape Breton")
        teams.append(services.team_create(player_one=first, player_two=second, name=name))
    return teams


def _hand(game: Any, caller: int, trump: str, team: str, points: int, **more: Any) -> None:
    from scoring import services

    entry = {
        "caller": caller,
        "trump": trump,
        "card_points": {"team": team, "points": points},
        **more,
    }
    services.hand_record(game=game, entry_kind="summary", entry=entry)


def _game_in_progress(keeper: Any, teams: list[Any]) -> Any:
    from scoring import services

    game = services.game_create(
        team_a=teams[0], team_b=teams[1], first_dealer=3, table="Table 4", created_by=keeper
    )
    _hand(game, 0, "H", "team_a", 96)
    _hand(game, 1, "S", "team_b", 58)  # team B baited
    _hand(game, 2, "D", "team_a", 81)  # a half-bait
    _hand(game, 3, "C", "team_b", 102, bella_seat=3)
    _hand(game, 0, "S", "team_a", 110, run_points=[20, 0])
    return game


def _win_game(match: Any, director: Any, home_wins: bool) -> None:
    from scoring.models import Game
    from tournaments import services

    link = services.match_game_start(match_id=match.pk, actor=director, first_dealer=0)
    game = link.game
    caller, team = (0, "team_a") if home_wins else (1, "team_b")
    while game.status == Game.Status.IN_PROGRESS:
        _hand(game, (caller + 2 * (game.hands_played % 2)) % 4, "H", team, 130)
        game.refresh_from_db()
    services.match_sync(match_id=match.pk)


def _checked_in(director: Any, name: str, day: date, venue: str, teams: list[Any]) -> Any:
    """A tournament with ``teams`` entered, seeded in that order and checked in."""
    from tournaments import services

    tournament = services.tournament_create(
        actor=director,
        name=name,
        starts_on=day,
        venue=venue,
        ruleset_preset="cape-breton-standard",
    )
    services.tournament_open_registration(tournament_id=tournament.pk, actor=director)
    for seed, team in enumerate(teams, start=1):
        entry = services.entry_register(
            tournament_id=tournament.pk, actor=director, team_id=team.pk, seed=seed
        )
        services.entry_check_in(entry_id=entry.pk, actor=director)
    services.tournament_open_check_in(tournament_id=tournament.pk, actor=director)
    services.checkin_process(tournament_id=tournament.pk, actor=director)
    return tournament


def _tournament(director: Any, teams: list[Any]) -> tuple[Any, Any, Any]:
    from tournaments import services
    from tournaments.models import Match

    venue = "Royal Canadian Legion, Glace Bay"
    tournament = _checked_in(director, "Legion Hall Fall Open", date(2026, 11, 21), venue, teams)
    pools = services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind="round_robin",
        name="Pools",
        pool_count=2,
    )
    services.stage_start(stage_id=pools.pk, actor=director)
    # play the pools out: the better seed wins, except one upset per pool
    for number, match in enumerate(
        Match.objects.filter(stage=pools).order_by("round__number", "pk")
    ):
        match.refresh_from_db()
        if match.state != Match.State.READY or match.home is None or match.away is None:
            continue
        home_better = (match.home.seed or 0) < (match.away.seed or 0)
        _win_game(match, director, home_better if number % 5 else not home_better)
    services.standings_recompute(stage_id=pools.pk, force=True)
    knockout = services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind="double_elim",
        name="Double elimination",
        grand_final="reset",
    )
    services.stage_advance(tournament_id=tournament.pk, actor=director)
    knockout.refresh_from_db()
    played = 0
    for match in Match.objects.filter(stage=knockout).order_by("round__number", "pk"):
        match.refresh_from_db()
        if match.state == Match.State.READY and played < 5:
            _win_game(match, director, home_wins=played % 3 != 1)
            played += 1
    ready = Match.objects.filter(stage=knockout, state=Match.State.READY).first()
    if ready is not None:
        link = services.match_game_start(match_id=ready.pk, actor=director, first_dealer=0)
        _disputed_hand(link.game, director)
    return tournament, pools, knockout


def _large_knockout(director: Any) -> Any:
    """A 32-team double elimination under way: too big for the big screen whole, which shows
    it in parts."""
    from scoring import services as scoring
    from tournaments import services

    teams = []
    for n in range(1, 33):
        one = scoring.player_create(display_name=f"Player {2 * n - 1}", community="Sydney")
        two = scoring.player_create(display_name=f"Player {2 * n}", community="Sydney")
        teams.append(scoring.team_create(player_one=one, player_two=two))
    tournament = _checked_in(
        director, "Cape Breton Winter Knockout", date(2026, 11, 28), "Sydney Legion", teams
    )
    stage = services.stage_create(tournament_id=tournament.pk, actor=director, kind="double_elim")
    services.stage_start(stage_id=stage.pk, actor=director)
    return tournament


def _disputed_hand(game: Any, director: Any) -> None:
    """A hand played out by the engine's simulator, then a misplay called on it with the
    record of its tricks: the engine's verdict waits for the director's ruling."""
    import random

    from scoring import services
    from scoring.engine import simulate_hand

    rng = random.Random(21)  # noqa: S311 - a repeatable deal for the pictures
    played = simulate_hand(game.engine_ruleset, rng, game.next_dealer)
    hand = services.hand_record(
        game=game, entry_kind="summary", entry=played.summary.to_json(), by=director
    )
    caller = played.summary.caller if played.summary.caller is not None else 0
    services.dispute_open(
        hand=hand,
        called_by=caller,
        accused=(caller + 1) % 4,
        trick=3,
        evidence=played.record.to_json(),
        by=director,
    )


def _fill_setup(page: Any) -> None:
    """The setup page as a director leaves it before starting: pools then a knockout, the
    teams pasted, seeded by rating."""
    page.fill("#id_name", "Chéticamp Winter Open")
    page.fill("#id_starts_on", "2026-12-05")
    page.fill("#id_venue", "Salle Doucet, Chéticamp")
    page.check("input[name=format][value=pools_single]")
    page.fill("#id_pool_count", "2")
    page.fill("#id_qualifiers_per_pool", "2")
    page.fill("#id_teams", "\n".join(f"{name}: {one} & {two}" for name, one, two in TEAM_NAMES))
    page.check("input[name=seeding][value=rating]")


def _serve() -> tuple[str, Any]:
    from socketserver import ThreadingMixIn
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    from django.core.wsgi import get_wsgi_application

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            return

    server = make_server(
        "127.0.0.1", 0, get_wsgi_application(), server_class=Server, handler_class=QuietHandler
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="tarabish-screenshots-") as tmp:
        _setup(tmp)
        from django.contrib.auth import get_user_model
        from django.test import Client

        user_model = get_user_model()
        director = user_model.objects.create_user("director", is_staff=True)
        teams = _teams()
        game = _game_in_progress(director, teams)
        tournament, pools, knockout = _tournament(director, teams)
        large = _large_knockout(director)
        client = Client()
        client.force_login(director)
        session = client.cookies["sessionid"].value
        base, server = _serve()
        pages = {
            "scorepad": f"/games/{game.pk}/pad/",
            "game": f"/games/{game.pk}/",
            "bracket": f"/tournaments/{tournament.slug}/?stage={knockout.pk}",
            "standings": f"/tournaments/{tournament.slug}/?stage={pools.pk}",
            "big-screen": f"/tournaments/{tournament.slug}/screen/?stage={knockout.pk}",
            "big-screen-pools": f"/tournaments/{tournament.slug}/screen/?stage={pools.pk}",
            # a part of a 32-team bracket, the part the clock shows
            "big-screen-parts": f"/tournaments/{large.slug}/screen/",
            "director": f"/tournaments/{tournament.slug}/director/",
            "setup": "/tournaments/new/",
        }
        OUT.mkdir(exist_ok=True)
        from playwright.sync_api import sync_playwright

        written = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            for width_name, (width, height) in WIDTHS.items():
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=1,
                    service_workers="block",
                )
                context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
                page = context.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    if name == "scorepad":
                        # a hand being entered, with the engine's preview shown
                        page.click("label[for=id_caller_1]")
                        page.click("label[for=id_trump_3]")
                        page.click("label[for=id_count_team_1]")
                        page.fill("input[name=count]", "94")
                        page.wait_for_selector("#preview .outcome")
                    if name == "setup":
                        _fill_setup(page)
                    target = OUT / f"{name}-{width_name}.png"
                    page.screenshot(path=str(target), full_page=not name.startswith("big-screen"))
                    written.append(target)
                    if name == "scorepad":
                        # what the phone shows without scrolling: the whole plain hand
                        target = OUT / f"scorepad-one-screen-{width_name}.png"
                        page.screenshot(path=str(target))
                        written.append(target)
                # The score-pad and standings in French, as the language switch leaves them.
                context.add_cookies([{"name": "django_language", "value": "fr-ca", "url": base}])
                for name in ("scorepad", "standings"):
                    page.goto(base + pages[name])
                    page.wait_for_load_state("networkidle")
                    target = OUT / f"french-{name}-{width_name}.png"
                    page.screenshot(path=str(target), full_page=True)
                    written.append(target)
                context.close()
            browser.close()
        server.shutdown()
    for shot in written:
        print(f"wrote {shot.relative_to(ROOT)}")  # noqa: T201 - the command's report
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
