# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr,return-value"
"""Teams of the same name in one tournament are told apart wherever they meet: by their
community, else by a number in the order they registered."""

import csv
import io
import json
from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape
from hypothesis import given
from hypothesis import strategies as st

from scoring.services import game_create, hand_record
from tests.scoring.factories import PlayerFactory, TeamFactory
from tests.tournaments.factories import EntryFactory, TournamentFactory, add_stage
from tests.tournaments.helpers import win_match
from tournaments import exports
from tournaments.models import Entry, Match, Tournament
from tournaments.selectors import (
    entry_display_names,
    names_told_apart,
    stage_bracket_document,
    team_community,
    team_display_names,
)
from tournaments.services import checkin_process, match_game_start, stage_start, standings_recompute
from tournaments.services.transfer import tournament_import

SAME = "Alphonse Poirier & Marie MacLellan"


def test_a_unique_name_is_shown_alone() -> None:
    assert names_told_apart([("The Bait Shop", "Arichat"), (SAME, "Chéticamp")]) == [
        "The Bait Shop",
        SAME,
    ]


def test_the_community_tells_a_name_apart_else_a_number_by_registration() -> None:
    shown = names_told_apart(
        [(SAME, "Chéticamp"), (SAME, "Isle Madame"), (SAME, "Isle Madame"), (SAME, "")]
    )
    assert shown == [f"{SAME} (Chéticamp)", f"{SAME} (2)", f"{SAME} (3)", f"{SAME} (4)"]


def test_names_differing_only_in_case_or_spaces_are_the_same_name() -> None:
    shown = names_told_apart([("ann & bob", ""), ("Ann  &  Bob", "")])
    assert shown == ["ann & bob (1)", "Ann & Bob (2)"]


def test_a_name_that_looks_like_a_label_keeps_it_and_the_number_moves_on() -> None:
    shown = names_told_apart([("X", ""), ("X", ""), ("X (2)", "")])
    assert shown == ["X (1)", "X (3)", "X (2)"]


def test_a_team_comes_from_its_players_community_or_both() -> None:
    assert team_community("Chéticamp", "chéticamp ") == "Chéticamp"
    assert team_community("Chéticamp", "Arichat") == "Chéticamp / Arichat"
    assert team_community("", "Arichat") == "Arichat"
    assert team_community("", "") == ""


names = st.sampled_from(["A", "a", "A (1)", "A (2)", "A (B)", "B", "B (2)", "A (2) (3)"])
communities = st.sampled_from(["", "B", "b", "1", "2", "Chéticamp", "3"])


@given(st.lists(st.tuples(names, communities), max_size=12))
def test_every_team_gets_a_name_of_its_own(teams: list[tuple[str, str]]) -> None:
    shown = names_told_apart(teams)
    assert len(shown) == len(teams)
    assert len({label.casefold() for label in shown}) == len(shown)
    counts: dict[str, int] = {}
    for name, _ in teams:
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    for (name, _), label in zip(teams, shown, strict=True):
        assert label.startswith(name)
        if counts[name.casefold()] == 1:
            assert label == name


@given(st.lists(st.tuples(st.text(max_size=6), st.text(max_size=4)), max_size=10))
def test_any_names_come_out_unique(teams: list[tuple[str, str]]) -> None:
    shown = names_told_apart(teams)
    assert len({label.casefold() for label in shown}) == len(shown)


# ------------------------------------------------------------------------------ the pages
def same_named(tournament: Tournament, community: str) -> Any:
    # players of the same names in one community are one player: these are namesakes' teams
    one = PlayerFactory(community=community)
    two = PlayerFactory(community=community)
    team = TeamFactory(player_one=one, player_two=two, name=SAME)
    return EntryFactory(tournament=tournament, team=team, checked_in=True)


def running(extra: int) -> tuple[Tournament, list[Any]]:
    """A round robin under way: three teams called the same (two from Chéticamp, one from
    Isle Madame) and ``extra`` others."""
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN)
    for _ in range(extra):
        EntryFactory(tournament=tournament, checked_in=True)
    same = [same_named(tournament, c) for c in ("Chéticamp", "Isle Madame", "Chéticamp")]
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament, same


