"""Play matches with the engine's simulator, through the real services.

Used by the demo data, the whole-tournament tests and the benchmark: every game is a scoring
game started by :func:`~tournaments.services.match_game_start`, every hand is entered as a
score-sheet summary with :func:`scoring.services.hand_record`, exactly as a scorekeeper would.
"""

import random

from scoring import services as scoring_services
from scoring.engine import Ruleset, simulate_game
from scoring.models import Hand
from tournaments.models import Match
from tournaments.services import match_game_start, match_sync
from tournaments.services._common import Actor

MAX_GAMES = 12


def match_play_simulated(
    *, match_id: int, rng: random.Random, actor: Actor = None, player: str = "random"
) -> Match:
    """Play ``match`` game by game until it is decided (or waits for a director)."""
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    ruleset = Ruleset.from_json(match.stage.tournament.ruleset)
    for _ in range(MAX_GAMES):
        if match.state not in (Match.State.READY, Match.State.IN_PROGRESS) or match.held_reason:
            return match
        simulated = simulate_game(ruleset, rng, player=player)  # type: ignore[arg-type]
        link = match_game_start(match_id=match.pk, actor=actor, first_dealer=simulated.first_dealer)
        for hand in simulated.hands:
            scoring_services.hand_record(
                game=link.game, entry_kind=Hand.EntryKind.SUMMARY, entry=hand.summary.to_json()
            )
        match = match_sync(match_id=match.pk)
    return match


def stage_play_simulated(
    *, stage_id: int, rng: random.Random, actor: Actor = None, limit: int | None = None
) -> int:
    """Play every match of the stage that can be played now, again and again as the bracket
    opens new ones; ``limit`` stops after that many matches. Returns how many were played."""
    played = 0
    while limit is None or played < limit:
        ready = list(
            Match.objects.filter(
                stage_id=stage_id, state__in=[Match.State.READY, Match.State.IN_PROGRESS]
            )
            .exclude(held_reason__gt="")
            .order_by("round_id", "number")
            .values_list("pk", flat=True)[: None if limit is None else limit - played]
        )
        if not ready:
            break
        for match_id in ready:
            match_play_simulated(match_id=match_id, rng=rng, actor=actor)
            played += 1
    return played
