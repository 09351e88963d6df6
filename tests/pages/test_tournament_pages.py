# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
# mypy: disable-error-code="no-untyped-def,no-any-return"
"""Tournament pages: bracket and standings as they change, the big screen, the director's day,
match, player and team pages, each in a flat number of queries."""

import random
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scoring import services as scoring_services
from scoring.engine import simulate_hand
from scoring.models import Game
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments.models import Match, Stage
from tournaments.services import match_game_start, stage_start, standings_recompute
from tournaments.templatetags.matches import awaited

pytestmark = pytest.mark.django_db


def started(entries: int, kind: str, **settings):
    tournament = tournament_ready(entries)
    stage = add_stage(tournament, kind, **settings)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    stage.refresh_from_db()
    return tournament, stage


def page_of(client, tournament, **params) -> str:
    url = reverse("tournaments:tournament-detail", args=[tournament.slug])
    response = client.get(url, params)
    assert response.status_code == 200
    return response.content.decode()


def test_bracket_shows_byes_results_and_the_path_of_a_team(client):
    tournament, stage = started(6, "double_elim", grand_final="reset")
    page = page_of(client, tournament)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="bracket"' in page
    assert "Bye" in page
    assert "Losers round 1" in page
    assert "Grand final" in page
    first = Match.objects.get(stage=stage, key="W1-2")
    winner = win_match(first, "away")
    page = page_of(client, tournament, team=winner.away_id)
    away = escape(winner.away.team.name)
    # the winner moved on to the next round and its path is highlighted in both rounds
    assert page.count(f'data-entry="{winner.away_id}"') >= 2
    assert page.count('class="slot win path"') == 1
    assert page.count('class="slot path"') >= 1
    assert away in page
    # the loser dropped into the losers bracket
    loser_name = escape(winner.home.team.name)
    live = client.get(reverse("tournaments:stage-live", args=[tournament.slug, stage.pk]))
    assert loser_name in live.content.decode()


def test_pool_standings_show_results_and_tie_breakers(client):
    tournament, stage = started(4, "round_robin")
    page = page_of(client, tournament)
    assert "Order of ranking:" in page
    assert "Head-to-head among the tied teams" in page
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    match = win_match(match, "home")
    standings_recompute(stage_id=stage.pk, force=True)
    page = page_of(client, tournament)
    winner = escape(match.home.team.name)
    first_row = page.split('<td class="num rank">1</td>')[1].split("</tr>")[0]
    assert winner in first_row
    assert "1\u20130" in first_row


def test_swiss_standings_show_buchholz(client):
    tournament, _stage = started(6, "swiss", swiss_rounds=2)
    assert "Buchholz" in page_of(client, tournament)


def test_tournament_page_query_count_is_flat(client, django_assert_max_num_queries):
    small, _ = started(4, "double_elim")
    big, _ = started(16, "double_elim")
    with django_assert_max_num_queries(30) as few:
        page_of(client, small)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page_of(client, big)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("tournaments:big-screen", args=[small.slug]))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("tournaments:big-screen", args=[big.slug]))


def test_standings_page_query_count_is_flat(client, django_assert_max_num_queries):
    small, small_stage = started(4, "round_robin")
    big, big_stage = started(12, "round_robin", pool_count=2)
    standings_recompute(stage_id=small_stage.pk, force=True)
    standings_recompute(stage_id=big_stage.pk, force=True)
    with django_assert_max_num_queries(30) as few:
        page_of(client, small)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page_of(client, big)


def test_big_screen_refreshes_itself(client):
    tournament, _stage = started(4, "single_elim")
    response = client.get(reverse("tournaments:big-screen", args=[tournament.slug]))
    page = response.content.decode()
    assert "data-refresh-url" in page
    assert "js/refresh.js" in page
    live = client.get(reverse("tournaments:big-screen-live", args=[tournament.slug]))
    assert live.status_code == 200
    assert "<svg" in live.content.decode()


