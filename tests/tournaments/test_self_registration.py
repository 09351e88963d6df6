# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,index"
# mypy: disable-error-code="return-value,comparison-overlap,misc"
"""Teams that register themselves: a signed-in player names a partner, the partner confirms,
inside the window the director sets; beyond the cap the team waits."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import Player, Team
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from tests.scoring.factories import PlayerFactory, TeamFactory, UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, TeamRegistration, Tournament
from tournaments.services import (
    entries_bulk_add,
    entry_register,
    entry_substitute_add,
    registration_closed_why,
    team_registration_confirm,
    team_registration_create,
    team_registration_withdraw,
    tournament_update,
)
from tournaments.services import registrations as registrations_module

pytestmark = pytest.mark.django_db
NOW = timezone.now()
HOUR = dt.timedelta(hours=1)


def open_tournament(**values: Any) -> Tournament:
    values = {
        "status": Tournament.Status.REGISTRATION,
        "self_registration": True,
        "registration_opens_at": NOW - HOUR,
        "registration_closes_at": NOW + 24 * HOUR,
        **values,
    }
    return TournamentFactory(**values)


def register(tournament: Tournament, by: Any, partner: Any, **more: Any) -> TeamRegistration:
    return team_registration_create(
        tournament_id=tournament.pk, actor=by, partner=partner.username, **more
    )


def test_the_partner_confirms_and_the_team_is_entered() -> None:
    tournament = open_tournament()
    angus = UserFactory(username="angus", first_name="Angus", last_name="MacNeil")
    flora = UserFactory(username="flora")
    registration = register(tournament, angus, flora, team_name="The Bait Shop", community="Mabou")
    assert registration.status == TeamRegistration.Status.PENDING
    assert not tournament.entries.exists()

    confirmed = team_registration_confirm(registration_id=registration.pk, actor=flora)

    assert confirmed.status == TeamRegistration.Status.CONFIRMED
    entry = tournament.entries.get()
    assert confirmed.entry == entry
    assert entry.status == Entry.Status.ACTIVE
    assert entry.checked_in
    assert entry.team.name == "The Bait Shop"
    players = {entry.team.player_one, entry.team.player_two}
    assert {p.user for p in players} == {angus, flora}
    assert {str(p) for p in players} == {"Angus MacNeil (Mabou)", "flora (Mabou)"}


def test_the_players_and_team_of_the_two_accounts_are_reused() -> None:
    tournament = open_tournament()
    angus, flora = UserFactory(), UserFactory()
    team = TeamFactory(
        player_one=PlayerFactory(user=angus), player_two=PlayerFactory(user=flora), name="Old"
    )
    players, teams = Player.objects.count(), Team.objects.count()
    registration = register(tournament, flora, angus, team_name="New name")
    team_registration_confirm(registration_id=registration.pk, actor=angus)
    assert tournament.entries.get().team == team
    assert (Player.objects.count(), Team.objects.count()) == (players, teams)


def test_an_account_named_like_another_player_gets_a_player_of_its_own() -> None:
    tournament = open_tournament()
    PlayerFactory(display_name="flora", community="")
    angus, flora = UserFactory(), UserFactory(username="flora")
    registration = register(tournament, angus, flora)
    team_registration_confirm(registration_id=registration.pk, actor=flora)
    assert Player.objects.get(user=flora).display_name == "flora (flora)"


def test_beyond_the_cap_the_confirmed_team_waits() -> None:
    tournament = open_tournament(entry_cap=2)
    rows = [{"player_one": f"A {n}", "player_two": f"B {n}"} for n in range(2)]
    entries_bulk_add(tournament_id=tournament.pk, actor=tournament.organiser, entries=rows)
    angus, flora = UserFactory(), UserFactory()
    registration = register(tournament, angus, flora)
    confirmed = team_registration_confirm(registration_id=registration.pk, actor=flora)
    assert confirmed.entry.status == Entry.Status.WAITING
    assert confirmed.entry.seed is None


def test_with_a_check_in_the_team_is_not_checked_in_yet() -> None:
    tournament = open_tournament(check_in_required=True)
    angus, flora = UserFactory(), UserFactory()
    registration = register(tournament, angus, flora)
    entry = team_registration_confirm(registration_id=registration.pk, actor=flora).entry
    assert entry.status == Entry.Status.ACTIVE
    assert not entry.checked_in


@pytest.mark.parametrize(
    ("values", "why"),
    [
        ({"self_registration": False}, "do not register themselves"),
        ({"registration_opens_at": NOW + HOUR}, "registration opens at"),
        ({"registration_closes_at": NOW - dt.timedelta(minutes=1)}, "registration closed at"),
        ({"status": Tournament.Status.RUNNING}, "play has started"),
        ({"status": Tournament.Status.FINISHED}, "play has started"),
    ],
)
def test_outside_the_window_registration_is_refused(values: dict[str, Any], why: str) -> None:
    tournament = open_tournament(**values)
    assert why in registration_closed_why(tournament)
    with pytest.raises(Conflict) as refused:
        register(tournament, UserFactory(), UserFactory())
    assert refused.value.code == "registration_closed"
    assert why in refused.value.message


def test_an_open_ended_window_is_open() -> None:
    tournament = open_tournament(registration_opens_at=None, registration_closes_at=None)
    assert registration_closed_why(tournament) == ""
    assert registration_closed_why(tournament, now=NOW + 1000 * HOUR) == ""


def test_a_window_that_closed_while_the_partner_waited_refuses_the_confirmation() -> None:
    tournament = open_tournament()
    angus, flora = UserFactory(), UserFactory()
    registration = register(tournament, angus, flora)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes_at=NOW)
    with pytest.raises(Conflict) as refused:
        team_registration_confirm(registration_id=registration.pk, actor=flora)
    assert refused.value.code == "registration_closed"
    assert not tournament.entries.exists()


def test_the_partner_must_be_another_existing_account() -> None:
    tournament = open_tournament()
    angus = UserFactory()
    with pytest.raises(ValidationFailed) as self_named:
        register(tournament, angus, angus)
    assert self_named.value.code == "partner_self"
    assert "partner" in self_named.value.fields
    with pytest.raises(ValidationFailed) as unknown:
        team_registration_create(tournament_id=tournament.pk, actor=angus, partner="nobody")
    assert unknown.value.code == "partner_unknown"
    assert "nobody" in unknown.value.fields["partner"][0]
    inactive = UserFactory(is_active=False)
    with pytest.raises(ValidationFailed):
        register(tournament, angus, inactive)
    assert not TeamRegistration.objects.exists()


def test_a_team_name_that_is_only_spaces_is_no_name_and_a_bad_one_is_refused() -> None:
    tournament = open_tournament()
    with pytest.raises(ValidationFailed) as refused:
        register(tournament, UserFactory(), UserFactory(), team_name="The\x00Shop")
    assert "team_name" in refused.value.fields
    with pytest.raises(ValidationFailed) as long:
        register(tournament, UserFactory(), UserFactory(), community="M" * 101)
    assert "community" in long.value.fields


def test_only_a_signed_in_player_registers() -> None:
    tournament = open_tournament()
    with pytest.raises(NotAllowed):
        team_registration_create(tournament_id=tournament.pk, actor=None, partner="flora")


def _entered(tournament: Tournament, user: Any) -> None:
    team = TeamFactory(player_one=PlayerFactory(user=user))
    entry_register(tournament_id=tournament.pk, actor=tournament.organiser, team_id=team.pk)


@pytest.mark.parametrize("who", ["requester", "partner"])
def test_a_player_already_entered_is_refused(who: str) -> None:
    tournament = open_tournament()
    angus, flora = UserFactory(), UserFactory()
    _entered(tournament, angus if who == "requester" else flora)
    with pytest.raises(Conflict) as refused:
        register(tournament, angus, flora)
    assert refused.value.code == "player_entered"
    assert ("partner" in refused.value.fields) == (who == "partner")
    assert "already entered" in refused.value.message


def test_a_substitute_of_an_entry_is_refused_too() -> None:
    tournament = open_tournament(substitutes_allowed=True)
    angus, flora = UserFactory(), UserFactory()
    entry = Entry.objects.create(tournament=tournament, team=TeamFactory())
    entry_substitute_add(
        entry_id=entry.pk, actor=tournament.organiser, player_id=PlayerFactory(user=flora).pk
    )
    with pytest.raises(Conflict) as refused:
        register(tournament, angus, flora)
    assert refused.value.code == "player_entered"


def test_a_player_entered_while_the_partner_waited_is_refused_at_confirmation() -> None:
    tournament = open_tournament()
    angus, flora = UserFactory(), UserFactory()
    registration = register(tournament, angus, flora)
    _entered(tournament, angus)
    with pytest.raises(Conflict) as refused:
        team_registration_confirm(registration_id=registration.pk, actor=flora)
    assert refused.value.code == "player_entered"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("angus", "flora"), ("angus", "ian")),  # the same player asks twice
        (("angus", "flora"), ("ian", "flora")),  # the same partner named twice
        (("angus", "flora"), ("flora", "ian")),  # the partner asks someone else
        (("angus", "flora"), ("ian", "angus")),  # someone names the player who asked
    ],
)
def test_a_registration_waiting_for_either_player_is_refused(
    first: tuple[str, str], second: tuple[str, str]
) -> None:
    tournament = open_tournament()
    users = {name: UserFactory(username=name) for name in ("angus", "flora", "ian")}
    register(tournament, users[first[0]], users[first[1]])
    with pytest.raises(Conflict) as refused:
        register(tournament, users[second[0]], users[second[1]])
    assert refused.value.code == "registration_pending"
    assert "already has a registration waiting" in refused.value.message
    # the same players in another tournament are free
    register(open_tournament(), users[second[0]], users[second[1]])


def test_a_race_past_the_checks_is_caught_by_the_constraint(monkeypatch: Any) -> None:
    """Two requests naming the same partner that both passed the check (as two writers would
    without the tournament's lock): the unique constraint refuses the second with a 409."""
    tournament = open_tournament()
    angus, flora, ian = UserFactory(), UserFactory(), UserFactory()
    register(tournament, angus, flora)
    monkeypatch.setattr(registrations_module, "_refuse_pending", lambda *args: None)
    with pytest.raises(Conflict) as refused:
        register(tournament, ian, flora)
    assert refused.value.status == 409
    assert refused.value.code == "registration_pending"
    assert TeamRegistration.objects.count() == 1


def test_only_the_partner_confirms_and_only_once() -> None:
    tournament = open_tournament()
    angus, flora = UserFactory(), UserFactory()
    registration = register(tournament, angus, flora)
    with pytest.raises(NotAllowed) as refused:
        team_registration_confirm(registration_id=registration.pk, actor=angus)
    assert refused.value.code == "partner_only"
    with pytest.raises(NotFound):
        team_registration_confirm(registration_id=registration.pk, actor=UserFactory())
    team_registration_confirm(registration_id=registration.pk, actor=flora)
    with pytest.raises(Conflict) as again:
        team_registration_confirm(registration_id=registration.pk, actor=flora)
    assert again.value.code == "registration_decided"
    assert tournament.entries.count() == 1


@pytest.mark.parametrize(("who", "status"), [("angus", "withdrawn"), ("flora", "declined")])
def test_either_player_takes_back_a_waiting_registration(who: str, status: str) -> None:
    tournament = open_tournament()
    users = {"angus": UserFactory(), "flora": UserFactory()}
    registration = register(tournament, users["angus"], users["flora"])
    taken_back = team_registration_withdraw(registration_id=registration.pk, actor=users[who])
    assert taken_back.status == status
    with pytest.raises(Conflict):
        team_registration_confirm(registration_id=registration.pk, actor=users["flora"])
    # free again: either may register anew
    register(tournament, users["flora"], users["angus"])
    assert not tournament.entries.exists()


def test_nobody_else_withdraws_it() -> None:
    tournament = open_tournament()
    registration = register(tournament, UserFactory(), UserFactory())
    with pytest.raises(NotFound):
        team_registration_withdraw(registration_id=registration.pk, actor=tournament.organiser)
    with pytest.raises(NotAllowed):
        team_registration_withdraw(registration_id=registration.pk, actor=None)


def test_the_director_sets_the_window() -> None:
    tournament = TournamentFactory()
    changed = tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=tournament.version,
        changes={
            "self_registration": True,
            "registration_opens_at": NOW,
            "registration_closes_at": NOW + HOUR,
        },
    )
    assert changed.self_registration
    assert changed.registration_closes_at == NOW + HOUR
    with pytest.raises(ValidationFailed) as refused:
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=changed.version,
            changes={"registration_closes_at": NOW - HOUR},
        )
    assert "registration_closes_at" in refused.value.fields


def test_the_admin_lists_registrations_and_changes_none(client: Any) -> None:
    tournament = open_tournament()
    register(tournament, UserFactory(username="angus"), UserFactory(username="flora"))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    listed = client.get("/admin/tournaments/teamregistration/")
    assert listed.status_code == 200
    assert "angus" in listed.content.decode()
    assert client.get("/admin/tournaments/teamregistration/add/").status_code == 403
