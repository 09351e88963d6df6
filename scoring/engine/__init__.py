"""The Tarabish rules engine: a pure-Python library with no Django and no project imports.

Everything a caller needs is importable from here; values are immutable and turn into plain
JSON and back (``to_json`` / ``from_json``). Errors are :class:`EngineError` subclasses
(:class:`InvalidEntry`, :class:`IllegalPlay`, :class:`ImpossibleRecord`, :class:`RulesetError`)
with a stable ``code``, the dotted ``field`` path of the bad input and a plain-words message.

Counting: seats are 0 to 3, and a trick is its position in a record's ``tricks``, 0 to 8, in
field paths (``tricks.2.1``), :class:`Accusation` and :class:`Verdict` alike; a hand's number
counts from 1, as on the score sheet. Messages, written for people, say trick 1 to 9, and so
does the JSON of an accusation or a verdict (what a dispute stores and shows).

* Cards and seats: :class:`Suit`, :class:`Rank`, :class:`Card`, :data:`DECK`,
  :func:`parse_card`, :func:`parse_cards`, :func:`card_points`, :func:`left_of`,
  :func:`partner_of`, :func:`team_of`.
* Rules as configuration: :class:`Ruleset`, :data:`PRESETS`, :data:`PRESET_NAMES`,
  :func:`preset`.
* Dealing: :func:`shuffled_deck`, :func:`cut`, :func:`deal`, :class:`Deal`,
  :func:`flip_for_jacks`, :func:`high_card_draw`, :func:`choose_first_dealer`.
* Score-sheet lines: :class:`HandSummary`, :func:`score_summary`, :func:`derive_card_points`,
  giving a :class:`HandResult` with its :class:`Outcome`.
* Runs and bella: :class:`RunKind`, :class:`Run`, :class:`RunShown`, :func:`find_runs`,
  :func:`best_run`, :func:`runs_counted` (a :class:`RunsCounted`, with the points it gives),
  :func:`validate_runs_shown`, :func:`check_claims`,
  and from how many runs each player showed: :data:`RunCount`, :func:`check_run_count`,
  :func:`run_counts_counted`.
* Play: :func:`legal_plays`, :func:`why_illegal_play`, :func:`broken_rule`,
  :func:`trick_winner`; each takes the cards (the hand, the trick) first and the trump after.
* Trick records and misplays: :class:`TrickRecord`, :func:`score_tricks`,
  :func:`trick_leaders`, :class:`Accusation`, :class:`Verdict`, :class:`MisplayRule`,
  :func:`adjudicate`, :func:`find_misplays`, :func:`score_misplay`.
* Live and replayable hands: the actions :class:`Pass`, :class:`CallTrump`,
  :class:`AnnounceRun`, :class:`ShowRun`, :class:`CallBella`, :class:`Play`, :class:`ThrowIn`;
  :class:`HandLog`, :func:`replay`, :class:`HandState` (``why_illegal`` / ``apply``,
  ``legal_plays``, ``view_for``, ``result``), :class:`HandView`.
* The game: :func:`game_progress`, :class:`GameProgress`, :func:`forced_call`,
  :func:`dealer_of_hand`, and the winner of a game played on paper from its final totals,
  :func:`final_winner`.
* Simulation: :func:`simulate_hand`, :func:`simulate_game`.

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
from scoring.engine.game import (
    GameProgress,
    check_forced_call,
    dealer_of_hand,
    final_winner,
    forced_call,
    game_progress,
)
from scoring.engine.hand import (
    Action,
    AnnounceRun,
    CallBella,
    CallTrump,
    HandLog,
    HandState,
    HandView,
    Pass,
    Play,
    ShowRun,
    ThrowIn,
    action_from_json,
    action_to_json,
    replay,
)
from scoring.engine.misplay import Accusation, Verdict, adjudicate, find_misplays, score_misplay
from scoring.engine.play import (
    MisplayRule,
    broken_rule,
    legal_plays,
    trick_winner,
    why_illegal_play,
)
from scoring.engine.record import TrickRecord, score_tricks, trick_leaders
from scoring.engine.ruleset import PRESET_NAMES, PRESETS, Ruleset, preset
from scoring.engine.runs import (
    Run,
    RunCount,
    RunKind,
    RunsCounted,
    RunShown,
    best_run,
    check_claims,
    check_run_count,
    find_runs,
    run_counts_counted,
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
from scoring.engine.simulate import SimulatedGame, SimulatedHand, simulate_game, simulate_hand

__all__ = [
    "DECK",
    "PRESETS",
    "PRESET_NAMES",
    "SEATS",
    "Accusation",
    "Action",
    "AnnounceRun",
    "CallBella",
    "CallTrump",
    "Card",
    "Deal",
    "EngineError",
    "FirstDealer",
    "GameProgress",
    "HandLog",
    "HandResult",
    "HandState",
    "HandSummary",
    "HandView",
    "IllegalPlay",
    "ImpossibleRecord",
    "InvalidEntry",
    "MisplayCall",
    "MisplayRule",
    "Outcome",
    "Pass",
    "Play",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Run",
    "RunCount",
    "RunKind",
    "RunShown",
    "RunsCounted",
    "ShowRun",
    "SimulatedGame",
    "SimulatedHand",
    "Suit",
    "ThrowIn",
    "TrickRecord",
    "Verdict",
    "action_from_json",
    "action_to_json",
    "adjudicate",
    "best_run",
    "broken_rule",
    "card_points",
    "card_total",
    "check_claims",
    "check_forced_call",
    "check_run_count",
    "choose_first_dealer",
    "cut",
    "deal",
    "dealer_of_hand",
    "derive_card_points",
    "final_winner",
    "find_misplays",
    "find_runs",
    "flip_for_jacks",
    "forced_call",
    "format_cards",
    "game_progress",
    "high_card_draw",
    "left_of",
    "legal_plays",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "partner_of",
    "preset",
    "replay",
    "run_counts_counted",
    "run_from_cards",
    "runs_counted",
    "score_misplay",
    "score_summary",
    "score_tricks",
    "shuffled_deck",
    "simulate_game",
    "simulate_hand",
    "team_of",
    "trick_leaders",
    "trick_winner",
    "validate_runs_shown",
    "why_illegal_play",
]