def test_a_tall_bracket_comes_in_parts_on_the_big_screen(client):
    tall, _stage = started(16, "double_elim")
    page = client.get(reverse("tournaments:big-screen", args=[tall.slug]) + "?turn=5")
    text = page.content.decode()
    assert 'data-page-seconds="5"' in text
    assert "js/screen.js" in text
    live = client.get(reverse("tournaments:big-screen-live", args=[tall.slug])).content.decode()
    pages = live.split('class="bracket-page"')[1:]
    assert len(pages) == 2
    winners, losers = (side.split("</svg>")[0] for side in pages)

    def drawn(key: str, page: str) -> bool:
        return f'data-match="{key}"' in page

    assert "Winners bracket" in winners
    assert [drawn(key, winners) for key in ("W1-8", "GF1", "L1-1")] == [True, True, False]
    assert "Losers bracket" in losers
    assert [drawn(key, losers) for key in ("L1-4", "W1-1")] == [True, False]
    assert "Loser W1-1" in losers  # its slots still say where their teams come from
    # eight teams in double elimination, sixteen in single, are drawn whole
    for teams, kind in ((8, "double_elim"), (16, "single_elim")):
        small, _stage = started(teams, kind)
        whole = client.get(reverse("tournaments:big-screen-live", args=[small.slug]))
        assert "bracket-page" not in whole.content.decode()
        assert whole.content.decode().count("<svg") == 1
    # 32 in single elimination: by halves, the final with the second
    halves, _stage = started(32, "single_elim")
    live = client.get(reverse("tournaments:big-screen-live", args=[halves.slug])).content.decode()
    top, bottom = (side.split("</svg>")[0] for side in live.split('class="bracket-page"')[1:])
    assert [drawn(key, top) for key in ("W1-1", "W1-8", "W1-9", "W4-1", "W5-1")] == [
        True,
        True,
        False,
        True,
        False,
    ]
    assert [drawn(key, bottom) for key in ("W1-9", "W1-16", "W1-1", "W4-2", "W5-1")] == [
        True,
        True,
        False,
        True,
        True,
    ]
    assert 'Bracket <span class="muted">2/2</span>' in live


def test_director_day_is_for_directors(client):
    tournament, _stage = started(4, "single_elim")
    url = reverse("tournaments:director-day", args=[tournament.slug])
    client.force_login(UserFactory())
    refused = client.get(url)
    assert refused.status_code == 403
    text = refused.content.decode()
    assert 'class="site-header"' in text  # a page of the site, with the way back
    assert "Only this tournament&#x27;s directors see this page." in text
    back = reverse("tournaments:tournament-detail", args=[tournament.slug])
    assert f'href="{back}">Back to the tournament</a>' in text
    client.force_login(tournament.organiser)
    response = client.get(url)
    assert response.status_code == 200
    day = response.context["day"]
    assert len(day.ready) == 2
    page = response.content.decode()
    assert "Ready to start" in page
    # each Start button says which match it starts
    starts = [
        b.split("</button>", 1)[0]
        for b in page.split('<button type="submit" class="secondary"')[1:]
    ]
    assert len(starts) == 2
    assert len(set(starts)) == 2
    for match in day.ready:
        named = f"{escape(match.home.team.name)} v {escape(match.away.team.name)}</span>"
        assert any(named in start for start in starts)
    assert "No dispute waiting." in page
    live = reverse("tournaments:director-day-live", args=[tournament.slug])
    assert "data-refresh-url" in page
    assert "Ready to start" in client.get(live).content.decode()
    client.force_login(UserFactory())
    assert client.get(live).status_code == 403


def test_director_starts_a_match_game_and_the_table_code_opens_its_pad(client):
    tournament, stage = started(4, "single_elim")
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    client.force_login(tournament.organiser)
    assert (
        "start-game"
        in client.get(reverse("tournaments:match-detail", args=[match.pk])).content.decode()
    )
    response = client.post(reverse("tournaments:match-game-start", args=[match.pk]))
    game = Game.objects.get()
    match_url = reverse("tournaments:match-detail", args=[match.pk])
    pad_url = reverse("scoring:game-pad", args=[game.pk]) + "?" + urlencode({"then": match_url})
    assert response["Location"] == pad_url
    pad = client.get(reverse("tournaments:match-pad", args=[match.pk]))
    assert pad["Location"] == pad_url
    # the pad sends the scorekeeper back to the match, not to a game outside it
    page = client.get(pad_url).content.decode()
    assert f'href="{match_url}" id="then"' in page
    assert 'id="next-game"' not in page
    # opened from anywhere (the game's own page, a link off this site), it still knows its match
    for query in ({}, {"then": "https://x.example/"}):
        page = client.get(reverse("scoring:game-pad", args=[game.pk]), query).content.decode()
        assert f'href="{match_url}" id="then"' in page
    # and a finished game of the match starts no casual game after it
    scoring_services.game_end_early(game=game, reason="the hall is closing")
    page = client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    assert f'href="{match_url}" id="then"' in page
    assert 'id="next-game"' not in page
    refused = client.post(reverse("scoring:game-next", args=[game.pk]))
    assert refused.status_code == 400
    assert "start its next game from the match" in refused.content.decode()
    assert Game.objects.count() == 1
    sheet = client.get(reverse("tournaments:match-sheet", args=[match.pk])).content.decode()
    assert "<svg" in sheet
    # a director's print carries the table's key (see test_table_scorekeepers)
    assert "/tables/" in sheet
    assert "PIN" in sheet
    assert '<svg role="img" aria-label="QR code that opens' in sheet
    followers = Client().get(reverse("tournaments:match-sheet", args=[match.pk])).content.decode()
    assert f"/matches/{match.pk}/pad/" in followers
    assert "PIN" not in followers
    sheets = client.get(reverse("tournaments:round-sheets", args=[tournament.slug]))
    assert sheets.content.decode().count('class="print-sheet"') == 2
    assert sheets.content.decode().count('<svg role="img" aria-label="QR code that opens') == 2