LABELS = [f"{SAME} (1)", f"{SAME} (Isle Madame)", f"{SAME} (3)"]


@pytest.mark.django_db
def test_the_entries_are_named_for_their_tournament() -> None:
    tournament, same = running(2)
    names = entry_display_names(tournament)
    assert [names[e.pk] for e in same] == LABELS


@pytest.mark.django_db
def test_the_pages_tell_the_same_names_apart(client: Any) -> None:
    tournament, same = running(1)
    client.force_login(tournament.organiser)
    pages = {
        "tournament": reverse("tournaments:tournament-detail", args=[tournament.slug]),
        "screen": reverse("tournaments:big-screen", args=[tournament.slug]),
        "day": reverse("tournaments:director-day", args=[tournament.slug]),
    }
    for what, url in pages.items():
        html = client.get(url).content.decode()
        for label in LABELS:
            assert escape(label) in html, (what, label)
    match = Match.objects.filter(home=same[0], away=same[2]).first() or Match.objects.get(
        home=same[2], away=same[0]
    )
    html = client.get(reverse("tournaments:match-detail", args=[match.pk])).content.decode()
    assert escape(LABELS[0]) in html
    assert escape(LABELS[2]) in html


@pytest.mark.django_db
def test_the_api_answers_the_told_apart_names(client: Any) -> None:
    tournament, same = running(1)
    url = reverse("api:tournament-entry-list", kwargs={"tournament_slug": tournament.slug})
    body = client.get(url).json()
    rows = body["results"] if isinstance(body, dict) else body
    shown = {row["id"]: row["display_name"] for row in rows}
    assert [shown[e.pk] for e in same] == LABELS


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["tournament-detail", "big-screen", "director-day"])
def test_the_pages_do_not_gain_a_query_per_team(client: Any, page: str) -> None:
    counts = []
    for extra in (1, 7):
        tournament, _ = running(extra)
        client.force_login(tournament.organiser)
        url = reverse(f"tournaments:{page}", args=[tournament.slug])
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_the_bracket_draws_the_told_apart_names() -> None:
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN)
    EntryFactory(tournament=tournament, checked_in=True)
    for community in ("Chéticamp", "Isle Madame", "Chéticamp"):
        same_named(tournament, community)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    document = stage_bracket_document(stage)
    drawn = {
        slot.get("name")
        for side in document["sides"]
        for rnd in side["rounds"]
        for item in rnd["matches"]
        for slot in item.get("slots", ())
        if isinstance(slot, dict)
    }
    assert set(LABELS) <= drawn


# ------------------------------------------------------------------------------ exports
def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.django_db
def test_the_csv_tables_keep_the_team_name_and_add_the_told_apart_one() -> None:
    tournament, same = running(1)
    first = Match.objects.filter(home__in=same, away__in=same).order_by("pk").first()
    assert first is not None
    game = match_game_start(match_id=first.pk, actor=tournament.organiser, first_dealer=0).game
    hand_record(
        game=game,
        entry_kind="summary",
        entry={"caller": 0, "trump": "H", "card_points": {"team": "team_a", "points": 96}},
    )
    standings_recompute(stage_id=first.stage_id, force=True)
    names = entry_display_names(tournament)
    home, away = first.home_id, first.away_id
    assert home is not None
    assert away is not None
    standings = _rows(exports.standings_csv(tournament))
    assert {row["team"] for row in standings} >= {SAME}
    assert sorted(r["display_name"] for r in standings if r["team"] == SAME) == sorted(LABELS)
    for row in standings:
        if row["team"] != SAME:
            assert row["display_name"] == row["team"]
    matches = {int(row["match"]): row for row in _rows(exports.matches_csv(tournament))}
    row = matches[first.pk]
    assert (row["home"], row["away"]) == (SAME, SAME)
    assert row["home_display_name"] == names[home]
    assert row["away_display_name"] == names[away]
    assert row["winner_display_name"] == ""
    (hand,) = _rows(exports.hands_csv(tournament))
    assert (hand["team_a"], hand["team_b"]) == (SAME, SAME)
    assert {hand["team_a_display_name"], hand["team_b_display_name"]} == {
        names[home],
        names[away],
    }


