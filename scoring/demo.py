"""Demo data: Cape Breton players and teams, and games played by the engine's simulator.

Every hand is dealt and played by :func:`scoring.engine.simulate_hand` and entered through the
services, as a score-sheet summary or as the full trick record, so every figure on the demo
pages is the engine's. Between them the games show made, bait and half-bait hands, runs and
bella, a void hand, a thrown-in hand, a misplay proven and one not proven (judged by the engine
from the trick record), finished games, running games and a game ended early.

:func:`demo_load` is idempotent: players are keyed by name and community, teams by their pair
and games by their table label, so loading twice adds nothing.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from scoring import services
from scoring.engine import (
    Accusation,
    EngineError,
    Outcome,
    Ruleset,
    SimulatedHand,
    TrickRecord,
    adjudicate,
    simulate_hand,
    trick_leaders,
)
from scoring.models import Game, Hand, MisplayDispute, Player, Team

DEMO_TABLE_PREFIX = "Demo · "

PLAYERS = (
    ("Angus MacNeil", "Glace Bay"),
    ("Mary Ellen MacLean", "Glace Bay"),
    ("Theresa Boudreau", "Chéticamp"),
    ("Léo Aucoin", "Chéticamp"),
    ("Johnny Rankin", "Mabou"),
    ("Flora MacKinnon", "Mabou"),
    ("Ronnie MacDonald", "Dominion"),
    ("Bernadette Campbell", "New Waterford"),
    ("Danny Joe Gillis", "Judique"),
    ("Catherine MacIsaac", "Inverness"),
    ("Hughie MacLeod", "North Sydney"),
    ("Marie Poirier", "Petit-de-Grat"),
)

#: (team name, index of player one, index of player two)
TEAMS = (
    ("The Glace Bay Miners", 0, 1),
    ("Chéticamp Hookers", 2, 3),
    ("Mabou Ridge", 4, 5),
    ("New Waterford Colliers", 6, 7),
    ("Judique Fiddlers", 8, 9),
    ("North Sydney Ferry", 10, 11),
)


@dataclass
class DemoGame:
    """One demo game: who plays, by which rules, and how its hands are entered."""

    table: str
    team_a: int
    team_b: int
    preset: str = "cape-breton-standard"
    entry_kind: str = Hand.EntryKind.SUMMARY
    #: Stop after this many hands (None: play to the end).
    hands: int | None = None
    #: Special hands by hand number: a function that enters that hand instead.
    special: dict[int, str] = field(default_factory=dict)
    end_early: str = ""


GAMES = (
    DemoGame(
        "Glace Bay Legion, table 1",
        0,
        1,
        special={2: "half_bait", 3: "runs_and_bella"},
    ),
    DemoGame("Glace Bay Legion, table 2", 2, 3, entry_kind=Hand.EntryKind.TRICKS),
    DemoGame("Chéticamp Co-op hall, table 1", 1, 4, preset="kitchen-table", special={1: "void"}),
    DemoGame(
        "Sydney Mines Legion, table 3",
        3,
        5,
        hands=5,
        entry_kind=Hand.EntryKind.TRICKS,
        special={2: "thrown_in", 4: "misplay_proven"},
    ),
    DemoGame(
        "Mabou Community Hall",
        4,
        5,
        preset="forced-at-400",
        hands=4,
        special={3: "misplay_not_proven"},
    ),
    DemoGame("Inverness Legion", 0, 2, hands=2, end_early="the hall closed for a wake"),
)


@dataclass
class _Table:
    game: Game
    rules: Ruleset
    rng: random.Random
    kind: str

    def deal(self, want: Callable[[SimulatedHand], bool] | None = None) -> SimulatedHand:
        """The next hand from the simulator (the first of up to 5000 that ``want`` accepts)."""
        assert self.game.next_dealer is not None  # noqa: S101 - set when the game was created
        scores = (self.game.score_a, self.game.score_b)
        for _ in range(5000):
            sim = simulate_hand(self.rules, self.rng, self.game.next_dealer, scores)
            if want is None or want(sim):
                return sim
        raise RuntimeError("the simulator dealt no such hand")  # pragma: no cover

    def enter(self, sim: SimulatedHand, kind: str | None = None) -> Hand:
        kind = kind or self.kind
        entry = sim.record.to_json() if kind == Hand.EntryKind.TRICKS else sim.summary.to_json()
        return services.hand_record(game=self.game, entry_kind=kind, entry=entry)


def _player(name: str, community: str) -> Player:
    existing = Player.objects.filter(display_name=name, community=community).first()
    return existing or services.player_create(display_name=name, community=community)


def _team(name: str, one: Player, two: Player) -> Team:
    existing = services.team_find(player_one=one, player_two=two)
    return existing or services.team_create(player_one=one, player_two=two, name=name)


def _misplayed(table: _Table) -> tuple[TrickRecord, Accusation]:
    """A stopped hand whose record proves a misplay: a simulated hand in which one player's
    plays at two tricks are swapped, cut after the later trick, as the engine judges it."""
    while True:
        sim = table.deal(lambda s: s.record.caller is not None)
        base = dataclasses.replace(sim.record, hands=None)
        leaders = trick_leaders(base)
        for k in range(8):
            for j in range(k + 1, 9):
                for seat in range(4):
                    p, q = (seat - leaders[k]) % 4, (seat - leaders[j]) % 4
                    tricks = [list(t) for t in base.tricks[: j + 1]]
                    tricks[k][p], tricks[j][q] = tricks[j][q], tricks[k][p]
                    record = dataclasses.replace(
                        base, tricks=tuple(tuple(t) for t in tricks), runs=(), bella_seat=None
                    )
                    try:
                        if trick_leaders(record) != leaders[: j + 1]:
                            continue
                        accusation = Accusation(accused=seat, trick=k, called_by=(seat + 1) % 4)
                        if adjudicate(record, accusation).proven:
                            return record, accusation
                    except EngineError:
                        continue


def _special(table: _Table, what: str) -> None:
    if what == "half_bait":
        table.enter(table.deal(lambda s: s.result.call_outcome is Outcome.HALF_BAIT))
    elif what == "runs_and_bella":
        table.enter(
            table.deal(lambda s: bool(s.result.runs_counted) and s.result.bella_seat is not None)
        )
    elif what == "void":
        table.enter(table.deal(lambda s: s.result.outcome is Outcome.VOID))
    elif what == "thrown_in":
        sim = table.deal(lambda s: s.result.call_outcome is Outcome.BAIT)
        caller = sim.record.caller
        assert caller is not None  # noqa: S101 - a bait hand has a caller
        stopped = dataclasses.replace(sim.record, tricks=sim.record.tricks[:5], thrown_in_by=caller)
        services.hand_record(
            game=table.game, entry_kind=Hand.EntryKind.TRICKS, entry=stopped.to_json()
        )
    elif what == "misplay_proven":
        record, accusation = _misplayed(table)
        assert accusation.called_by is not None  # noqa: S101 - set by _misplayed
        hand = services.hand_record(
            game=table.game,
            entry_kind=Hand.EntryKind.TRICKS,
            entry={
                **record.to_json(),
                # The table could not agree: entered as not proven, then judged from the record.
                "misplay": {"called_by": accusation.called_by, "proven": False},
            },
        )
        _dispute(hand, accusation, evidence=None)
    elif what == "misplay_not_proven":
        sim = table.deal(lambda s: s.record.caller is not None)
        hand = table.enter(sim, Hand.EntryKind.SUMMARY)
        accused = (sim.record.caller or 0) % 2  # a player of the calling team, seat 0 or 1
        accusation = Accusation(accused=accused, trick=2, called_by=(accused + 1) % 4)
        _dispute(hand, accusation, evidence=sim.record.to_json())


def _dispute(hand: Hand, accusation: Accusation, evidence: dict[str, object] | None) -> None:
    assert accusation.called_by is not None  # noqa: S101 - demo accusations name the caller
    dispute = services.dispute_open(
        hand=hand,
        called_by=accusation.called_by,
        accused=accusation.accused,
        trick=accusation.trick + 1,  # the engine's position, the dispute's number 1 to 9
        evidence=evidence,
    )
    # Judge it now so the demo is complete at once; the queued task then finds it judged.
    services.dispute_adjudicate(dispute_id=dispute.pk)


def _play(spec: DemoGame, teams: list[Team], seed: int) -> Game:
    rng = random.Random(f"{seed}:{spec.table}")  # noqa: S311 - a card game, not a secret
    game = services.game_create(
        team_a=teams[spec.team_a],
        team_b=teams[spec.team_b],
        ruleset_preset=spec.preset,
        table=DEMO_TABLE_PREFIX + spec.table,
    )
    services.game_first_dealer_flip(game=game, rng=rng)
    table = _Table(game, game.engine_ruleset, rng, spec.entry_kind)
    number = 0
    while game.status == Game.Status.IN_PROGRESS and (spec.hands is None or number < spec.hands):
        number += 1
        if number in spec.special:
            _special(table, spec.special[number])
            game.refresh_from_db()
        else:
            table.enter(table.deal())
    if spec.end_early and game.status == Game.Status.IN_PROGRESS:
        services.game_end_early(game=game, reason=spec.end_early)
    return game


def demo_load(*, seed: int = 1897) -> list[Game]:
    """Load the demo players, teams and games; what exists already is left as it is."""
    with transaction.atomic():
        players = [_player(name, community) for name, community in PLAYERS]
        teams = [_team(name, players[i], players[j]) for name, i, j in TEAMS]
    games = []
    for spec in GAMES:
        existing = Game.objects.filter(table=DEMO_TABLE_PREFIX + spec.table).first()
        if existing is not None:
            games.append(existing)
            continue
        with transaction.atomic():
            games.append(_play(spec, teams, seed))
    return games


def demo_summary() -> dict[str, int]:
    """Counts of what the demo holds, for the command's output."""
    demo = Game.objects.filter(table__startswith=DEMO_TABLE_PREFIX)
    hands = Hand.objects.active().filter(game__in=demo)
    return {
        "games": demo.count(),
        "hands": hands.count(),
        "disputes": MisplayDispute.objects.filter(hand__game__in=demo).count(),
        **{f"outcome {o.value}": hands.filter(outcome=o.value).count() for o in Outcome},
    }