def test_strangers_cannot_start_a_match_game(client):
    _tournament, stage = started(4, "single_elim")
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    client.force_login(UserFactory())
    response = client.post(reverse("tournaments:match-game-start", args=[match.pk]))
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_team_and_player_pages(client):
    tournament, stage = started(4, "single_elim")
    match = win_match(Match.objects.filter(stage=stage, state=Match.State.READY).first(), "home")
    team = match.home.team
    page = client.get(reverse("tournaments:team-detail", args=[team.pk])).content.decode()
    assert tournament.name in page
    assert "Won" in page
    # its tournament's schedule, narrowed to its matches, a tap away
    entry = match.home
    schedule = reverse("tournaments:schedule", args=[tournament.slug])
    assert f'href="{schedule}?team={entry.pk}">its matches</a>' in page
    games = page.split("Recent games", 1)[1]
    assert "<th>Against</th>" in games
    assert ">With</th>" not in games  # on its own page, a team plays with itself
    player = client.get(reverse("tournaments:player-detail", args=[team.player_one_id]))
    assert player.status_code == 200
    assert escape(team.name) in player.content.decode()
    shown = player.content.decode()
    assert '<th class="col-partner">With</th>' in shown  # a player's partner may change
    partner = reverse("tournaments:player-detail", args=[team.player_two_id])
    assert (
        f'<td class="col-partner"><a href="{partner}">{escape(team.player_two.display_name)}</a>'
        in shown
    )

    # The chart dates a rating by the hall's day, as the table beside it does: 02:00 UTC on
    # the 25th is the evening of the 24th in Halifax.
    from datetime import UTC, datetime

    from tournaments.models import RatingChange
    from tournaments.services import ratings_update_for_match

    ratings_update_for_match(match_id=match.pk)
    RatingChange.objects.filter(player_id=team.player_one_id).update(
        created_at=datetime(2026, 11, 25, 2, 0, tzinfo=UTC)
    )
    player = client.get(reverse("tournaments:player-detail", args=[team.player_one_id]))
    chart = player.content.decode().split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "11/24/2026" in chart
    assert "11/25/2026" not in chart

    # A match's page: named by its teams and tournament, its games' table scrolls in its box.
    text = client.get(reverse("tournaments:match-detail", args=[match.pk])).content.decode()
    title = text.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title.strip() == escape(
        f"{match.home.team.name} v {match.away.team.name} · {tournament.name}"
    )
    assert '<div class="sheet-wrap">\n<table>' in text
    waiting = Match.objects.filter(stage=stage, state=Match.State.PENDING).first()
    text = client.get(reverse("tournaments:match-detail", args=[waiting.pk])).content.decode()
    # no games yet: said in words, not as a table whose head is the two teams' names
    assert '<p class="muted">No game played yet.</p>' in text
    assert '<div class="sheet-wrap">\n<table>' not in text
    assert " · one game</p>" in text  # not "best of 1 games"


def test_the_list_of_tournaments_has_a_heading_per_tournament_under_its_title(client):
    tournament, _stage = started(4, "single_elim")
    page = client.get(reverse("tournaments:tournament-list")).content.decode()
    assert "<h1>Tournaments</h1>" in page
    assert f"{escape(tournament.name)}</a></h2>" in page
    assert "<h3" not in page


def test_private_tournaments_are_not_shown(client):
    tournament, _ = started(4, "single_elim")
    tournament.public = False
    tournament.save(update_fields=["public"])
    url = reverse("tournaments:tournament-detail", args=[tournament.slug])
    assert client.get(url).status_code == 404
    assert Stage.objects.filter(tournament=tournament).exists()


def test_team_and_player_pages_query_count_is_flat(client, django_assert_max_num_queries):
    _tournament, stage = started(8, "single_elim")
    ready = list(Match.objects.filter(stage=stage, state=Match.State.READY).order_by("pk"))
    first = win_match(ready[0], "home")
    team = first.home.team
    few_url = reverse("tournaments:team-detail", args=[ready[1].home.team_id])
    many_url = reverse("tournaments:team-detail", args=[team.pk])
    with django_assert_max_num_queries(12) as few:
        client.get(few_url)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(many_url)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("tournaments:player-detail", args=[ready[1].home.team.player_one_id]))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("tournaments:player-detail", args=[team.player_one_id]))


