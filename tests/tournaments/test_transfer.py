"""A tournament as one JSON document and as CSV tables, and the document read back: here, as
another installation would (players matched by name or created), all or nothing."""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.test import APIClient

from scoring.models import Game, Hand, HandRevision, Player, TotalsRevision
from tarabish_site.api.errors import ValidationFailed
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import EntryFactory
from tests.tournaments.helpers import ready_matches, tournament_played
from tournaments import exports
from tournaments.models import Entry, Match, Standing, Tournament, TournamentEvent
from tournaments.services import (
    match_game_correct_totals,
    match_game_record_totals,
    standings_recompute,
)
from tournaments.services.transfer import tournament_import

pytestmark = pytest.mark.django_db


def _json(document: dict[str, Any]) -> dict[str, Any]:
    """The document as it travels: through JSON text."""
    return json.loads(json.dumps(document, cls=DjangoJSONEncoder))  # type: ignore[no-any-return]


def canonical(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every key replaced by the row's place in its list, so two documents of
    the same tournament in two installations (or under two slugs) compare equal."""
    doc = copy.deepcopy(_json(document))
    doc.pop("exported_at")
    for name in ("slug", "name"):
        doc["tournament"].pop(name)

    def number(rows: list[dict[str, Any]]) -> dict[int | None, int | None]:
        places: dict[int | None, int | None] = {row["key"]: i for i, row in enumerate(rows)}
        for row in rows:
            row["key"] = places[row["key"]]
        places[None] = None
        return places

    players, teams = number(doc["players"]), number(doc["teams"])
    entries, games = number(doc["entries"]), number(doc["games"])
    for team in doc["teams"]:
        team["players"] = [players[k] for k in team["players"]]
    for entry in doc["entries"]:
        entry["team"] = teams[entry["team"]]
        entry["substitutes"] = [players[k] for k in entry["substitutes"]]
    for game in doc["games"]:
        game["team_a"], game["team_b"] = teams[game["team_a"]], teams[game["team_b"]]
        game["seats"] = [players[k] for k in game["seats"]]
    number(doc["stages"])
    for stage in doc["stages"]:
        pools, rounds = number(stage["pools"]), number(stage["rounds"])
        number(stage["matches"])
        for row in stage["stage_entries"] + stage["standings"]:
            row["entry"], row["pool"] = entries[row["entry"]], pools[row["pool"]]
        for match in stage["matches"]:
            match["round"], match["pool"] = rounds[match["round"]], pools[match["pool"]]
            for side in ("home", "away", "winner"):
                match[side] = entries[match[side]]
            for link in match["games"]:
                link["game"] = games[link["game"]]
    return doc


def test_the_document_holds_every_game_hand_and_revision() -> None:
    tournament = tournament_played()
    document = _json(exports.tournament_document(tournament))
    assert document["format"] == "tarabish-tournament"
    assert document["version"] == 1
    games = Game.objects.filter(match_link__match__stage__tournament=tournament)
    assert [g["key"] for g in document["games"]] == sorted(games.values_list("pk", flat=True))
    hands = [hand for game in document["games"] for hand in game["hands"]]
    assert len(hands) == Hand.objects.filter(game__in=games).count()
    assert any(hand["undone"] for hand in hands)
    revisions = [r for hand in hands for r in hand["revisions"]]
    assert len(revisions) == HandRevision.objects.filter(hand__game__in=games).count() > 0
    assert {r["action"] for r in revisions} >= {"recorded", "corrected", "undone"}
    matches = [m for stage in document["stages"] for m in stage["matches"]]
    assert len(matches) == Match.objects.filter(stage__tournament=tournament).count()


def test_a_document_read_back_is_the_same_tournament() -> None:
    original = tournament_played()
    # a time whose microseconds round to no millisecond is carried to the microsecond
    hand = Hand.objects.filter(game__match_link__match__stage__tournament=original).first()
    assert hand is not None
    entered = hand.created_at.replace(microsecond=500)
    Hand.objects.filter(pk=hand.pk).update(created_at=entered)
    document = _json(exports.tournament_document(original))
    players = Player.objects.count()
    director = UserFactory.create(username="director", is_staff=True)

    copy_ = tournament_import(document=document, actor=director, slug="copy", name="The copy")

    assert Player.objects.count() == players  # every player matched by name
    assert copy_.slug == "copy"
    assert copy_.organiser == director
    assert list(copy_.directors.all()) == [director]
    again = exports.tournament_document(copy_)
    assert canonical(again) == canonical(document)
    assert Hand.objects.filter(game__match_link__match__stage__tournament=copy_, created_at=entered)
    assert (
        Standing.objects.filter(stage__tournament=copy_).count()
        == Standing.objects.filter(stage__tournament=original).count()
    )


def test_another_installations_players_are_created_by_name() -> None:
    document = _json(exports.tournament_document(tournament_played()))
    for player in document["players"]:
        player["display_name"] = f"{player['display_name']} of Mabou"
    before = Player.objects.count()
    copy_ = tournament_import(document=document, actor=None, slug="mabou")
    assert Player.objects.count() == before + len(document["players"])
    assert canonical(exports.tournament_document(copy_))["games"] == canonical(document)["games"]


def tournament_with_everything() -> Tournament:
    """:func:`tournament_played` with its registration settings set, two teams waiting for a
    place, a semi-final recorded by its totals and corrected twice, and a history of being
    finished and reopened."""
    tournament = tournament_played()
    opens = dt.datetime(2026, 1, 10, 9, 30, 0, 250, tzinfo=dt.UTC)
    Tournament.objects.filter(pk=tournament.pk).update(
        entry_cap=4,
        self_registration=True,
        registration_opens_at=opens,
        registration_closes_at=opens + dt.timedelta(days=5),
        results_confirmed_by_both=True,
    )
    for minutes in (7, 3):  # registered out of the order of their ids
        waiting = EntryFactory.create(tournament=tournament, status=Entry.Status.WAITING)
        Entry.objects.filter(pk=waiting.pk).update(
            registered_at=opens + dt.timedelta(minutes=minutes)
        )
    semi = ready_matches(tournament.stages.get(kind="single_elim").pk)[0]
    match_game_record_totals(
        match_id=semi.pk, actor=tournament.organiser, home_points=505, away_points=200
    )
    for home, away in ((505, 250), (300, 510)):
        match_game_correct_totals(
            match_id=semi.pk,
            number=1,
            actor=tournament.organiser,
            home_points=home,
            away_points=away,
            reason=f"sheet read again: {home}-{away}",
            expected_version=Match.objects.get(pk=semi.pk).version,
        )
    standings_recompute(stage_id=semi.stage_id, force=True)  # as the task after a result would
    for minutes, kind, reason in ((60, "finished", ""), (90, "reopened", "a sheet was misread")):
        event = TournamentEvent.objects.create(tournament=tournament, kind=kind, reason=reason)
        TournamentEvent.objects.filter(pk=event.pk).update(
            at=opens + dt.timedelta(days=9, minutes=minutes)
        )
    tournament.refresh_from_db()
    return tournament


def test_settings_waiting_list_history_feeds_and_corrected_totals_are_carried() -> None:
    original = tournament_with_everything()
    document = _json(exports.tournament_document(original))
    copy_ = tournament_import(document=document, actor=None, slug="everything")
    assert canonical(exports.tournament_document(copy_)) == canonical(document)
    for name in ("entry_cap", "self_registration", "results_confirmed_by_both"):
        assert getattr(copy_, name) == getattr(original, name), name
    assert copy_.registration_opens_at == original.registration_opens_at
    assert copy_.registration_closes_at == original.registration_closes_at
    waiting = [
        e.registered_at
        for e in copy_.entries.filter(status=Entry.Status.WAITING).order_by("registered_at")
    ]
    assert waiting == [
        e.registered_at
        for e in original.entries.filter(status=Entry.Status.WAITING).order_by("registered_at")
    ]
    assert len(waiting) == 2
    assert list(copy_.events.order_by("at").values_list("kind", "reason", "at")) == list(
        original.events.order_by("at").values_list("kind", "reason", "at")
    )
    assert copy_.events.count() == 2
    quick = Game.objects.get(match_link__match__stage__tournament=copy_, totals_only=True)
    assert (quick.score_a, quick.score_b) == (300, 510)
    assert [
        (r.score_a, r.score_b, r.winner, r.reason)
        for r in TotalsRevision.objects.filter(game=quick).order_by("changed_at")
    ] == [
        (505, 200, "team_a", "sheet read again: 505-250"),
        (505, 250, "team_a", "sheet read again: 300-510"),
    ]
    bracket = Match.objects.filter(stage__tournament=copy_, stage__kind="single_elim")
    assert all(m.feeds is not None for m in bracket)
    assert list(bracket.order_by("key").values_list("key", "feeds")) == list(
        Match.objects.filter(stage__tournament=original, stage__kind="single_elim")
        .order_by("key")
        .values_list("key", "feeds")
    )


def test_a_document_written_before_the_newer_fields_still_imports() -> None:
    document = _json(exports.tournament_document(tournament_with_everything()))
    newer = (
        "entry_cap",
        "results_confirmed_by_both",
        "self_registration",
        "registration_opens_at",
        "registration_closes_at",
    )
    for name in newer:
        document["tournament"].pop(name)
    document.pop("history")
    for game in document["games"]:
        game.pop("totals_revisions")
    for stage in document["stages"]:
        for match in stage["matches"]:
            match.pop("feeds")
    copy_ = tournament_import(document=document, actor=None, slug="older")
    assert copy_.entry_cap is None
    assert not copy_.self_registration
    assert not copy_.results_confirmed_by_both
    assert copy_.registration_opens_at is None
    assert copy_.registration_closes_at is None
    assert not TotalsRevision.objects.filter(game__match_link__match__stage__tournament=copy_)
    assert not copy_.events.exists()
    assert not Match.objects.filter(stage__tournament=copy_, feeds__isnull=False).exists()


def test_every_field_of_every_row_is_written_or_left_out_with_a_reason() -> None:
    from scoring.models import Hand as HandModel
    from tournaments.models import MatchGame, Pool, Round, Stage, StageEntry

    written = {
        Tournament: exports.TOURNAMENT_FIELDS,
        Entry: exports.ENTRY_FIELDS,
        Stage: exports.STAGE_FIELDS,
        Pool: exports.POOL_FIELDS,
        Round: exports.ROUND_FIELDS,
        StageEntry: ("seed",),
        Match: exports.MATCH_FIELDS,
        MatchGame: exports.MATCH_GAME_FIELDS,
        Game: exports.GAME_FIELDS,
        HandModel: exports.HAND_FIELDS,
        HandRevision: exports.REVISION_FIELDS,
        TotalsRevision: exports.TOTALS_REVISION_FIELDS,
        TournamentEvent: exports.EVENT_FIELDS,
    }
    assert written.keys() == exports.LEFT_OUT.keys()
    for model, names in written.items():
        fields = {
            f.name
            for f in model._meta.get_fields()
            if f.concrete or (f.many_to_many and not f.auto_created)
        }
        left_out = exports.LEFT_OUT[model]
        assert all(left_out.values()), model  # each with its reason
        missing = fields - set(names) - left_out.keys()
        assert not missing, f"{model.__name__}: {sorted(missing)} neither written nor left out"
        assert not set(names) & left_out.keys(), model
        assert left_out.keys() <= fields, f"{model.__name__}: {left_out.keys() - fields} gone"


MALFORMED = [
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.update(format="challonge"), "format"),
    (lambda d: d["games"][0]["hands"][1].update(outcome="won"), "games.0.hands.1.outcome"),
    (lambda d: d["games"][1].pop("seats"), "games.1.seats"),
    (lambda d: d["stages"][0]["matches"][1].update(home=999_999), "stages.0.matches.1.home"),
    (lambda d: d["entries"][2].update(team=888_888), "entries.2.team"),
    (lambda d: d["teams"].append(dict(d["teams"][0])), "teams.4.key"),
    (lambda d: d["tournament"].update(slug=Tournament.objects.get().slug), "tournament.slug"),
    (lambda d: d["tournament"].update(entry_cap=-1), "tournament.entry_cap"),
    (
        lambda d: d.update(history=[{"kind": "paused", "at": "2026-01-01T00:00:00Z"}]),
        "history.0.kind",
    ),
    (lambda d: d["games"][0].update(totals_revisions=[{}]), "games.0.totals_revisions.0.score_a"),
    (lambda d: d["stages"][1]["matches"][0].update(feeds="W2-1"), "stages.1.matches.0.feeds"),
    (
        lambda d: d["stages"][1]["matches"][0]["feeds"][0].update(match="W9-9"),
        "stages.1.matches.0.feeds.0.match",
    ),
]


def test_a_malformed_document_is_refused_naming_the_field() -> None:
    exported = _json(exports.tournament_document(tournament_played()))
    tournaments = Tournament.objects.count()
    for change, field in MALFORMED:
        document = copy.deepcopy(exported)
        document["tournament"]["slug"] = "copy"
        change(document)
        with pytest.raises(ValidationFailed) as refused:
            tournament_import(document=document, actor=None)
        assert field in refused.value.fields, (field, refused.value.fields)
        assert refused.value.message.startswith(field)
    assert Tournament.objects.count() == tournaments


def test_a_document_the_database_refuses_leaves_nothing_behind() -> None:
    document = _json(exports.tournament_document(tournament_played()))
    document["tournament"]["slug"] = "twice"
    for player in document["players"]:
        player["display_name"] += " from away"
    hands = document["games"][-1]["hands"]
    hands[-1]["number"] = hands[0]["number"]  # two counting hands with one number
    hands[-1]["undone"] = hands[0]["undone"] = False
    counts = (Tournament.objects.count(), Player.objects.count(), Game.objects.count())
    with pytest.raises(ValidationFailed, match="rule of the database"):
        tournament_import(document=document, actor=None)
    assert (Tournament.objects.count(), Player.objects.count(), Game.objects.count()) == counts


def test_csv_tables_of_standings_matches_and_hands() -> None:
    tournament = tournament_played()
    standings = list(csv.DictReader(io.StringIO(exports.standings_csv(tournament))))
    assert len(standings) == Standing.objects.filter(stage__tournament=tournament).count()
    assert standings[0]["stage"] == "Stage 1: Round robin"
    assert standings[0]["place"] == "1"
    matches = list(csv.DictReader(io.StringIO(exports.matches_csv(tournament))))
    assert len(matches) == Match.objects.filter(stage__tournament=tournament).count()
    hands = list(csv.DictReader(io.StringIO(exports.hands_csv(tournament))))
    stored = Hand.objects.filter(game__match_link__match__stage__tournament=tournament)
    assert len(hands) == stored.count()
    first = stored.order_by("game__match_link__match_id", "number").first()
    assert first is not None
    assert hands[0]["running_a"] == str(first.running_a)


def test_the_commands_carry_a_tournament_through_a_file(tmp_path: Path) -> None:
    tournament = tournament_played()
    path = tmp_path / "cup.json"
    call_command("export_tournament", tournament.slug, "--output", str(path))
    call_command("import_tournament", str(path), "--slug", "from-file")
    copy_ = Tournament.objects.get(slug="from-file")
    assert canonical(exports.tournament_document(copy_)) == canonical(
        exports.tournament_document(tournament)
    )
    call_command("export_tournament", tournament.slug, "--csv", "hands", "-o", str(tmp_path / "h"))
    assert (tmp_path / "h").read_text().startswith("match,game_in_match,game,")
    with pytest.raises(CommandError, match=r"tournament\.slug"):
        call_command("import_tournament", str(path))  # its slug is taken here


def test_the_api_exports_and_imports() -> None:
    tournament = tournament_played()
    anon = APIClient()
    answer = anon.get(f"/api/v1/tournaments/{tournament.slug}/export/")
    assert answer.status_code == 200
    document = answer.json()
    assert document["format"] == "tarabish-tournament"
    refused = anon.post("/api/v1/tournaments/import/?slug=api-copy", document, format="json")
    assert refused.status_code in (401, 403)
    director = APIClient()
    director.force_authenticate(UserFactory.create(username="chief", is_staff=True))
    made = director.post("/api/v1/tournaments/import/?slug=api-copy", document, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["slug"] == "api-copy"
    document["stages"][0]["matches"][0]["round"] = 424242
    bad = director.post("/api/v1/tournaments/import/?slug=api-bad", document, format="json")
    assert bad.status_code == 400
    assert "stages.0.matches.0.round" in bad.json()["fields"]


def test_the_directors_page_links_the_downloads(client: Any) -> None:
    tournament = tournament_played()
    client.force_login(tournament.organiser)
    page = client.get(f"/tournaments/{tournament.slug}/director/").content.decode()
    for link in ("export.json", "export/standings.csv", "export/matches.csv", "export/hands.csv"):
        assert f"/tournaments/{tournament.slug}/{link}" in page
    whole = client.get(f"/tournaments/{tournament.slug}/export.json")
    assert whole["Content-Disposition"] == f'attachment; filename="{tournament.slug}.json"'
    assert canonical(whole.json()) == canonical(exports.tournament_document(tournament))
    hands = client.get(f"/tournaments/{tournament.slug}/export/hands.csv")
    assert hands["Content-Type"] == "text/csv; charset=utf-8"
    assert hands.content.decode() == exports.hands_csv(tournament)
    assert client.get(f"/tournaments/{tournament.slug}/export/secrets.csv").status_code == 404


def test_a_private_tournaments_downloads_are_its_directors_alone(client: Any) -> None:
    tournament = tournament_played()
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    assert client.get(f"/tournaments/{tournament.slug}/export.json").status_code == 404
    assert client.get(f"/tournaments/{tournament.slug}/export/hands.csv").status_code == 404
    assert APIClient().get(f"/api/v1/tournaments/{tournament.slug}/export/").status_code == 404
    client.force_login(tournament.organiser)
    assert client.get(f"/tournaments/{tournament.slug}/export.json").status_code == 200
