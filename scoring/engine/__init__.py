"""The Tarabish rules engine: a pure-Python library with no Django and no project imports.

Everything a caller needs is importable from here. Values are immutable; errors are
:class:`EngineError` subclasses with a ``code``, a ``field`` path and a plain-words message.

>>> from scoring.engine import HandSummary, Ruleset, Suit, score_summary
>>> score_summary(Ruleset(), HandSummary(dealer=0, caller=1, trump=Suit.CLUBS,
...                                      card_points=(90, 72))).points
(162, 0)
"""

from scoring.engine.cards import (
    DECK,
    SEATS,
    Card,
    Rank,
    Suit,
    card_points,
    format_cards,
    left_of,
    parse_card,
    parse_cards,
    parse_suit,
    partner_of,
    team_of,
)
from scoring.engine.dealing import (
    Deal,
    FirstDealer,
    choose_first_dealer,
    cut,
    deal,
    flip_for_jacks,
    high_card_draw,
    shuffled_deck,
)
from scoring.engine.errors import (
    EngineError,
    IllegalPlay,
    ImpossibleRecord,
    InvalidEntry,
    RulesetError,
)
from scoring.engine.game import GameProgress, dealer_of_hand, forced_call, game_progress
from scoring.engine.ruleset import PRESET_NAMES, PRESETS, Ruleset, preset
from scoring.engine.runs import (
    Run,
    RunKind,
    RunShown,
    best_run,
    find_runs,
    run_from_cards,
    runs_counted,
    validate_runs_shown,
)
from scoring.engine.scoring import (
    HandResult,
    HandSummary,
    MisplayCall,
    Outcome,
    card_total,
    derive_card_points,
    score_summary,
)

__all__ = [
    "DECK",
    "PRESETS",
    "PRESET_NAMES",
    "SEATS",
    "Card",
    "Deal",
    "EngineError",
    "FirstDealer",
    "GameProgress",
    "HandResult",
    "HandSummary",
    "IllegalPlay",
    "ImpossibleRecord",
    "InvalidEntry",
    "MisplayCall",
    "Outcome",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Run",
    "RunKind",
    "RunShown",
    "Suit",
    "best_run",
    "card_points",
    "card_total",
    "choose_first_dealer",
    "cut",
    "deal",
    "dealer_of_hand",
    "derive_card_points",
    "find_runs",
    "flip_for_jacks",
    "forced_call",
    "format_cards",
    "game_progress",
    "high_card_draw",
    "left_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "partner_of",
    "preset",
    "run_from_cards",
    "runs_counted",
    "score_summary",
    "shuffled_deck",
    "team_of",
    "validate_runs_shown",
]