def test_director_day_shows_a_dispute_with_the_engine_verdict(
    client, django_capture_on_commit_callbacks
):
    tournament, stage = started(4, "single_elim")
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    link = match_game_start(match_id=match.pk, actor=tournament.organiser, first_dealer=0)
    played = simulate_hand(link.game.engine_ruleset, random.Random(5), 0)
    hand = scoring_services.hand_record(
        game=link.game, entry_kind="summary", entry=played.summary.to_json()
    )
    with django_capture_on_commit_callbacks(execute=True):
        dispute = scoring_services.dispute_open(
            hand=hand, called_by=1, accused=2, trick=2, evidence=played.record.to_json()
        )
    dispute.refresh_from_db()
    assert dispute.status == "not_proven"
    client.force_login(tournament.organiser)
    page = client.get(reverse("tournaments:director-day", args=[tournament.slug]))
    text = page.content.decode()
    assert f'data-dispute="{dispute.pk}"' in text
    assert f"Hand 1 of match {match.key}" in text
    seats = link.game.seats
    said = f"{seats[1].display_name} says {seats[2].display_name} misplayed in trick 2."
    assert escape(said) in text
    assert "Misplay not proven" in text
    # the engine's reason speaks of seats; the page names their players
    assert "seat " in dispute.reason
    named = dispute.reason
    for number, player in enumerate(link.game.seats):
        named = named.replace(f"seat {number}", player.display_name)
    assert escape(named) in text
    assert reverse("scoring:dispute-rule", args=[dispute.pk]) in text
    # The organiser directs the tournament's games (and holds no right over every game): the
    # day's form rules on the dispute.
    assert not tournament.organiser.has_perm("scoring.direct_games")
    ruled = client.post(
        reverse("scoring:dispute-rule", args=[dispute.pk]), {"ruling": "overruled", "note": "x"}
    )
    assert ruled.status_code == 302
    dispute.refresh_from_db()
    assert dispute.ruling == "overruled"


def test_a_match_games_pad_keeps_its_way_back_to_the_match_after_a_refusal(client):
    tournament, stage = started(4, "single_elim")
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    game = match_game_start(match_id=match.pk, actor=tournament.organiser, first_dealer=0).game
    client.force_login(tournament.organiser)
    back = f'href="{reverse("tournaments:match-detail", args=[match.pk])}" id="then"'
    assert back in client.get(reverse("scoring:game-pad", args=[game.pk])).content.decode()
    refused = client.post(reverse("scoring:game-hand-add", args=[game.pk]), {"caller": "0"})
    assert refused.status_code == 400
    assert back in refused.content.decode()
    # and anyone following its score-sheet finds the match from there
    client.logout()
    sheet = client.get(reverse("scoring:game-detail", args=[game.pk])).content.decode()
    assert f'href="{reverse("tournaments:match-detail", args=[match.pk])}" id="owner-page"' in sheet


def test_now_playing_lists_a_round_robin_round_by_round(client):
    from tournaments.selectors import now_playing

    tournament = tournament_ready(6)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    shown, more = now_playing(tournament, 6)
    rounds = [match.round.number for match in shown]
    assert rounds == sorted(rounds)
    assert rounds[:3] == [1, 1, 1]  # the first round's three tables first
    tables = [m.table or 0 for m in shown[:3]]
    assert tables == sorted(tables)
    assert more == Match.objects.filter(stage=stage).count() - 6


def test_the_ratings_page_ranks_every_rated_player(client, django_assert_max_num_queries):
    from tests.scoring.factories import PlayerFactory
    from tournaments.models import PlayerRating
    from tournaments.views.players import RATINGS_PER_PAGE

    sure = PlayerRating.objects.create(player=PlayerFactory(), mu=30.0, sigma=2.0, matches=9)
    new = PlayerRating.objects.create(player=PlayerFactory(), mu=32.0, sigma=8.0, matches=1)
    for n in range(RATINGS_PER_PAGE):
        PlayerRating.objects.create(player=PlayerFactory(), mu=10.0 + n / 100, sigma=3.0)
    with django_assert_max_num_queries(4):
        page = client.get(reverse("tournaments:rating-list"))
    text = page.content.decode()
    # the cautious rating first: 30 - 6 = 24 ranks above 32 - 24 = 8
    assert text.index(escape(str(sure.player))) < text.index(escape(str(new.player)))
    assert "24.00" in text
    assert reverse("tournaments:player-detail", args=[sure.player_id]) in text
    assert 'rel="next"' in text
    second = client.get(reverse("tournaments:rating-list"), {"page": 2}).content.decode()
    assert '<td class="num">51</td>' in second
    assert client.get(reverse("tournaments:rating-list"), {"page": "x"}).status_code == 200
    home = client.get("/").content.decode()
    assert f'href="{reverse("tournaments:rating-list")}"' in home


def test_the_directors_day_lists_a_round_robin_round_by_round():
    from tournaments.selectors import director_day

    tournament = tournament_ready(6)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    ready = director_day(tournament).ready
    order = [(m.round.number, m.table or 0) for m in ready]
    assert order == sorted(order)
    assert [n for n, _table in order[:3]] == [1, 1, 1]


def bracket_match(page: str, key: str) -> str:
    """The drawing of one bracket match on a page."""
    return page.split(f'data-match="{key}"', 1)[1].split("</g>", 1)[0]


