"""Writes of the tournaments app. Every function takes keyword-only arguments, checks who may
do it, validates, and runs in one transaction; tasks are sent after commit."""

from tournaments.services.matches import (
    bracket_of,
    bracket_sync,
    entry_withdraw,
    match_forfeit,
    match_game_start,
    match_hold_clear,
    match_outcome,
    match_reset_confirm,
    match_sync,
    match_sync_for_game,
)
from tournaments.services.ratings import ratings_update_for_match, team_strength
from tournaments.services.stages import (
    stage_advance,
    stage_create,
    stage_start,
    swiss_round_pair,
    tournament_finish,
)
from tournaments.services.standings import (
    standings_recompute,
    standings_recompute_all,
    standings_schedule,
    standings_touch,
)
from tournaments.services.tournaments import (
    ImportReport,
    checkin_process,
    entries_import_csv,
    entry_check_in,
    entry_register,
    entry_substitute_add,
    tournament_create,
    tournament_open_check_in,
    tournament_open_registration,
    tournament_update,
)

__all__ = [
    "ImportReport",
    "bracket_of",
    "bracket_sync",
    "checkin_process",
    "entries_import_csv",
    "entry_check_in",
    "entry_register",
    "entry_substitute_add",
    "entry_withdraw",
    "match_forfeit",
    "match_game_start",
    "match_hold_clear",
    "match_outcome",
    "match_reset_confirm",
    "match_sync",
    "match_sync_for_game",
    "ratings_update_for_match",
    "stage_advance",
    "stage_create",
    "stage_start",
    "standings_recompute",
    "standings_recompute_all",
    "standings_schedule",
    "standings_touch",
    "swiss_round_pair",
    "team_strength",
    "tournament_create",
    "tournament_finish",
    "tournament_open_check_in",
    "tournament_open_registration",
    "tournament_update",
]
