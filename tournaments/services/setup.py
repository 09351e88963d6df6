"""A tournament set up in one go: its name and ruleset, a format preset (its stages), its teams
pasted as text, their seeds, and, if asked, its first stage started. All of it or nothing."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from tarabish_site.api.errors import ValidationFailed
from tournaments.models import POOLS_MAX, SWISS_ROUNDS_MAX, Stage, Tournament
from tournaments.services._common import Actor, invalid
from tournaments.services.stages import stage_create, stage_start
from tournaments.services.tournaments import (
    entries_bulk_add,
    entries_import_csv,
    entries_seed,
    tournament_create,
    tournament_open_check_in,
    tournament_open_registration,
)

Kind = Stage.Kind


@dataclass(frozen=True)
class FormatPreset:
    """A common shape of a tournament: its stages, and which settings it takes."""

    slug: str
    label: StrOrPromise
    kinds: tuple[str, ...]
    #: Settings that apply: pool_count, qualifiers_per_pool, swiss_rounds, third_place.
    takes: frozenset[str]


FORMAT_PRESETS: dict[str, FormatPreset] = {
    p.slug: p
    for p in (
        FormatPreset(
            "round_robin",
            _("Round robin: everyone plays everyone"),
            (Kind.ROUND_ROBIN,),
            frozenset(),
        ),
        FormatPreset(
            "pools_single",
            _("Pools, then single elimination"),
            (Kind.ROUND_ROBIN, Kind.SINGLE_ELIM),
            frozenset({"pool_count", "qualifiers_per_pool", "third_place"}),
        ),
        FormatPreset(
            "pools_double",
            _("Pools, then double elimination"),
            (Kind.ROUND_ROBIN, Kind.DOUBLE_ELIM),
            frozenset({"pool_count", "qualifiers_per_pool"}),
        ),
        FormatPreset("swiss", _("Swiss"), (Kind.SWISS,), frozenset({"swiss_rounds"})),
        FormatPreset(
            "single_elim", _("Single elimination"), (Kind.SINGLE_ELIM,), frozenset({"third_place"})
        ),
        FormatPreset("double_elim", _("Double elimination"), (Kind.DOUBLE_ELIM,), frozenset()),
    )
}

SEEDINGS = {
    "as_entered": _("As entered"),
    "rating": _("By the players' ratings"),
    "random": _("At random"),
}

_PAIR = re.compile(r"\s*(?:&|\+|/|,| and )\s*", re.IGNORECASE)


def teams_from_text(text: str) -> list[dict[str, str]]:
    """The teams of pasted text, one a line: ``Player One & Player Two`` (also ``and``, ``+``,
    ``/`` or a comma between them), optionally after a team name and a colon
    (``The Bait Shop: Angus & Flora``). Blank lines are skipped. A line with no second player
    gives a team with ``player_two`` empty, which registration then refuses by its line."""
    teams: list[dict[str, str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        name, _, players = line.rpartition(":")
        parts = [p for p in _PAIR.split(players, maxsplit=1) if p is not None]
        one = parts[0].strip() if parts else ""
        two = parts[1].strip() if len(parts) > 1 else ""
        teams.append({"team": name.strip(), "player_one": one, "player_two": two})
    return teams


def _is_csv(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    header = {column.strip().lower() for column in first.lstrip("\ufeff").split(",")}
    return {"player_one", "player_two"} <= header


@dataclass(frozen=True)
class Setup:
    name: str
    starts_on: date
    format: str
    teams: str
    ruleset_preset: str = "cape-breton-standard"
    venue: str = ""
    match_games: int = 1
    pool_count: int = 2
    qualifiers_per_pool: int = 2
    swiss_rounds: int | None = None
    third_place: bool = False
    check_in_required: bool = False
    quick_results_by_scorekeepers: bool = False
    results_confirmed_by_both: bool = False
    entry_cap: int | None = None
    seeding: str = "as_entered"
    start: bool = True


def _check(setup: Setup) -> FormatPreset:
    preset = FORMAT_PRESETS.get(setup.format)
    if preset is None:
        raise invalid("format", f"choose one of {', '.join(FORMAT_PRESETS)}.")
    if setup.seeding not in SEEDINGS:
        raise invalid("seeding", f"choose one of {', '.join(SEEDINGS)}.")
    if "pool_count" in preset.takes and not 1 <= setup.pool_count <= POOLS_MAX:
        raise invalid("pool_count", f"from 1 to {POOLS_MAX} pools.")
    if "qualifiers_per_pool" in preset.takes and setup.qualifiers_per_pool < 1:
        raise invalid("qualifiers_per_pool", "at least one team of each pool goes through.")
    if "qualifiers_per_pool" in preset.takes and setup.pool_count * setup.qualifiers_per_pool < 2:
        raise invalid(
            "qualifiers_per_pool", "the knockout needs at least two teams: take more per pool."
        )
    if (
        "swiss_rounds" in preset.takes
        and setup.swiss_rounds is not None
        and not 1 <= setup.swiss_rounds <= SWISS_ROUNDS_MAX
    ):
        raise invalid("swiss_rounds", f"from 1 to {SWISS_ROUNDS_MAX} rounds, or empty.")
    if not setup.teams.strip():
        raise invalid("teams", "paste the teams, one a line.")
    return preset


def _teams_error(exc: ValidationFailed, rows: list[int]) -> ValidationFailed:
    """The refusal of the teams as the page shows it: one field, each problem by its line."""
    reasons: list[str] = []
    for key, problems in (exc.fields or {}).items():
        parts = key.split(".")
        if len(parts) == 3 and parts[0] == "entries" and parts[1].isdigit():
            line = rows[int(parts[1])]
            reasons += [f"line {line}: {parts[2].replace('_', ' ')} {p}" for p in problems]
        elif len(parts) == 3 and parts[0] == "rows":
            reasons += [f"line {parts[1]}: {parts[2].replace('_', ' ')} {p}" for p in problems]
        else:
            reasons += list(problems)
    return ValidationFailed(exc.message, code=exc.code, fields={"teams": reasons})


@transaction.atomic
def tournament_setup(*, actor: Actor, setup: Setup, rng: random.Random | None = None) -> Tournament:
    """Create a tournament from ``setup`` and, unless a check-in is wanted or ``start`` is
    false, start its first stage. Nothing is kept if any part is refused: the error names
    the setup's field (``teams`` for the teams, each problem by its line)."""
    preset = _check(setup)
    tournament = tournament_create(
        actor=actor,
        name=setup.name,
        starts_on=setup.starts_on,
        venue=setup.venue,
        ruleset_preset=setup.ruleset_preset,
        match_format=Tournament.MatchFormat.BEST_OF,
        match_games=setup.match_games,
        check_in_required=setup.check_in_required,
        quick_results_by_scorekeepers=setup.quick_results_by_scorekeepers,
        results_confirmed_by_both=setup.results_confirmed_by_both,
        entry_cap=setup.entry_cap,
    )
    tournament = tournament_open_registration(tournament_id=tournament.pk, actor=actor)
    csv = _is_csv(setup.teams)
    lines = [n for n, line in enumerate(setup.teams.splitlines(), 1) if line.strip()]
    try:
        if csv:
            entries_import_csv(tournament_id=tournament.pk, actor=actor, text=setup.teams)
        else:
            teams = teams_from_text(setup.teams)
            entries_bulk_add(tournament_id=tournament.pk, actor=actor, entries=teams)
    except ValidationFailed as exc:
        raise _teams_error(exc, lines) from exc
    if tournament.entries.count() < 2:
        raise invalid("teams", "a tournament needs at least two teams.")
    entries_seed(tournament_id=tournament.pk, actor=actor, method=setup.seeding, rng=rng)
    stages = _stages(tournament, preset, setup, actor)
    if setup.check_in_required:
        tournament_open_check_in(tournament_id=tournament.pk, actor=actor)
    elif setup.start:
        stage_start(stage_id=stages[0].pk, actor=actor)
    tournament.refresh_from_db()
    return tournament


def _stages(tournament: Tournament, preset: FormatPreset, setup: Setup, actor: Actor) -> list[Any]:
    stages = []
    for index, kind in enumerate(preset.kinds):
        values: dict[str, Any] = {}
        if kind == Kind.ROUND_ROBIN and "pool_count" in preset.takes:
            values["pool_count"] = setup.pool_count
            values["name"] = gettext("Pools")
        if index > 0 and "qualifiers_per_pool" in preset.takes:
            values["qualifiers_per_pool"] = setup.qualifiers_per_pool
            values["name"] = pgettext("stage name", "Knockout")
        if kind == Kind.SWISS:
            values["swiss_rounds"] = setup.swiss_rounds
        if kind == Kind.SINGLE_ELIM:
            values["third_place"] = setup.third_place
        stages.append(stage_create(tournament_id=tournament.pk, actor=actor, kind=kind, **values))
    return stages