def test_a_losers_bracket_slot_waiting_on_a_match_says_so_not_bye(client):
    tournament, stage = started(6, "double_elim", grand_final="reset")
    # W1-1 is seed 1's bye: L1-1 has no loser from it, and waits on the loser of W1-2
    drawn = bracket_match(page_of(client, tournament, stage=stage.pk), "L1-1")
    assert drawn.count(">Bye<") == 1
    assert ">Loser W1-2<" in drawn
    assert ">Winner L1-1<" in bracket_match(page_of(client, tournament), "L2-1")
    played = win_match(Match.objects.get(stage=stage, key="W1-2"), "away")
    drawn = bracket_match(page_of(client, tournament, stage=stage.pk), "L1-1")
    assert drawn.count(">Bye<") == 1
    assert f">{escape(played.home.team.name)}<" in drawn
    assert "Loser W1-2" not in drawn


def test_a_match_waiting_on_others_names_them_wherever_it_is_listed(client):
    tournament, stage = started(4, "double_elim")
    client.force_login(tournament.organiser)
    day = client.get(reverse("tournaments:director-day", args=[tournament.slug]))
    waiting = day.content.decode().split("Waiting for earlier results", 1)[1]

    def versus(home: str, away: str) -> str:
        return f'{home}</span> <span class="muted">v</span> <span class="muted">{away}</span>'

    assert versus("Winner W1-1", "Winner W1-2") in waiting  # W2-1
    assert versus("Loser W1-1", "Loser W1-2") in waiting  # L1-1
    assert "to be decided" not in waiting
    schedule = client.get(reverse("tournaments:schedule", args=[tournament.slug]))
    assert "Winner L1-1" in schedule.content.decode()  # L2-1, against the loser of W2-1
    final = Match.objects.get(stage=stage, key="W2-1")
    match_page = client.get(reverse("tournaments:match-detail", args=[final.pk]))
    assert "<title>Winner W1-1 v Winner W1-2 · " in match_page.content.decode()
    # once a team is known it is named, and the other side still says where it comes from
    played = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    match_page = client.get(reverse("tournaments:match-detail", args=[final.pk]))
    assert f"<title>{escape(played.home.display_name)} v Winner W1-2 · " in (
        match_page.content.decode()
    )


def test_pool_names_are_in_the_pages_language(client):
    tournament = tournament_ready(6)
    stage = add_stage(tournament, "round_robin", pool_count=2)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    standings_recompute(stage_id=stage.pk, force=True)
    address = reverse("tournaments:tournament-detail", args=[tournament.slug])
    french = client.get(address, HTTP_ACCEPT_LANGUAGE="fr-ca").content.decode()
    assert "<h3>Poule A</h3>" in french
    assert "<h3>Poule B</h3>" in french
    assert "<h3>Pool A</h3>" in client.get(address).content.decode()


def test_round_names_are_in_the_pages_language_as_in_the_bracket(client):
    tournament, stage = started(4, "double_elim")
    client.force_login(tournament.organiser)
    french = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9"}
    day = client.get(reverse("tournaments:director-day", args=[tournament.slug]), **french)
    page = day.content.decode()
    assert f"<h1>Journée de la direction\u00a0: {tournament.name}</h1>" in page  # the space
    assert "Finale des gagnants · W2-1" in page
    assert "Ronde 1 des perdants · L1-1" in page
    assert "Winners final" not in page
    final = Match.objects.get(stage=stage, key="W2-1")
    shown = client.get(reverse("tournaments:match-detail", args=[final.pk]), **french)
    assert "<p>Finale des gagnants (W2-1)" in shown.content.decode()
    # and in English, as stored
    assert (
        "Winners final · W2-1"
        in client.get(reverse("tournaments:schedule", args=[tournament.slug])).content.decode()
    )


def test_a_match_no_draw_feeds_is_still_to_be_decided():
    # a Swiss or pool round not yet paired has no source: nothing says who will play
    unpaired = Match(home_source=None, away_source={"kind": "bye", "seed": None, "match": None})
    assert awaited(unpaired, "home") == "to be decided"
    assert awaited(unpaired, "away") == "to be decided"
    seeded = Match(home_source={"kind": "seed", "seed": 3, "match": None})
    assert awaited(seeded, "home") == "Seed 3"


def test_the_schedule_shows_one_teams_matches_when_asked(client, django_assert_max_num_queries):
    tournament, stage = started(6, "swiss", swiss_rounds=3)
    url = reverse("tournaments:schedule", args=[tournament.slug])
    every = client.get(url).content.decode()
    assert every.count("<tr data-match=") == 3  # round 1 of six teams
    match = Match.objects.filter(stage=stage).order_by("number").first()
    team = match.home
    with django_assert_max_num_queries(6):
        response = client.get(url, {"team": team.pk})
    page = response.content.decode()
    assert page.count("<tr data-match=") == 1
    assert f'<tr data-match="{match.pk}"' in page
    assert f"<h1>Matches of {escape(team.team.name)}</h1>" in page
    assert f'<option value="{team.pk}" selected>' in page
    assert f'href="{url}">Every match of the tournament</a>' in page
    # a team that is not in the tournament is said so, not shown as an empty schedule
    missing = client.get(url, {"team": 987654})
    assert missing.status_code == 404
    assert "There is no such team in this tournament." in missing.content.decode()