@pytest.mark.django_db
def test_a_tournament_read_back_tells_its_namesakes_apart_as_before() -> None:
    tournament, same = running(1)
    standings_recompute(stage_id=tournament.stages.get().pk, force=True)
    # seeded otherwise than registered: the last of the namesakes registered is seeded first
    seeds = {e.pk: e.seed for e in Entry.objects.filter(tournament=tournament)}
    Entry.objects.filter(pk=same[0].pk).update(seed=None)
    Entry.objects.filter(pk=same[2].pk).update(seed=seeds[same[0].pk])
    Entry.objects.filter(pk=same[0].pk).update(seed=seeds[same[2].pk])
    document = json.loads(
        json.dumps(exports.tournament_document(tournament), cls=DjangoJSONEncoder)
    )
    document["tournament"]["slug"] = "read-back"
    copy_ = tournament_import(document=document, actor=None)
    # the players are found by name here, so the copy's entries are the same teams
    assert Entry.objects.filter(tournament=copy_).count() == len(document["entries"])
    assert team_display_names(copy_) == team_display_names(tournament)
    assert [team_display_names(copy_)[e.team_id] for e in same] == LABELS
    assert _rows(exports.standings_csv(copy_)) == _rows(exports.standings_csv(tournament))
    # a document written before entries carried their registration still reads
    for row in document["entries"]:
        row.pop("registered_at")
    document["tournament"]["slug"] = "older"
    older = tournament_import(document=document, actor=None)
    assert Entry.objects.filter(tournament=older).count() == len(document["entries"])


# ------------------------------------------------------------------------------ a team's page
@pytest.mark.django_db
def test_a_teams_page_says_where_it_is_from_and_its_name_in_each_tournament(client: Any) -> None:
    _tournament, same = running(1)
    match = Match.objects.get(home__in=[same[0], same[2]], away__in=[same[0], same[2]])
    win_match(match, "home" if match.home_id == same[0].pk else "away")
    casual = TeamFactory(
        name=SAME,
        player_one=PlayerFactory(community="Isle Madame"),
        player_two=PlayerFactory(community="Isle Madame"),
    )
    game_create(team_a=same[0].team, team_b=casual, first_dealer=0)
    html = client.get(reverse("tournaments:team-detail", args=[same[0].team_id])).content.decode()
    heading = html.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading == f'{escape(SAME)} <span class="muted small">Chéticamp</span>'
    assert f"<title>{escape(SAME)} (Chéticamp)" in html
    # its tournament, where it was entered under its told-apart name
    assert f"entered as {escape(LABELS[0])}" in html
    # the match it won: the opponent as that tournament named it, linked to its page
    results = html.split("Match results", 1)[1].split("Recent games", 1)[0]
    opponent = reverse("tournaments:team-detail", args=[same[2].team_id])
    assert f'<a href="{opponent}">{escape(LABELS[2])}</a>' in results
    # its games: the opponents, the tournament's by the tournament's names, a casual one by
    # community; the team itself is the page's, not repeated on each line
    games = html.split("Recent games", 1)[1].split("</table>", 1)[0]
    assert escape(LABELS[2]) in games
    assert f"{escape(SAME)} (Isle Madame)" in games
    assert escape(LABELS[0]) not in games
    assert f"{escape(SAME)} (Chéticamp)" not in games


def played_in(team: Any) -> None:
    """A tournament where ``team`` meets a namesake of another community and wins."""
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN)
    ours = EntryFactory(tournament=tournament, team=team, checked_in=True)
    same_named(tournament, "Arichat")
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    win_match(match, "home" if match.home_id == ours.pk else "away")


@pytest.mark.django_db
def test_a_teams_page_does_not_gain_a_query_per_tournament(client: Any) -> None:
    team = TeamFactory(name=SAME)
    counts = []
    for tournaments in (1, 3):
        while Entry.objects.filter(team=team).count() < tournaments:
            played_in(team)
        with CaptureQueriesContext(connection) as captured:
            html = client.get(reverse("tournaments:team-detail", args=[team.pk])).content.decode()
        assert html.count(f"{escape(SAME)} (Arichat)") == 2 * tournaments  # results and games
        counts.append(len(captured))
    assert counts[0] == counts[1]
