# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,dict-item"
"""A registered substitute sits in for a team player in a match game, and nobody else does."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring_services
from tarabish_site.api.errors import ValidationFailed
from tests.scoring.factories import PlayerFactory, TeamFactory
from tests.tournaments.factories import (
    EntryFactory,
    TournamentFactory,
    add_stage,
    tournament_ready,
)
from tournaments.models import Match, Tournament
from tournaments.services import (
    entries_import_csv,
    entry_register,
    entry_substitute_add,
    match_game_start,
    stage_start,
)

pytestmark = pytest.mark.django_db


def ready_match(**values: object) -> Match:
    tournament = tournament_ready(2, substitutes_allowed=True, **values)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    return Match.objects.select_related("home__team", "away__team").get(stage=stage)


def seats_with(match: Match, seat_0: int) -> list[int]:
    home, away = match.home.team, match.away.team
    return [seat_0, away.player_one_id, home.player_two_id, away.player_two_id]


def test_a_registered_substitute_takes_a_team_seat() -> None:
    match = ready_match()
    sub = PlayerFactory()
    organiser = match.stage.tournament.organiser
    entry_substitute_add(entry_id=match.home_id, actor=organiser, player_id=sub.pk)
    link = match_game_start(match_id=match.pk, actor=organiser, seats=seats_with(match, sub.pk))
    assert link.game.seat_0_id == sub.pk
    assert link.game.team_a_id == match.home.team_id


def test_a_player_who_is_not_a_registered_substitute_is_refused() -> None:
    match = ready_match()
    stranger = PlayerFactory()
    with pytest.raises(ValidationFailed) as info:
        match_game_start(match_id=match.pk, actor=None, seats=seats_with(match, stranger.pk))
    assert info.value.code == "bad_seats"
    assert list(info.value.fields) == ["seats.0"]
    assert not match.match_games.exists()


def test_a_substitute_sits_only_for_the_entry_that_registered_them() -> None:
    match = ready_match()
    sub = PlayerFactory()
    entry_substitute_add(entry_id=match.away_id, actor=None, player_id=sub.pk)
    with pytest.raises(ValidationFailed) as info:
        match_game_start(match_id=match.pk, actor=None, seats=seats_with(match, sub.pk))
    assert list(info.value.fields) == ["seats.0"]


def test_no_substitute_once_the_director_stops_allowing_them() -> None:
    match = ready_match()
    sub = PlayerFactory()
    entry_substitute_add(entry_id=match.home_id, actor=None, player_id=sub.pk)
    Tournament.objects.filter(pk=match.stage.tournament_id).update(substitutes_allowed=False)
    with pytest.raises(ValidationFailed):
        match_game_start(match_id=match.pk, actor=None, seats=seats_with(match, sub.pk))


def test_a_player_in_two_seats_is_refused() -> None:
    match = ready_match()
    home = match.home.team
    seats = seats_with(match, home.player_two_id)
    with pytest.raises(ValidationFailed) as info:
        match_game_start(match_id=match.pk, actor=None, seats=seats)
    assert list(info.value.fields) == ["seats"]


def test_scoring_takes_a_substitute_only_when_told_the_team() -> None:
    team_a, team_b, sub = TeamFactory(), TeamFactory(), PlayerFactory()
    seats = [sub, team_b.player_one, team_a.player_two, team_b.player_two]
    with pytest.raises(ValidationFailed):
        scoring_services.game_create(team_a=team_a, team_b=team_b, seats=seats)
    with pytest.raises(ValidationFailed):  # named for the other team: still refused at seat 0
        scoring_services.game_create(
            team_a=team_a, team_b=team_b, seats=seats, substitutes={sub.pk: team_b}
        )
    game = scoring_services.game_create(
        team_a=team_a, team_b=team_b, seats=seats, substitutes={sub.pk: team_a}
    )
    assert game.seat_ids[0] == sub.pk
    partners_side_by_side = [team_a.player_one, sub, team_b.player_one, team_b.player_two]
    with pytest.raises(ValidationFailed):
        scoring_services.game_create(
            team_a=team_a,
            team_b=team_b,
            seats=partners_side_by_side,
            substitutes={sub.pk: team_a},
        )


def test_a_player_on_another_entrys_team_is_refused_naming_that_entry() -> None:
    match = ready_match()
    away = match.away
    with pytest.raises(ValidationFailed) as info:
        entry_substitute_add(entry_id=match.home_id, actor=None, player_id=away.team.player_two_id)
    [reason] = info.value.fields["player"]
    assert f"already plays for {away.team} (entry {away.pk})" in reason
    assert not match.home.substitutes.exists()


def test_a_substitute_of_another_entry_is_refused_naming_that_entry() -> None:
    match = ready_match()
    sub = PlayerFactory()
    entry_substitute_add(entry_id=match.away_id, actor=None, player_id=sub.pk)
    entry_substitute_add(entry_id=match.away_id, actor=None, player_id=sub.pk)  # again: no-op
    with pytest.raises(ValidationFailed) as info:
        entry_substitute_add(entry_id=match.home_id, actor=None, player_id=sub.pk)
    [reason] = info.value.fields["player"]
    assert f"already a substitute for {match.away.team} (entry {match.away_id})" in reason
    assert not match.home.substitutes.exists()
    # a substitute in another tournament is free to stand in here
    other = ready_match()
    entry_substitute_add(entry_id=other.home_id, actor=None, player_id=sub.pk)


def test_the_entries_show_their_substitutes_in_a_flat_number_of_queries(
    django_assert_max_num_queries: Any,
) -> None:
    tournament = tournament_ready(6, substitutes_allowed=True)
    entries = list(tournament.entries.order_by("seed"))
    subs = PlayerFactory.create_batch(5)
    for entry, sub in zip(entries, subs, strict=False):
        entry_substitute_add(entry_id=entry.pk, actor=None, player_id=sub.pk)
    entry_substitute_add(entry_id=entries[0].pk, actor=None, player_id=PlayerFactory().pk)
    client = APIClient()
    with django_assert_max_num_queries(5):  # with the names told apart
        listed = client.get(f"/api/v1/tournaments/{tournament.slug}/entries/").json()["results"]
    shown = {e["id"]: e["substitutes"] for e in listed}
    assert shown[entries[1].pk] == [{"id": subs[1].pk, "display_name": subs[1].display_name}]
    assert len(shown[entries[0].pk]) == 2
    assert shown[entries[5].pk] == []
    one = client.get(f"/api/v1/tournaments/{tournament.slug}/entries/{entries[2].pk}/").json()
    assert one["substitutes"] == [{"id": subs[2].pk, "display_name": subs[2].display_name}]


def test_a_substitute_added_through_the_api_is_in_the_answer_and_a_refusal_names_player() -> None:
    match = ready_match()
    tournament = match.stage.tournament
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    base = f"/api/v1/tournaments/{tournament.slug}/entries"
    sub = PlayerFactory()
    added = client.post(f"{base}/{match.home_id}/substitutes/", {"player": sub.pk}, format="json")
    assert added.status_code == 200
    assert added.json()["substitutes"] == [{"id": sub.pk, "display_name": sub.display_name}]
    refused = client.post(f"{base}/{match.away_id}/substitutes/", {"player": sub.pk}, format="json")
    assert refused.status_code == 400
    assert list(refused.json()["fields"]) == ["player"]
    assert f"entry {match.home_id}" in refused.json()["message"]


def test_a_team_with_a_player_of_another_entry_is_not_registered() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, substitutes_allowed=True)
    EntryFactory(tournament=tournament)
    EntryFactory(tournament=tournament)
    organiser = tournament.organiser
    first, second = tournament.entries.select_related("team").order_by("pk")
    sub = PlayerFactory(display_name="Effie Rankin", community="Mabou")
    entry_substitute_add(entry_id=first.pk, actor=organiser, player_id=sub.pk)

    shares_a_player = TeamFactory(player_one=second.team.player_one)
    with pytest.raises(ValidationFailed) as playing:
        entry_register(tournament_id=tournament.pk, actor=organiser, team_id=shares_a_player.pk)
    assert str(second.team.player_one) in playing.value.fields["team"][0]
    assert f"(entry {second.pk})" in playing.value.fields["team"][0]

    with_the_substitute = TeamFactory(player_two=sub)
    with pytest.raises(ValidationFailed) as standing_in:
        entry_register(tournament_id=tournament.pk, actor=organiser, team_id=with_the_substitute.pk)
    assert "already a substitute" in standing_in.value.fields["team"][0]

    csv = "team,player_one,player_two,community\nLate Pair,effie rankin,Ann Beaton,mabou\n"
    with pytest.raises(ValidationFailed) as imported:
        entries_import_csv(tournament_id=tournament.pk, actor=organiser, text=csv)
    assert imported.value.fields == {
        "rows.2.player_one": ["effie rankin is already registered in this tournament."]
    }
    assert tournament.entries.count() == 2