def test_final_placings_show_every_placed_team(client):
    tournament, _stage = started(11, "single_elim")
    for place, entry in enumerate(tournament.entries.order_by("seed"), start=1):
        entry.final_place = place
        entry.save(update_fields=["final_place"])
    page = page_of(client, tournament)
    placings = page.split('<ol class="placings">', 1)[1].split("</ol>", 1)[0]
    assert [f'value="{n}"' in placings for n in range(1, 12)] == [True] * 11


def test_the_team_list_during_registration_puts_the_seeded_teams_first(client):
    from tests.tournaments.factories import EntryFactory, TournamentFactory
    from tournaments.models import Tournament

    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, public=True)
    first_unseeded = EntryFactory(tournament=tournament)
    second = EntryFactory(tournament=tournament, seed=2)
    first = EntryFactory(tournament=tournament, seed=1)
    last_unseeded = EntryFactory(tournament=tournament)
    page = page_of(client, tournament)
    teams = page.split('<ol class="entries small">', 1)[1]
    order = [first, second, first_unseeded, last_unseeded]
    positions = [teams.index(f">{escape(e.team.name)}</a>") for e in order]
    assert positions == sorted(positions)


def test_standings_explain_their_short_headings(client):
    tournament, stage = started(6, "swiss", swiss_rounds=2)
    standings_recompute(stage_id=stage.pk, force=True)
    page = page_of(client, tournament)
    assert '<abbr title="Baits forced / baits suffered">Baits</abbr>' in page
    assert '<abbr title="Buchholz / median-Buchholz">Buch.</abbr>' in page
    legend = page.split('<dl class="small muted standings-legend">', 1)[1].split("</dl>", 1)[0]
    assert "<dt>Baits</dt>" in legend
    assert "went bait" in legend
    assert "<dt>Buch.</dt>" in legend
    assert "median" in legend
    round_robin, stage = started(4, "round_robin")
    standings_recompute(stage_id=stage.pk, force=True)
    page = page_of(client, round_robin)
    assert "<dt>Baits</dt>" in page
    assert "<dt>Buch.</dt>" not in page


def test_the_rulings_choice_is_a_fieldset_with_a_legend(client, django_capture_on_commit_callbacks):
    tournament, stage = started(4, "single_elim")
    match = Match.objects.filter(stage=stage, state=Match.State.READY).first()
    link = match_game_start(match_id=match.pk, actor=tournament.organiser, first_dealer=0)
    played = simulate_hand(link.game.engine_ruleset, random.Random(5), 0)
    hand = scoring_services.hand_record(
        game=link.game, entry_kind="summary", entry=played.summary.to_json()
    )
    with django_capture_on_commit_callbacks(execute=True):
        dispute = scoring_services.dispute_open(
            hand=hand, called_by=1, accused=2, trick=2, evidence=played.record.to_json()
        )
    client.force_login(tournament.organiser)
    text = client.get(reverse("tournaments:director-day", args=[tournament.slug])).content.decode()
    form = text.split(f'data-dispute="{dispute.pk}"', 1)[1].split("</form>", 1)[0]
    fieldset = form.split("<fieldset", 1)[1].split("</fieldset>", 1)[0]
    assert "<legend>Your ruling on the engine's verdict</legend>" in fieldset
    assert f'id="uphold-{dispute.pk}"' in fieldset
    assert f'id="overrule-{dispute.pk}"' in fieldset


# ------------------------------------------------------------------ a director's acts on a match


def act(client, name: str, match: Match, **data):
    return client.post(reverse(f"tournaments:{name}", args=[match.pk]), data)


def test_a_director_forfeits_a_match_from_its_page_after_confirming(client):
    tournament, stage = started(4, "single_elim")
    match = Match.objects.get(stage=stage, key="W1-1")
    url = reverse("tournaments:match-detail", args=[match.pk])
    assert 'id="forfeit"' not in client.get(url).content.decode()  # not for spectators
    client.force_login(tournament.organiser)
    page = client.get(url).content.decode()
    assert reverse("tournaments:match-forfeit", args=[match.pk]) in page
    assert "<legend>Forfeit: which team forfeits the match?</legend>" in page

    # no team chosen: said on the match's page, nothing written
    refused = act(client, "match-forfeit", match, version=match.version)
    assert refused.status_code == 400
    assert "Which team forfeits: choose one of the two teams." in refused.content.decode()

    # first a confirmation, which changes nothing
    asked = act(client, "match-forfeit", match, version=match.version, loser="home")
    assert asked.status_code == 200
    text = asked.content.decode()
    home, away = escape(match.home.team.name), escape(match.away.team.name)
    assert f"{home} forfeits: {away} wins the match." in text
    assert '<input type="hidden" name="confirmed" value="yes">' in text
    assert '<input type="hidden" name="loser" value="home">' in text
    match.refresh_from_db()
    assert match.state == Match.State.READY

    done = act(client, "match-forfeit", match, version=match.version, loser="home", confirmed="yes")
    assert done.status_code == 302
    assert done["Location"] == url
    match.refresh_from_db()
    assert (match.state, match.forfeit, match.winner_id) == (
        Match.State.COMPLETE,
        True,
        match.away_id,
    )
    assert f"{away} won the match by forfeit." in client.get(url).content.decode()

    # a page read before that forfeit: refused, and the match shown as it is now
    stale = act(
        client, "match-forfeit", match, version=match.version - 1, loser="away", confirmed="yes"
    )
    assert stale.status_code == 412
    assert "This match changed while you were deciding" in stale.content.decode()
    match.refresh_from_db()
    assert match.winner_id == match.away_id

    # someone who does not direct the tournament
    client.force_login(UserFactory())
    stranger = act(client, "match-forfeit", match, version=match.version, confirmed="yes")
    assert stranger.status_code == 403


