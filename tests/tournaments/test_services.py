# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,misc"
# mypy: disable-error-code="index,comparison-overlap"
"""Service tests: every director step and every stage format, checked in the database."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from tarabish_site.api.errors import Conflict, NotAllowed, PreconditionFailed, ValidationFailed
from tests.scoring.factories import PlayerFactory, TeamFactory, UserFactory
from tests.tournaments.factories import EntryFactory, TournamentFactory, add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_match
from tournaments.demo import stage_play_simulated
from tournaments.models import Entry, Match, MatchGame, Stage, Standing, Tournament
from tournaments.services import (
    checkin_process,
    entries_import_csv,
    entry_check_in,
    entry_register,
    entry_withdraw,
    match_forfeit,
    match_reset_confirm,
    stage_advance,
    stage_start,
    standings_recompute,
    swiss_round_pair,
    tournament_create,
    tournament_finish,
    tournament_open_check_in,
    tournament_open_registration,
    tournament_update,
)

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ tournaments and entries
def test_director_steps_move_the_status_along() -> None:
    director = UserFactory(director=True)
    tournament = tournament_create(
        actor=director,
        name="Cape Breton Fall Classic",
        starts_on=__import__("datetime").date(2026, 11, 21),
        ruleset_preset="kitchen-table",
        match_games=3,
    )
    assert tournament.slug == "cape-breton-fall-classic"
    assert tournament.ruleset["half_bait_is_whole_bait"] is True
    assert list(tournament.directors.all()) == [director]
    tournament = tournament_open_registration(tournament_id=tournament.pk, actor=director)
    assert tournament.status == Tournament.Status.REGISTRATION
    with pytest.raises(Conflict, match="not draft"):
        tournament_open_registration(tournament_id=tournament.pk, actor=director)
    tournament = tournament_open_check_in(tournament_id=tournament.pk, actor=director)
    assert tournament.status == Tournament.Status.CHECK_IN


def test_only_directors_run_a_tournament() -> None:
    tournament = TournamentFactory()
    with pytest.raises(NotAllowed):
        tournament_open_registration(tournament_id=tournament.pk, actor=UserFactory())


def test_bad_format_and_ruleset_name_the_field() -> None:
    director = UserFactory(director=True)
    with pytest.raises(ValidationFailed) as info:
        tournament_create(
            actor=director,
            name="X",
            starts_on=__import__("datetime").date(2026, 1, 1),
            match_games=2,
        )
    assert "match_games" in info.value.fields
    with pytest.raises(ValidationFailed) as info:
        tournament_create(
            actor=director,
            name="X",
            starts_on=__import__("datetime").date(2026, 1, 1),
            ruleset={"target": "lots"},
        )
    assert any(key.startswith("ruleset") for key in info.value.fields)


def test_update_needs_the_current_version() -> None:
    tournament = TournamentFactory()
    updated = tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=1,
        changes={"venue": "Sydney Legion"},
    )
    assert updated.version == 2
    with pytest.raises(PreconditionFailed):
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=1,
            changes={"venue": "Elsewhere"},
        )


def test_checkin_drops_no_shows_and_closes_the_seeding_gaps() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, check_in_required=True)
    entries = [
        entry_register(
            tournament_id=tournament.pk, actor=tournament.organiser, team_id=t.pk, seed=s
        )
        for t, s in zip(TeamFactory.create_batch(5), [1, 2, 3, None, None], strict=True)
    ]
    for entry in (entries[0], entries[2], entries[3], entries[4]):
        entry_check_in(entry_id=entry.pk, actor=tournament.organiser)
    tournament_open_check_in(tournament_id=tournament.pk, actor=tournament.organiser)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    seeds = {e.pk: (e.seed, e.status) for e in Entry.objects.filter(tournament=tournament)}
    assert seeds[entries[1].pk] == (None, Entry.Status.INACTIVE)
    assert [seeds[e.pk][0] for e in (entries[0], entries[2], entries[3], entries[4])] == [
        1,
        2,
        3,
        4,
    ]


def test_registering_a_team_twice_is_a_conflict() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    team = TeamFactory()
    entry_register(tournament_id=tournament.pk, actor=tournament.organiser, team_id=team.pk)
    with pytest.raises(Conflict, match="already registered"):
        entry_register(tournament_id=tournament.pk, actor=tournament.organiser, team_id=team.pk)


CSV_GOOD = """team,player_one,player_two,community,seed
The Baiters,Angus MacNeil,Mary MacDonald,Glace Bay,1
Half a Bait,Ron Doucet,Gerard Aucoin,Cheticamp,
,Joan Campbell,Flora MacLean,Baddeck,2
"""


def test_csv_import_registers_every_team() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    report = entries_import_csv(
        tournament_id=tournament.pk, actor=tournament.organiser, text=CSV_GOOD
    )
    assert report.rows == 3
    names = sorted(e.team.name for e in tournament.entries.select_related("team"))
    assert names == ["Half a Bait", "Joan Campbell & Flora MacLean", "The Baiters"]
    assert sorted(tournament.entries.values_list("seed", flat=True), key=str) == [1, 2, None]


def test_csv_import_finds_a_player_whatever_the_case_of_the_name() -> None:
    known = PlayerFactory(display_name="Angus MacNeil", community="Glace Bay")
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    text = (
        "team,player_one,player_two,community\nThe Baiters,angus macneil,Mary MacDonald,glace bay\n"
    )
    entries_import_csv(tournament_id=tournament.pk, actor=tournament.organiser, text=text)
    team = tournament.entries.get().team
    assert known.pk in (team.player_one_id, team.player_two_id)


def test_csv_import_is_all_or_nothing_with_a_report_of_bad_rows() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    text = (
        "team,player_one,player_two,community,seed\n"
        "Good,Angus MacNeil,Mary MacDonald,Glace Bay,1\n"
        "Bad seed,Ron Doucet,Gerard Aucoin,Cheticamp,first\n"
        "Same player,Joan Campbell,Joan Campbell,Baddeck,\n"
        "Again,Angus MacNeil,Flora MacLean,Glace Bay,1\n"
    )
    with pytest.raises(ValidationFailed) as info:
        entries_import_csv(tournament_id=tournament.pk, actor=tournament.organiser, text=text)
    fields = info.value.fields
    assert set(fields) == {
        "rows.3.seed",
        "rows.4.player_two",
        "rows.5.player_one",
        "rows.5.seed",
    }
    assert "lines 3, 4, 5" in info.value.message
    assert not tournament.entries.exists()


def test_csv_import_names_missing_columns() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    with pytest.raises(ValidationFailed) as info:
        entries_import_csv(
            tournament_id=tournament.pk, actor=tournament.organiser, text="team,player_one\nX,Y\n"
        )
    assert info.value.fields == {"file": ["missing column player_two"]}


# ------------------------------------------------------------------ round robin
def test_round_robin_in_two_pools_creates_every_match() -> None:
    tournament = tournament_ready(8)
    stage = add_stage(tournament, "round_robin", pool_count=2)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    matches = list(Match.objects.filter(stage=stage).select_related("pool", "round"))
    assert len(matches) == 12
    assert {m.round.number for m in matches} == {1, 2, 3}
    assert Counter(m.pool.name for m in matches) == {"Pool A": 6, "Pool B": 6}
    pairs = {frozenset((m.home_id, m.away_id)) for m in matches}
    assert len(pairs) == 12
    assert all(m.state == Match.State.READY for m in matches)
    for number in (1, 2, 3):
        assert sorted(m.table for m in matches if m.round.number == number) == [1, 2, 3, 4]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_double_round_robin_with_an_odd_count() -> None:
    tournament = tournament_ready(5)
    stage = add_stage(tournament, "round_robin", legs=2)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    matches = Match.objects.filter(stage=stage)
    assert matches.count() == 20
    assert stage.rounds.count() == 10
    meetings = Counter(frozenset((m.home_id, m.away_id)) for m in matches)
    assert set(meetings.values()) == {2}


# ------------------------------------------------------------------ Swiss
def test_swiss_pairs_round_after_round_without_rematches() -> None:
    tournament = tournament_ready(8)
    stage = add_stage(tournament, "swiss")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    stage.refresh_from_db()
    assert stage.swiss_rounds == 3
    assert Match.objects.filter(stage=stage).count() == 4
    with pytest.raises(Conflict, match="still has matches"):
        swiss_round_pair(stage_id=stage.pk, actor=tournament.organiser)
    rng = random.Random(5)
    for number in (2, 3):
        stage_play_simulated(stage_id=stage.pk, rng=rng)
        swiss_round_pair(stage_id=stage.pk, actor=tournament.organiser)
        assert stage.rounds.count() == number
    stage_play_simulated(stage_id=stage.pk, rng=rng)
    pairs = [frozenset((m.home_id, m.away_id)) for m in Match.objects.filter(stage=stage)]
    assert len(pairs) == 12 == len(set(pairs))
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    with pytest.raises(Conflict, match="All 3 rounds"):
        swiss_round_pair(stage_id=stage.pk, actor=tournament.organiser)


def test_swiss_with_an_odd_count_gives_a_bye_that_counts_as_a_win() -> None:
    tournament = tournament_ready(7)
    stage = add_stage(tournament, "swiss", swiss_rounds=2)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    bye = Match.objects.get(stage=stage, bye=True)
    assert bye.state == Match.State.COMPLETE
    assert bye.winner_id == bye.home_id
    assert bye.home.seed == 7
    standings_recompute(stage_id=stage.pk, force=True)
    row = Standing.objects.get(stage=stage, entry=bye.home)
    assert (row.byes, row.match_wins, row.match_points) == (1, 1, 2)


# ------------------------------------------------------------------ elimination
def test_single_elimination_of_16_has_15_matches_in_4_rounds() -> None:
    tournament = tournament_ready(16)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert Match.objects.filter(stage=stage).count() == 15
    assert stage.rounds.count() == 4
    first = Match.objects.filter(stage=stage, key="W1-1").select_related("home", "away").get()
    assert (first.home.seed, first.away.seed) == (1, 16)
    assert len(ready_matches(stage.pk)) == 8


def test_byes_advance_the_top_seeds_by_themselves() -> None:
    tournament = tournament_ready(6)
    stage = add_stage(tournament, "single_elim", third_place=True)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    matches = {m.key: m for m in Match.objects.filter(stage=stage).select_related("home", "away")}
    assert len(matches) == 8
    byes = [m for m in matches.values() if m.state == Match.State.VOID]
    assert len(byes) == 2
    assert all(m.bye for m in byes)
    semis = [m for m in matches.values() if m.key.startswith("W2")]
    assert sorted(m.home.seed for m in semis if m.home) == [1, 2]
    assert all(m.state == Match.State.PENDING for m in semis)


def test_a_decided_match_advances_winner_and_loser() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "double_elim", grand_final="single")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    first = Match.objects.get(stage=stage, key="W1-1")
    first = win_match(first, "away")
    assert first.state == Match.State.COMPLETE
    assert first.winner_id == first.away_id
    assert first.away_games == 1
    assert first.home_points > 0
    assert first.away_points >= 500
    final = Match.objects.get(stage=stage, key="W2-1")
    losers = Match.objects.get(stage=stage, key="L1-1")
    assert final.home_id == first.away_id
    assert losers.home_id == first.home_id
    assert MatchGame.objects.filter(match=first).count() == 1


def test_double_elimination_played_out_crowns_one_champion() -> None:
    tournament = tournament_ready(16)
    stage = add_stage(tournament, "double_elim", grand_final="single")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert Match.objects.filter(stage=stage).count() == 30
    assert stage.rounds.count() == 11
    stage_play_simulated(stage_id=stage.pk, rng=random.Random(16))
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    tournament = tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    places = dict(tournament.entries.values_list("pk", "final_place"))
    final = Match.objects.get(stage=stage, key="GF1")
    assert places[final.winner_id] == 1
    assert sorted(places.values())[:2] == [1, 2]


def test_changing_a_result_with_later_matches_played_needs_a_confirmed_reset() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    final = win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    assert final.state == Match.State.COMPLETE
    with pytest.raises(Conflict) as info:
        match_forfeit(
            match_id=semi.pk,
            actor=tournament.organiser,
            loser_id=semi.home_id,
            expected_version=semi.version,
            overturn_result=True,
        )
    assert info.value.code == "dependents_played"
    assert "W2-1" in info.value.message
    match_forfeit(
        match_id=semi.pk,
        actor=tournament.organiser,
        loser_id=semi.home_id,
        expected_version=semi.version,
        confirm_reset=True,
        overturn_result=True,
    )
    final.refresh_from_db()
    assert final.state == Match.State.READY
    assert final.home_id == semi.away_id
    assert final.winner_id is None
    assert MatchGame.objects.filter(match=final, discarded=True).count() == 1


def test_a_forfeit_over_a_result_decided_by_play_is_refused_unless_it_overturns_it() -> None:
    tournament = tournament_ready(4, match_games=3)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    assert (semi.state, semi.home_games, semi.away_games) == (Match.State.COMPLETE, 2, 0)
    final = Match.objects.get(stage=stage, key="W2-1")
    assert final.home_id == semi.home_id
    with pytest.raises(Conflict) as info:
        match_forfeit(
            match_id=semi.pk,
            actor=tournament.organiser,
            loser_id=semi.home_id,
            expected_version=semi.version,
            confirm_reset=True,
        )
    assert info.value.code == "decided_by_play"
    winner = semi.home.team.name
    assert f"({winner} beat {semi.away.team.name} 2-0 on games)" in info.value.message
    assert "overturns the played result" in info.value.message
    assert list(info.value.fields) == ["overturn_result"]
    assert Match.objects.get(pk=semi.pk).version == semi.version  # nothing written
    assert Match.objects.get(pk=final.pk).home_id == semi.home_id
    overturned = match_forfeit(
        match_id=semi.pk,
        actor=tournament.organiser,
        loser_id=semi.home_id,
        expected_version=semi.version,
        overturn_result=True,
    )
    assert (overturned.forfeit, overturned.winner_id) == (True, semi.away_id)
    assert set(MatchGame.objects.filter(match=semi).values_list("discarded", flat=True)) == {True}
    assert Match.objects.get(pk=final.pk).home_id == semi.away_id
    # a forfeit already awarded, not decided by play, may be turned round
    again = match_forfeit(
        match_id=semi.pk,
        actor=tournament.organiser,
        loser_id=semi.away_id,
        expected_version=overturned.version,
    )
    assert again.winner_id == semi.home_id


def test_a_held_result_change_waits_for_the_director() -> None:
    from scoring import services as scoring_services

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    semi = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    game = MatchGame.objects.get(match=semi).game
    director = UserFactory(is_staff=True, is_superuser=True)
    scoring_services.game_reopen(game=game, by=director)
    from tournaments.services import match_sync_for_game

    assert match_sync_for_game(game_id=game.pk) is None
    semi.refresh_from_db()
    assert semi.state == Match.State.COMPLETE
    assert "W2-1" in semi.held_reason
    semi = match_reset_confirm(
        match_id=semi.pk, actor=tournament.organiser, expected_version=semi.version
    )
    assert semi.state == Match.State.IN_PROGRESS
    assert Match.objects.get(stage=stage, key="W2-1").state == Match.State.PENDING


def test_a_reset_waits_for_a_game_being_played_and_its_hold_names_every_match() -> None:
    from rest_framework.test import APIClient

    from scoring import services as scoring_services
    from scoring.models import Game
    from tests.scoring.factories import summary
    from tournaments.services import match_game_start, match_sync_for_game

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "double_elim", grand_final="single")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    first = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    win_match(Match.objects.get(stage=stage, key="W2-1"), "home")
    losers = Match.objects.get(stage=stage, key="L1-1")
    match_forfeit(
        match_id=losers.pk,
        actor=tournament.organiser,
        loser_id=losers.away_id,
        expected_version=losers.version,
    )
    later = Match.objects.get(stage=stage, key="L2-1")
    playing = match_game_start(match_id=later.pk, actor=None, first_dealer=0).game
    scoring_services.hand_record(
        game=playing, entry_kind="summary", entry=summary(caller=1, card_points=[22, 140])
    )
    game = MatchGame.objects.get(match=first).game
    scoring_services.game_reopen(game=game, by=tournament.organiser)
    assert match_sync_for_game(game_id=game.pk) is None
    first.refresh_from_db()
    assert "re-open W2-1, L2-1, already played, and L1-1, awarded by forfeit." in (
        first.held_reason
    )

    with pytest.raises(Conflict) as refused:
        match_reset_confirm(
            match_id=first.pk, actor=tournament.organiser, expected_version=first.version
        )
    assert refused.value.code == "game_in_progress"
    assert f"L2-1, whose game {playing.pk} is still being played" in refused.value.message
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    response = client.post(
        f"/api/v1/matches/{first.pk}/confirm-reset/", HTTP_IF_MATCH=f'"{first.version}"'
    )
    assert response.status_code == 409
    assert response.json()["code"] == "game_in_progress"
    playing.refresh_from_db()
    assert playing.status == Game.Status.IN_PROGRESS
    assert not MatchGame.objects.get(game=playing).discarded
    assert Match.objects.get(pk=later.pk).state == Match.State.IN_PROGRESS
    assert Match.objects.get(pk=first.pk).held_reason == first.held_reason

    # once the game is over, the reset goes through and sets it aside
    while playing.status == Game.Status.IN_PROGRESS:
        scoring_services.hand_record(
            game=playing, entry_kind="summary", entry=summary(caller=1, card_points=[22, 140])
        )
        playing.refresh_from_db()
    from tournaments.services import match_sync

    match_sync(match_id=later.pk)
    first.refresh_from_db()
    match_reset_confirm(
        match_id=first.pk, actor=tournament.organiser, expected_version=first.version
    )
    assert MatchGame.objects.get(game=playing).discarded
    assert Match.objects.get(pk=later.pk).state == Match.State.PENDING
    assert Match.objects.get(pk=losers.pk).forfeit is False


# ------------------------------------------------------------------ withdrawal
@pytest.mark.parametrize("forfeit", [True, False])
def test_withdrawal_forfeits_or_sets_aside_remaining_matches(forfeit: bool) -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    quitter = tournament.entries.get(seed=4)
    entry_withdraw(entry_id=quitter.pk, actor=tournament.organiser, forfeit_remaining=forfeit)
    theirs = Match.objects.filter(stage=stage, home=quitter) | Match.objects.filter(
        stage=stage, away=quitter
    )
    assert theirs.count() == 3
    for match in theirs:
        if forfeit:
            assert (match.state, match.forfeit) == (Match.State.COMPLETE, True)
            assert match.winner_id != quitter.pk
        else:
            assert match.state == Match.State.VOID


def test_a_withdrawn_entry_forfeits_bracket_matches_as_it_comes_up() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    top = Match.objects.get(stage=stage, key="W1-1")
    win_match(top, "home")
    entry_withdraw(entry_id=top.home_id, actor=tournament.organiser)
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    final = Match.objects.get(stage=stage, key="W2-1")
    assert final.forfeit
    assert final.winner_id == final.away_id


# ------------------------------------------------------------------ pools into knockout
def test_pools_advance_into_a_knockout_with_the_qualifiers() -> None:
    tournament = tournament_ready(8)
    pools = add_stage(tournament, "round_robin", pool_count=2)
    knockout = add_stage(tournament, "single_elim", qualifiers_per_pool=2)
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    with pytest.raises(Conflict, match="not finished"):
        stage_advance(tournament_id=tournament.pk, actor=tournament.organiser)
    stage_play_simulated(stage_id=pools.pk, rng=random.Random(8))
    stage_advance(tournament_id=tournament.pk, actor=tournament.organiser)
    tops = set(
        Standing.objects.filter(stage=pools, place__lte=2).values_list("entry_id", flat=True)
    )
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.RUNNING
    assert set(knockout.stage_entries.values_list("entry_id", flat=True)) == tops
    first_round = Match.objects.filter(stage=knockout, key__startswith="W1")
    pool_of = dict(pools.stage_entries.values_list("entry_id", "pool_id"))
    for match in first_round:
        assert pool_of[match.home_id] != pool_of[match.away_id]


# ------------------------------------------------------------------ standings
def _tournament_with_results(entries: int) -> Stage:
    tournament = tournament_ready(entries)
    stage = add_stage(tournament, "swiss", swiss_rounds=2)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    stage_play_simulated(stage_id=stage.pk, rng=random.Random(entries), limit=4)
    return stage


def test_standings_recompute_runs_in_a_constant_number_of_queries(
    django_assert_num_queries: object,
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for entries in (8, 32):
        stage = _tournament_with_results(entries)
        with CaptureQueriesContext(connection) as captured:
            assert standings_recompute(stage_id=stage.pk, force=True)
        counts.append(len(captured.captured_queries))
        assert Standing.objects.filter(stage=stage).count() == entries
    # ... of which one records the standings changed for webhooks (one statement, whatever
    # the number of subscribers)
    assert counts[0] == counts[1] <= 9


def test_standings_recompute_twice_changes_nothing() -> None:
    stage = _tournament_with_results(8)
    standings_recompute(stage_id=stage.pk, force=True)
    first = list(Standing.objects.filter(stage=stage).values())
    assert not standings_recompute(stage_id=stage.pk)
    standings_recompute(stage_id=stage.pk, force=True)
    assert list(Standing.objects.filter(stage=stage).values()) == first
    places = [row["place"] for row in first]
    assert all(a <= b for a, b in pairwise(places))


def test_many_results_in_one_commit_enqueue_one_recompute(
    django_capture_on_commit_callbacks: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    from tournaments import tasks

    tournament = tournament_ready(8)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    cache.clear()
    sent: list[int] = []
    monkeypatch.setattr(
        tasks.standings_recompute, "apply_async", lambda args, countdown: sent.append(args[0])
    )
    quitter = tournament.entries.get(seed=1)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        entry_withdraw(entry_id=quitter.pk, actor=tournament.organiser)
        for match in ready_matches(stage.pk)[:3]:
            match_forfeit(
                match_id=match.pk,
                actor=tournament.organiser,
                loser_id=match.home_id,
                expected_version=match.version,
            )
    assert sent == [stage.pk]
    stage.refresh_from_db()
    assert stage.standings_dirty
    tasks.standings_recompute.run(stage.pk)
    stage.refresh_from_db()
    assert not stage.standings_dirty
    assert Standing.objects.get(stage=stage, entry=quitter).match_losses == 7


# ------------------------------------------------------------------ ratings
def test_ratings_move_once_per_finished_match(
    django_capture_on_commit_callbacks: object,
) -> None:
    from tournaments.models import PlayerRating, RatingChange
    from tournaments.services import ratings_update_for_match

    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        match = win_match(Match.objects.get(stage=stage), "home")
    assert RatingChange.objects.filter(match=match).count() == 4
    assert not ratings_update_for_match(match_id=match.pk)
    assert RatingChange.objects.count() == 4
    winner = match.home.team.player_one_id
    loser = match.away.team.player_one_id
    assert (
        PlayerRating.objects.get(player_id=winner).mu > PlayerRating.objects.get(player_id=loser).mu
    )


def test_seeding_by_rating_puts_the_strongest_pair_first() -> None:
    from tournaments.models import PlayerRating

    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN, seed_by_rating=True)
    entries = [EntryFactory(tournament=tournament, checked_in=True, seed=s) for s in (1, 2, 3)]
    strong = entries[2].team
    for player in (strong.player_one, strong.player_two):
        PlayerRating.objects.create(player=player, mu=35.0, sigma=2.0)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    entries[2].refresh_from_db()
    assert entries[2].seed == 1


def test_substitutes_only_where_the_director_allows() -> None:
    from tournaments.services import entry_substitute_add

    entry = EntryFactory()
    with pytest.raises(Conflict, match="does not allow substitutes"):
        entry_substitute_add(
            entry_id=entry.pk, actor=entry.tournament.organiser, player_id=PlayerFactory().pk
        )
    Tournament.objects.filter(pk=entry.tournament_id).update(substitutes_allowed=True)
    sub = PlayerFactory()
    entry_substitute_add(entry_id=entry.pk, actor=entry.tournament.organiser, player_id=sub.pk)
    assert list(entry.substitutes.all()) == [sub]


# ------------------------------------------------------------------ match formats
def test_a_fixed_number_of_games_is_decided_on_total_points() -> None:
    from tests.tournaments.helpers import win_game
    from tournaments.services import match_sync

    tournament = tournament_ready(4, match_format="fixed", match_games=2)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    win_game(match, "home")
    match = match_sync(match_id=match.pk)
    assert match.state == Match.State.IN_PROGRESS
    win_game(match, "away")
    match = match_sync(match_id=match.pk)
    assert (match.home_games, match.away_games) == (1, 1)
    assert match.home_points == match.away_points
    assert match.state == Match.State.COMPLETE
    assert match.winner_id is None  # level on points and games: a drawn pool match


def test_a_level_fixed_format_knockout_match_needs_a_deciding_game() -> None:
    from tests.tournaments.helpers import win_game
    from tournaments.services import match_sync

    tournament = tournament_ready(2, match_format="fixed", match_games=2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    win_game(match, "home")
    win_game(match_sync(match_id=match.pk), "away")
    match = match_sync(match_id=match.pk)
    assert match.state == Match.State.IN_PROGRESS
    assert "play one more game" in match.held_reason
    win_game(match, "away")
    match = match_sync(match_id=match.pk)
    assert match.state == Match.State.COMPLETE
    assert match.winner_id == match.away_id
    assert match.held_reason == ""


def test_best_of_three_ends_when_one_side_has_two_games() -> None:
    tournament = tournament_ready(2, match_games=3)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = win_match(ready_matches(stage.pk)[0], "away")
    assert (match.home_games, match.away_games) == (0, 2)
    assert match.match_games.count() == 2
    assert match.winner_id == match.away_id


def test_the_periodic_full_recompute_repairs_stored_standings() -> None:
    from tournaments import tasks

    stage = _tournament_with_results(8)
    standings_recompute(stage_id=stage.pk, force=True)
    right = list(Standing.objects.filter(stage=stage).values_list("entry_id", "place", "played"))
    Standing.objects.filter(stage=stage).update(place=99, played=0)
    Standing.objects.filter(stage=stage, entry_id=right[0][0]).delete()
    tasks.standings_recompute_all.run()
    again = list(Standing.objects.filter(stage=stage).values_list("entry_id", "place", "played"))
    assert again == right


def test_a_game_corrected_back_into_play_no_longer_counts_for_its_match(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from scoring import services as scoring_services
    from tests.scoring.factories import summary
    from tests.tournaments.helpers import win_game

    tournament = tournament_ready(2, match_games=3)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    with django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    match.refresh_from_db()
    assert (match.state, match.home_games) == (Match.State.IN_PROGRESS, 1)

    last = game.hands.active().order_by("-number").first()
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hand_correct(
            hand=last,
            entry=summary(caller=0, card_points=(22, 140)),  # the home team went bait after all
            reason="wrong card points",
            expected_version=last.version,
        )
    game.refresh_from_db()
    assert game.status == game.Status.IN_PROGRESS
    match.refresh_from_db()
    assert (match.state, match.home_games, match.away_games) == (Match.State.IN_PROGRESS, 0, 0)
    assert (match.home_points, match.away_points) == (0, 0)


def test_a_first_stage_waits_for_check_in_to_be_processed() -> None:
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN, check_in_required=True)
    EntryFactory(tournament=tournament, seed=1, checked_in=True)
    EntryFactory(tournament=tournament, checked_in=True)
    EntryFactory(tournament=tournament, checked_in=False)
    stage = add_stage(tournament, "swiss", swiss_rounds=2)
    with pytest.raises(Conflict) as early:
        stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert early.value.code == "check_in_not_processed"
    assert "2 active entries" in str(early.value)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert stage.stage_entries.count() == 2  # the two that checked in


def test_a_pool_game_stands_once_the_knockout_has_started_from_the_pools() -> None:
    from scoring import services as scoring_services
    from tournaments.services import stage_advance

    tournament = tournament_ready(4)
    pools = add_stage(tournament, "round_robin")
    add_stage(tournament, "single_elim", qualifiers_per_pool=2)
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    for match in ready_matches(pools.pk):
        win_match(match, "home")
    game = MatchGame.objects.filter(match__stage=pools).first().game
    knockout = stage_advance(tournament_id=tournament.pk, actor=tournament.organiser)
    assert knockout.status == Stage.Status.RUNNING
    with pytest.raises(Conflict) as refused:
        scoring_services.game_reopen(game=game, by=tournament.organiser)
    assert refused.value.code == "result_final"
    assert str(refused.value) == (
        f"{knockout.name} has started from the results of {pools.name}: they stand"
    )
    game.refresh_from_db()
    assert game.status == "finished"
    pool_match = Match.objects.filter(stage=pools).first()
    with pytest.raises(Conflict) as forfeit:
        match_forfeit(
            match_id=pool_match.pk,
            actor=tournament.organiser,
            loser_id=pool_match.home_id,
            expected_version=pool_match.version,
            confirm_reset=True,
        )
    assert forfeit.value.code == "stage_taken_from"


def test_a_match_lists_each_game_under_the_right_team(django_assert_max_num_queries: Any) -> None:
    from scoring.models import Game
    from tournaments import selectors
    from tournaments.services import match_game_start

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    home, away = match.home.team, match.away.team
    Game.objects.filter(pk=game.pk).update(score_a=520, score_b=310)

    def rows() -> list[tuple[int | None, int | None, str]]:
        with django_assert_max_num_queries(3):  # with the names told apart
            found = selectors.match_detail(match.pk)
            return [(r.home, r.away, r.played_by) for r in selectors.match_game_rows(found)]

    assert rows() == [(520, 310, "")]
    Game.objects.filter(pk=game.pk).update(team_a=away, team_b=home)  # seated the other way
    assert rows() == [(310, 520, "")]
    other = Entry.objects.exclude(pk__in=[match.home_id, match.away_id]).first().team
    Game.objects.filter(pk=game.pk).update(team_a=other, team_b=home)  # set aside by a reset
    assert rows() == [(None, None, f"{other.name} 520-310 {home.name}")]
