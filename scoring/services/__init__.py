"""Writes of the scoring app: every change to players, teams, games, hands and disputes.

Each function takes keyword-only typed arguments, validates, runs in one transaction and, for
anything that touches a game's hands, locks the game row first (``select_for_update``) so two
score-pads never interleave. Entering a hand, the act every table repeats all evening, is
optimistic instead: it writes only if the game is still at the version it read (see
:func:`hand_record`); every other write to a game moves its version on.

The rules are the engine's: entries are parsed and scored by :mod:`scoring.engine`, and the
game's totals, dealer, forced call, end and winner always come from ``game_progress`` over the
hands that count. Engine errors (:class:`EngineError`) propagate
unchanged (they name the field); other refusals raise the application errors of
:mod:`tarabish_site.api.errors`.

After a commit that changes a game's result, :data:`scoring.signals.game_result_changed` is sent.
"""

from typing import TYPE_CHECKING

from scoring.services._common import SIDES
from scoring.services.casual import game_create_casual, player_for_name, team_for_pair
from scoring.services.disputes import (
    dispute_adjudicate,
    dispute_needs_evidence,
    dispute_open,
    dispute_rule,
    disputes_adjudicate_pending,
)
from scoring.services.games import (
    game_correct_totals,
    game_create,
    game_end_early,
    game_first_dealer_flip,
    game_first_dealer_set,
    game_public_set,
    game_record_totals,
    game_reopen,
    games_public_set,
    games_scorekeepers_remove,
)
from scoring.services.hand_entry import (
    KeptResponse,
    hand_preview,
    hand_record,
)
from scoring.services.hands import (
    CorrectionPreview,
    hand_correct,
    hand_correct_preview,
    hand_undo_last,
)
from scoring.services.names import name_normalised, name_refused_why
from scoring.services.permissions import (
    DIRECT_PERMISSION,
    game_owner_next,
    game_owner_page,
    game_owner_warning,
    hand_change_refused_why,
    refuse_if_result_final,
    result_final_why,
    user_can_direct,
    user_can_keep_score,
    user_can_see,
)
from scoring.services.players import player_create, player_named, team_create, team_find
from scoring.services.results import result_changes_taken_in

if TYPE_CHECKING:
    from scoring.services._common import AnyUser

__all__ = [
    "DIRECT_PERMISSION",
    "SIDES",
    "AnyUser",
    "CorrectionPreview",
    "KeptResponse",
    "dispute_adjudicate",
    "dispute_needs_evidence",
    "dispute_open",
    "dispute_rule",
    "disputes_adjudicate_pending",
    "game_correct_totals",
    "game_create",
    "game_create_casual",
    "game_end_early",
    "game_first_dealer_flip",
    "game_first_dealer_set",
    "game_owner_next",
    "game_owner_page",
    "game_owner_warning",
    "game_public_set",
    "game_record_totals",
    "game_reopen",
    "games_public_set",
    "games_scorekeepers_remove",
    "hand_change_refused_why",
    "hand_correct",
    "hand_correct_preview",
    "hand_preview",
    "hand_record",
    "hand_undo_last",
    "name_normalised",
    "name_refused_why",
    "player_create",
    "player_for_name",
    "player_named",
    "refuse_if_result_final",
    "result_changes_taken_in",
    "result_final_why",
    "team_create",
    "team_find",
    "team_for_pair",
    "user_can_direct",
    "user_can_keep_score",
    "user_can_see",
]