def test_a_forfeit_that_reopens_played_matches_asks_again_before_it_does(client):
    tournament, stage = started(4, "single_elim")
    client.force_login(tournament.organiser)
    semi = Match.objects.get(stage=stage, key="W1-1")
    act(client, "match-forfeit", semi, version=semi.version, loser="away", confirmed="yes")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    final = win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    assert final.state == Match.State.COMPLETE
    semi.refresh_from_db()
    # the forfeit was the wrong way round: the page still offers it
    page = client.get(reverse("tournaments:match-detail", args=[semi.pk])).content.decode()
    assert 'id="forfeit"' in page
    asked = act(client, "match-forfeit", semi, version=semi.version, loser="home", confirmed="yes")
    assert asked.status_code == 409
    text = asked.content.decode()
    assert "would re-open W2-1, already played" in text
    assert '<input type="hidden" name="confirm_reset" value="yes">' in text
    assert "Forfeit and re-open those matches" in text
    final.refresh_from_db()
    assert final.state == Match.State.COMPLETE
    done = act(
        client,
        "match-forfeit",
        semi,
        version=semi.version,
        loser="home",
        confirm_reset="yes",
        confirmed="yes",
    )
    assert done.status_code == 302
    final.refresh_from_db()
    assert final.state == Match.State.READY
    assert final.home_id == semi.away_id


def test_a_refusal_from_the_service_is_shown_on_the_match_page(client):
    from tournaments.models import Tournament

    tournament, stage = started(4, "single_elim")
    match = Match.objects.get(stage=stage, key="W1-1")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(tournament.organiser)
    page = client.get(reverse("tournaments:match-detail", args=[match.pk])).content.decode()
    assert 'id="forfeit"' not in page  # a finished tournament's results stand
    refused = act(
        client, "match-forfeit", match, version=match.version, loser="home", confirmed="yes"
    )
    assert refused.status_code == 409
    text = refused.content.decode()
    assert 'class="notice error" role="alert"' in text
    assert "finished" in text.split('role="alert"', 1)[1].split("</p>", 1)[0]
    match.refresh_from_db()
    assert match.state == Match.State.READY


def test_a_forfeit_over_a_result_decided_by_play_is_refused_on_the_page(client):
    tournament, stage = started(4, "single_elim")
    played = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    client.force_login(tournament.organiser)
    page = client.get(reverse("tournaments:match-detail", args=[played.pk])).content.decode()
    assert 'id="forfeit"' not in page
    refused = act(
        client, "match-forfeit", played, version=played.version, loser="home", confirmed="yes"
    )
    assert refused.status_code == 409
    alert = refused.content.decode().split('role="alert"', 1)[1].split("</p>", 1)[0]
    assert "decided by play" in alert
    played.refresh_from_db()
    assert (played.winner_id, played.forfeit) == (played.home_id, False)


def test_a_director_confirms_or_keeps_a_held_result_from_the_match_page(client):
    from tournaments.models import MatchGame
    from tournaments.services import match_sync_for_game

    tournament, stage = started(4, "single_elim")
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    game = MatchGame.objects.get(match=semi).game

    scoring_services.game_reopen(game=game, by=UserFactory(is_staff=True, is_superuser=True))
    match_sync_for_game(game_id=game.pk)
    semi.refresh_from_db()
    assert "W2-1" in semi.held_reason
    client.force_login(tournament.organiser)
    url = reverse("tournaments:match-detail", args=[semi.pk])
    page = client.get(url).content.decode()
    assert 'id="confirm-reset"' in page
    assert 'id="keep-result"' in page

    # keeping the result: asked first, then the note goes and the result stays
    asked = act(client, "match-hold-clear", semi, version=semi.version)
    assert asked.status_code == 200
    assert "Keep the result as it stands" in asked.content.decode()
    assert Match.objects.get(pk=semi.pk).held_reason
    kept = act(client, "match-hold-clear", semi, version=semi.version, confirmed="yes")
    assert kept.status_code == 302
    semi.refresh_from_db()
    assert (semi.held_reason, semi.state) == ("", Match.State.COMPLETE)
    assert 'id="confirm-reset"' not in client.get(url).content.decode()

    # the game is still reopened: the next look at it holds the change again
    match_sync_for_game(game_id=game.pk)
    semi.refresh_from_db()
    assert semi.held_reason
    asked = act(client, "match-reset-confirm", semi, version=semi.version)
    assert asked.status_code == 200
    assert "Later matches that depended on it re-open" in asked.content.decode()
    assert Match.objects.get(stage=stage, key="W2-1").state == Match.State.COMPLETE
    done = act(client, "match-reset-confirm", semi, version=semi.version, confirmed="yes")
    assert done.status_code == 302
    semi.refresh_from_db()
    assert semi.state == Match.State.IN_PROGRESS
    assert Match.objects.get(stage=stage, key="W2-1").state == Match.State.PENDING


# ------------------------------------------------------------------ the step between stages
def day_post(client, tournament, **data):
    return client.post(reverse("tournaments:director-day", args=[tournament.slug]), data)


def test_the_directors_day_says_a_stage_is_over_and_starts_the_next_after_confirming(client):
    tournament = tournament_ready(4)
    pools = add_stage(tournament, "round_robin", name="Pools")
    knockout = add_stage(tournament, "single_elim", name="Knockout")
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    client.force_login(tournament.organiser)
    url = reverse("tournaments:director-day", args=[tournament.slug])
    assert 'id="next-step"' not in client.get(url).content.decode()  # pools still to play
    for match in Match.objects.filter(stage=pools, state=Match.State.READY):
        win_match(match, "home")

    page = client.get(url).content.decode()
    assert "Pools is over" in page
    assert "Next: start Knockout (Single elimination)." in page
    assert "Start Knockout…" in page
    live = reverse("tournaments:director-day-live", args=[tournament.slug])
    assert "Pools is over" in client.get(live).content.decode()

    asked = day_post(client, tournament, step="advance", stage=knockout.pk)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Knockout (Single elimination) starts with the teams that qualify from Pools" in text
    assert '<input type="hidden" name="confirmed" value="yes">' in text
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.PENDING  # asking changes nothing

    done = day_post(client, tournament, step="advance", stage=knockout.pk, confirmed="yes")
    assert done.status_code == 302
    assert done["Location"] == url
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.RUNNING
    page = client.get(url).content.decode()
    assert "Knockout has started." in page
    assert 'id="next-step"' not in page
    assert len(client.get(url).context["day"].ready) == 2

    # a second page still showing the step: refused, the day shown as it is now
    again = day_post(client, tournament, step="advance", stage=knockout.pk, confirmed="yes")
    assert again.status_code == 409
    assert "The tournament moved on while you were deciding" in again.content.decode()

    for match in Match.objects.filter(stage=knockout, state=Match.State.READY):
        win_match(match, "home")
    win_match(Match.objects.get(stage=knockout, key="W2-1"), "home")
    assert "Every stage is over. Next: finish the tournament" in client.get(url).content.decode()
    day_post(client, tournament, step="finish", stage="", confirmed="yes")
    tournament.refresh_from_db()
    assert tournament.status == "finished"

    client.force_login(UserFactory())
    assert day_post(client, tournament, step="finish", confirmed="yes").status_code == 403


def test_the_directors_day_pairs_the_next_swiss_round_once_one_is_over(client):
    tournament, stage = started(4, "swiss", name="Swiss", swiss_rounds=2)
    client.force_login(tournament.organiser)
    url = reverse("tournaments:director-day", args=[tournament.slug])
    for match in Match.objects.filter(stage=stage, state=Match.State.READY):
        win_match(match, "home")
    page = client.get(url).content.decode()
    assert "Round 1 of Swiss is over" in page
    assert "Next: pair round 2 of 2 from the standings as they are now." in page
    done = day_post(client, tournament, step="pair_round", stage=stage.pk, confirmed="yes")
    assert done.status_code == 302
    assert stage.rounds.count() == 2
    assert len(client.get(url).context["day"].ready) == 2


def test_a_forfeited_match_in_the_bracket_says_forfeit_not_a_score(client):
    from tournaments.services import match_forfeit

    tournament, stage = started(4, "single_elim")
    match = Match.objects.get(stage=stage, key="W1-1")
    match_forfeit(
        match_id=match.pk,
        actor=tournament.organiser,
        loser_id=match.home_id,
        expected_version=match.version,
    )
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    page = page_of(client, tournament)
    drawn = page.split('data-match="W1-1"', 1)[1].split("</g>", 1)[0]
    assert " · forfeit</text>" in drawn  # the label above the match
    slots = drawn.split('class="label"', 1)[0].split("<rect")[1:]
    assert 'class="score forfeit"' in slots[0]  # home forfeited
    assert "forfeit" not in slots[1]
    assert 'class="score"' not in drawn  # no "0 / 0"
    played = page.split('data-match="W1-2"', 1)[1].split("</g>", 1)[0]
    assert 'class="score"' in played
    assert "forfeit" not in played
