"""A hand as data: ruleset + deal + the ordered actions, replayable to every position.

Each kind of move has a question and a command: :meth:`HandState.why_illegal` says in plain words
why an action is not allowed now (None when it is), :meth:`HandState.apply` returns the next state
(raising :class:`IllegalPlay` with that reason). States are immutable; :func:`replay` rebuilds every
intermediate position from a :class:`HandLog`.

Timing of the declarations (they are made by their player, out of the turn order):

* :class:`AnnounceRun` before the player's first card, :class:`ShowRun` (one run per action, the
  block cut from the top) after announcing and before their second card;
* :class:`CallBella` right after playing the second of king and queen of trump (switch
  ``bella_on_first``: also right after the first), or right after showing a run holding both;
* :class:`ThrowIn` at any time during play: the hand stops.

>>> from scoring.engine.dealing import deal, shuffled_deck
>>> state = HandState.start(Ruleset(), dealer=0, deal=deal(shuffled_deck(11), 0))
>>> state.to_act, state.phase
(1, 'calling')
>>> state.why_illegal(Pass(2))
"it is seat 1's turn to call"
>>> state = state.apply(Pass(1)).apply(Pass(2)).apply(Pass(3))
>>> state.why_illegal(Pass(0))
'the dealer is stuck and must name trump'
>>> state = state.apply(CallTrump(0, Suit.SPADES))
>>> state.phase, state.to_act, len(state.legal_plays())
('playing', 1, 9)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.engine import _bits, _parse
from scoring.engine.cards import DECK, SEATS, Card, Rank, Suit
from scoring.engine.dealing import Deal
from scoring.engine.errors import EngineError, IllegalPlay, InvalidEntry
from scoring.engine.game import forced_call
from scoring.engine.play import rule_of
from scoring.engine.record import TrickRecord, score_tricks
from scoring.engine.ruleset import Ruleset
from scoring.engine.runs import RunShown, find_runs, run_from_cards
from scoring.engine.scoring import HandResult, settle

__all__ = [
    "Action",
    "AnnounceRun",
    "CallBella",
    "CallTrump",
    "HandLog",
    "HandState",
    "HandView",
    "Pass",
    "Play",
    "ShowRun",
    "ThrowIn",
    "action_from_json",
    "replay",
]


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the call."""

    seat: int


@dataclass(frozen=True, slots=True)
class CallTrump:
    """Name trump (None = no trump, where allowed)."""

    seat: int
    trump: Suit | None


@dataclass(frozen=True, slots=True)
class AnnounceRun:
    """Say "I have a run" before one's first card."""

    seat: int


@dataclass(frozen=True, slots=True)
class ShowRun:
    """Show one run (3 or 4 cards) before one's second card."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CallBella:
    """Call bella (king and queen of trump)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ThrowIn:
    """Throw in one's cards: the hand stops."""

    seat: int


Action = Pass | CallTrump | AnnounceRun | ShowRun | CallBella | Play | ThrowIn

_TYPES: dict[type, str] = {
    Pass: "pass",
    CallTrump: "call",
    AnnounceRun: "announce_run",
    ShowRun: "show_run",
    CallBella: "bella",
    Play: "play",
    ThrowIn: "throw_in",
}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as plain data.

    >>> from scoring.engine.cards import parse_card
    >>> action_to_json(Play(2, parse_card("JH")))
    {'type': 'play', 'seat': 2, 'card': 'JH'}
    """
    out: dict[str, Any] = {"type": _TYPES[type(action)], "seat": action.seat}
    if isinstance(action, CallTrump):
        out["trump"] = _parse.suit_text(action.trump)
    elif isinstance(action, ShowRun):
        out["cards"] = [str(c) for c in action.cards]
    elif isinstance(action, Play):
        out["card"] = str(action.card)
    return out


def action_from_json(data: Any, field: str = "action") -> Action:
    """Read an action; errors name the field.

    >>> action_from_json({"type": "call", "seat": 1, "trump": "S"})
    CallTrump(seat=1, trump=Suit.SPADES)
    """
    d = _parse.obj(data, "an action", field)
    kind = d.get("type")
    seat = _parse.seat(d.get("seat"), f"{field}.seat")
    if kind == "pass":
        return Pass(seat)
    if kind == "call":
        if "trump" not in d:
            raise InvalidEntry(
                "a call names a trump suit (or null for no trump)",
                code="missing_field",
                field=f"{field}.trump",
            )
        return CallTrump(seat, _parse.trump(d["trump"], f"{field}.trump"))
    if kind == "announce_run":
        return AnnounceRun(seat)
    if kind == "show_run":
        return ShowRun(seat, _parse.cards(d.get("cards"), f"{field}.cards"))
    if kind == "bella":
        return CallBella(seat)
    if kind == "play":
        return Play(seat, _parse.card(d.get("card"), f"{field}.card"))
    if kind == "throw_in":
        return ThrowIn(seat)
    names = ", ".join(_TYPES.values())
    raise InvalidEntry(
        f"{kind!r} is not an action: use one of {names}", code="bad_action", field=f"{field}.type"
    )


@dataclass(frozen=True, slots=True)
class HandView:
    """What one player may see (online play): their own cards, never the others'."""

    seat: int
    phase: str
    dealer: int
    to_act: int | None
    caller: int | None
    trump: Suit | None
    #: The cards this player holds and can see.
    hand: tuple[Card, ...]
    #: Their own kitty when visible (already included in ``hand``), else None.
    kitty: tuple[Card, ...] | None
    hand_sizes: tuple[int, int, int, int]
    #: (seat, card) on the table, in play order.
    current_trick: tuple[tuple[int, Card], ...]
    #: The last completed trick, the only one that may be looked at, and its winner.
    last_trick: tuple[tuple[int, Card], ...] | None
    last_trick_winner: int | None
    tricks_won: tuple[int, int]
    runs_shown: tuple[RunShown, ...]
    announced: tuple[int, ...]
    bella_seat: int | None
    legal_plays: tuple[Card, ...]
    scores: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        def pairs(p: Sequence[tuple[int, Card]] | None) -> list[list[Any]] | None:
            return None if p is None else [[s, str(c)] for s, c in p]

        return {
            "seat": self.seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "caller": self.caller,
            "trump": _parse.suit_text(self.trump),
            "hand": [str(c) for c in self.hand],
            "kitty": None if self.kitty is None else [str(c) for c in self.kitty],
            "hand_sizes": list(self.hand_sizes),
            "current_trick": pairs(self.current_trick),
            "last_trick": pairs(self.last_trick),
            "last_trick_winner": self.last_trick_winner,
            "tricks_won": list(self.tricks_won),
            "runs_shown": [r.to_json() for r in self.runs_shown],
            "announced": list(self.announced),
            "bella_seat": self.bella_seat,
            "legal_plays": [str(c) for c in self.legal_plays],
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class HandState:
    """One position of a hand. Build the first with :meth:`start`, then :meth:`apply`."""

    ruleset: Ruleset
    dealer: int
    deal: Deal
    scores: tuple[int, int]
    phase: str
    passes: int
    caller: int | None
    trump: Suit | None
    held: tuple[int, int, int, int]
    tricks: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    current: tuple[int, ...]
    leader: int
    announced: int
    shown: tuple[RunShown, ...]
    bella_seat: int | None
    thrown_in_by: int | None
    last: Action | None
    forced_seat: int | None

    @classmethod
    def start(
        cls, ruleset: Ruleset, dealer: int, deal: Deal, scores: tuple[int, int] = (0, 0)
    ) -> HandState:
        """The position after the deal: the player left of the dealer calls first."""
        _parse.seat(dealer, "dealer")
        m = tuple(_bits.mask_of(h) for h in deal.hands)
        forced, _ = forced_call(ruleset, dealer, scores)
        return cls(
            ruleset,
            dealer,
            deal,
            (scores[0], scores[1]),
            "calling",
            0,
            None,
            None,
            (m[0], m[1], m[2], m[3]),
            (),
            (),
            (),
            (dealer + 1) % 4,
            0,
            (),
            None,
            None,
            None,
            forced,
        )

    # ------------------------------------------------------------ questions

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is to call or play (None when the hand is over)."""
        if self.phase == "calling":
            return (self.dealer + 1 + self.passes) % 4
        if self.phase == "playing":
            return (self.leader + len(self.current)) % 4
        return None

    @property
    def turn(self) -> int:
        """The seat to act, as an int; raises :class:`IllegalPlay` when the hand is over."""
        seat = self.to_act
        if seat is None:
            raise IllegalPlay("the hand is over", code="hand_over", field=None)
        return seat

    @property
    def done(self) -> bool:
        return self.phase == "done"

    def played_count(self, seat: int) -> int:
        """How many cards this seat has played."""
        return 9 - self.held[seat].bit_count()

    def held_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards this seat still holds (all nine positions of the deal, kitty included)."""
        m = self.held[seat]
        return tuple(c for c in self.deal.hands[seat] if m >> c.index & 1)

    def _trick_ctx(self) -> tuple[int, int]:
        t = _bits.trump_index(self.trump)
        led = self.current[0] // 9 if self.current else -1
        top = -1
        for j in self.current:
            if j // 9 == t and (top < 0 or _bits.BIT[j] & _bits.ABOVE[top]):
                top = j
        return led, top

    def legal_mask(self) -> int:
        """Bit-set of the legal plays of the seat to act (0 outside play)."""
        if self.phase != "playing":
            return 0
        led, top = self._trick_ctx()
        seat = (self.leader + len(self.current)) % 4
        return _bits.legal_mask(self.held[seat], led, top, _bits.trump_index(self.trump))

    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to act may play now."""
        return _bits.cards_of(self.legal_mask())

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now: its call or its plays when it is its turn, and
        the declarations open to it (announce or show a run, bella, throw in).

        >>> from scoring.engine.dealing import deal, shuffled_deck
        >>> state = HandState.start(Ruleset(), dealer=0, deal=deal(shuffled_deck(11), 0))
        >>> state.legal_actions(1)
        (Pass(seat=1), CallTrump(seat=1, trump=Suit.CLUBS), CallTrump(seat=1, trump=Suit.DIAMONDS), CallTrump(seat=1, trump=Suit.HEARTS), CallTrump(seat=1, trump=Suit.SPADES))
        >>> state.legal_actions(2)
        ()
        """  # noqa: E501
        candidates: list[Action] = []
        if self.phase == "calling":
            candidates += [Pass(seat), *(CallTrump(seat, s) for s in Suit), CallTrump(seat, None)]
        else:
            if self.phase == "playing" and self.to_act == seat:
                candidates += [Play(seat, c) for c in self.legal_plays()]
            if self.phase == "playing":
                candidates.append(AnnounceRun(seat))
                candidates += [ShowRun(seat, r.cards) for r in find_runs(self.deal.hands[seat])]
            candidates.append(CallBella(seat))
            if self.phase == "playing":
                candidates.append(ThrowIn(seat))
        return tuple(a for a in candidates if self._check(a) is None)

    def why_illegal(self, action: Action) -> str | None:
        """Why this action is not allowed now, in plain words; None when it is."""
        found = self._check(action)
        return None if found is None else found[1]

    def _check(self, action: Action) -> tuple[str, str] | None:
        seat = action.seat
        if not _parse.is_int(seat) or seat not in SEATS:
            return "bad_seat", f"seat {seat!r} does not exist: seats are 0 to 3"
        if self.phase == "done":
            # bella may still be called on the last card of the hand
            if not (isinstance(action, CallBella) and isinstance(self.last, Play)):
                return "hand_over", "the hand is over"
            return self._check_bella(action)
        if isinstance(action, Pass | CallTrump):
            return self._check_call(action)
        if self.phase != "playing":
            return "not_playing", "trump has not been named yet"
        if isinstance(action, Play):
            return self._check_play(action)
        if isinstance(action, AnnounceRun):
            if self.played_count(seat):
                return "too_late", "a run is announced before playing one's first card"
            if self.announced >> seat & 1:
                return "already_done", f"seat {seat} already announced a run"
            if not find_runs(self.deal.hands[seat]):
                return "no_run", f"seat {seat} holds no run"
            return None
        if isinstance(action, ShowRun):
            return self._check_show(action)
        if isinstance(action, CallBella):
            return self._check_bella(action)
        if isinstance(action, ThrowIn):
            return None
        return "bad_action", f"{action!r} is not an action"  # pragma: no cover

    def _check_call(self, action: Pass | CallTrump) -> tuple[str, str] | None:
        seat = action.seat
        if self.phase != "calling":
            return "not_calling", "trump has already been named"
        if seat != self.to_act:
            return "out_of_turn", f"it is seat {self.to_act}'s turn to call"
        if isinstance(action, Pass):
            if seat == self.dealer and not self.ruleset.dealer_may_pass:
                return "dealer_stuck", "the dealer is stuck and must name trump"
            if seat == self.forced_seat:
                return "forced", (
                    f"seat {seat} must name trump: its team has more than "
                    f"{self.ruleset.forced_at} points and may not let the call reach the "
                    "opposing dealer"
                )
            return None
        if action.trump is None and not self.ruleset.no_trump_allowed:
            return "no_trump_not_allowed", "no trump is not allowed under this ruleset"
        if action.trump is not None and not isinstance(action.trump, Suit):
            return "bad_suit", f"{action.trump!r} is not a suit"
        return None

    def _check_play(self, action: Play) -> tuple[str, str] | None:
        seat, card = action.seat, action.card
        if seat != self.to_act:
            return "out_of_turn", f"it is seat {self.to_act}'s turn to play"
        if not isinstance(card, Card):
            return "bad_card", f"{card!r} is not a card"
        i = card.index
        held = self.held[seat]
        if not held >> i & 1:
            return "card_not_held", f"seat {seat} does not hold the {card.label}"
        led, top = self._trick_ctx()
        rule, required = rule_of(i, held, led, top, _bits.trump_index(self.trump))
        if rule is None:
            return None
        need = _bits.indices(required)
        suit = DECK[led * 9].suit.label if led >= 0 else ""
        if rule.value == "follow_suit":
            msg = (
                f"seat {seat} must follow suit: {suit} were led and seat {seat} holds "
                f"the {DECK[need[-1]].label}"
            )
        elif rule.value == "trump":
            msg = (
                f"seat {seat} must play a trump: it has no {suit} but holds the "
                f"{DECK[need[-1]].label}"
            )
        else:
            best = max(need, key=lambda j: _bits.TRUMP_STRENGTH[j])
            msg = (
                f"seat {seat} must beat the {DECK[top].label} on the trick: it holds the "
                f"{DECK[best].label}"
            )
        return rule.value, msg

    def _check_show(self, action: ShowRun) -> tuple[str, str] | None:
        seat = action.seat
        if not self.announced >> seat & 1:
            return "not_announced", (
                f"seat {seat} did not announce a run before playing their first card"
            )
        if self.played_count(seat) >= 2:
            return "too_late", "a run is shown before playing one's second card"
        try:
            run = run_from_cards(action.cards)
        except EngineError as exc:
            return "not_a_run", str(exc)
        dealt = self.deal.hands[seat]
        for c in action.cards:
            if c not in dealt:
                return "card_not_held", f"seat {seat} was not dealt the {c.label}"
        if run not in find_runs(dealt):
            blocks = ", ".join(str(r) for r in find_runs(dealt) if r.suit is run.suit)
            return "not_a_run", (
                f"the {run} is not one of seat {seat}'s runs: cards in a row "
                f"are cut from the top ({blocks})"
            )
        if RunShown.of(seat, run) in self.shown:
            return "already_done", f"seat {seat} already showed the {run}"
        return None

    def _check_bella(self, action: CallBella) -> tuple[str, str] | None:
        seat = action.seat
        if self.trump is None:
            return "no_bella", "there is no bella in a no-trump hand"
        if self.bella_seat is not None:
            return "already_done", "bella was already called"
        base = self.trump.index * 9
        pair = (1 << base + int(Rank.KING) - 6) | (1 << base + int(Rank.QUEEN) - 6)
        dealt = _bits.mask_of(self.deal.hands[seat])
        if dealt & pair != pair:
            return "bella_not_held", (
                f"seat {seat} was not dealt both the king and queen of {self.trump.label}"
            )
        last = self.last
        if (
            isinstance(last, ShowRun)
            and last.seat == seat
            and _bits.mask_of(last.cards) & pair == pair
        ):
            return None
        if isinstance(last, Play) and last.seat == seat and (pair >> last.card.index & 1):
            still = self.held[seat] & pair
            if not still or self.ruleset.bella_on_first:
                return None
        first = "first or second" if self.ruleset.bella_on_first else "second"
        return "bella_timing", (
            f"bella is called when the {first} of the king and queen of trump is played"
        )

    # ------------------------------------------------------------ command

    def apply(self, action: Action) -> HandState:
        """The next position; raises :class:`IllegalPlay` saying why when not allowed."""
        found = self._check(action)
        if found is not None:
            raise IllegalPlay(found[1], code=found[0], field="action")
        seat = action.seat
        if isinstance(action, Pass):
            passes = self.passes + 1
            return replace(
                self, passes=passes, phase="done" if passes == 4 else "calling", last=action
            )
        if isinstance(action, CallTrump):
            return replace(
                self,
                caller=seat,
                trump=action.trump,
                phase="playing",
                leader=(self.dealer + 1) % 4,
                last=action,
            )
        if isinstance(action, AnnounceRun):
            return replace(self, announced=self.announced | 1 << seat, last=action)
        if isinstance(action, ShowRun):
            run = RunShown.of(seat, run_from_cards(action.cards))
            return replace(self, shown=(*self.shown, run), last=action)
        if isinstance(action, CallBella):
            return replace(self, bella_seat=seat, last=action)
        if isinstance(action, ThrowIn):
            return replace(self, thrown_in_by=seat, phase="done", last=action)
        i = action.card.index
        held = list(self.held)
        held[seat] ^= 1 << i
        current = (*self.current, i)
        if len(current) < 4:
            return replace(
                self, held=(held[0], held[1], held[2], held[3]), current=current, last=action
            )
        t = _bits.trump_index(self.trump)
        _, _, pos, _ = _bits.trick_state(current, t)
        winner = (self.leader + pos) % 4
        tricks = (*self.tricks, current)
        return replace(
            self,
            held=(held[0], held[1], held[2], held[3]),
            current=(),
            tricks=tricks,
            winners=(*self.winners, winner),
            leader=winner,
            phase="done" if len(tricks) == 9 else "playing",
            last=action,
        )

    # ------------------------------------------------------------ results

    def record(self) -> TrickRecord:
        """The trick record so far, with the deal."""
        tricks = tuple(tuple(DECK[i] for i in t) for t in self.tricks)
        if self.current:
            tricks = (*tricks, tuple(DECK[i] for i in self.current))
        return TrickRecord(
            dealer=self.dealer,
            caller=self.caller,
            trump=self.trump,
            tricks=tricks,
            hands=self.deal.hands,
            runs=self.shown,
            bella_seat=self.bella_seat,
            thrown_in_by=self.thrown_in_by,
        )

    def result(self) -> HandResult:
        """The scored result once the hand is over."""
        if self.phase != "done":
            raise IllegalPlay("the hand is not over yet", code="hand_not_over", field=None)
        if self.caller is None:
            return settle(
                self.ruleset, dealer=self.dealer, caller=None, trump=None, card_points=(0, 0)
            )
        return score_tricks(self.ruleset, self.record())

    def view_for(self, seat: int) -> HandView:
        """What ``seat`` may see: own cards (kitty once visible), the table, the last trick."""
        _parse.seat(seat, "seat")
        called = self.caller is not None
        passed = self.phase == "calling" and (seat - self.dealer - 1) % 4 < self.passes
        if self.phase == "done" and not called:
            passed = True
        kitty_visible = called or (self.ruleset.pass_reveals_kitty and passed)
        m = self.held[seat]
        own = self.deal.hands[seat] if kitty_visible else self.deal.seen(seat)
        hand = tuple(c for c in own if m >> c.index & 1)
        current = tuple(((self.leader + p) % 4, DECK[i]) for p, i in enumerate(self.current))
        last: tuple[tuple[int, Card], ...] | None = None
        last_winner: int | None = None
        if self.tricks:
            lead = self.dealer + 1 if len(self.tricks) == 1 else self.winners[-2]
            last = tuple(((lead + p) % 4, DECK[i]) for p, i in enumerate(self.tricks[-1]))
            last_winner = self.winners[-1]
        won = [0, 0]
        for w in self.winners:
            won[w % 2] += 1
        return HandView(
            seat=seat,
            phase=self.phase,
            dealer=self.dealer,
            to_act=self.to_act,
            caller=self.caller,
            trump=self.trump,
            hand=hand,
            kitty=self.deal.kitty(seat) if kitty_visible else None,
            hand_sizes=(
                self.held[0].bit_count(),
                self.held[1].bit_count(),
                self.held[2].bit_count(),
                self.held[3].bit_count(),
            ),
            current_trick=current,
            last_trick=last,
            last_trick_winner=last_winner,
            tricks_won=(won[0], won[1]),
            runs_shown=self.shown,
            announced=tuple(s for s in SEATS if self.announced >> s & 1),
            bella_seat=self.bella_seat,
            legal_plays=self.legal_plays() if self.to_act == seat else (),
            scores=self.scores,
        )


@dataclass(frozen=True, slots=True)
class HandLog:
    """A complete record of a hand: ruleset + dealer + deal + ordered actions."""

    ruleset: Ruleset
    dealer: int
    deal: Deal
    actions: tuple[Action, ...]
    #: Game totals before the hand (for the forced call).
    scores: tuple[int, int] = (0, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.to_json(),
            "dealer": self.dealer,
            "deal": self.deal.to_json(),
            "scores": list(self.scores),
            "actions": [action_to_json(a) for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandLog:
        d = _parse.obj(data, "a hand log")
        _parse.no_extra(d, {"ruleset", "dealer", "deal", "scores", "actions"})
        try:
            ruleset = Ruleset.from_json(d.get("ruleset") or {})
        except EngineError as exc:
            raise exc.nested("ruleset") from None
        acts = d.get("actions") or []
        if not isinstance(acts, list | tuple):
            raise InvalidEntry("actions must be a list", code="bad_json", field="actions")
        scores = d.get("scores")
        return cls(
            ruleset=ruleset,
            dealer=_parse.seat(d.get("dealer"), "dealer"),
            deal=Deal.from_json(d.get("deal")),
            actions=tuple(action_from_json(a, f"actions.{n}") for n, a in enumerate(acts)),
            scores=(0, 0) if scores is None else _parse.int_pair(scores, "scores"),
        )

    def start(self) -> HandState:
        return HandState.start(self.ruleset, self.dealer, self.deal, self.scores)

    def final(self) -> HandState:
        """The position after the last action."""
        return replay(self)[-1]


def replay(log: HandLog) -> tuple[HandState, ...]:
    """Every position of the hand: the start, then one after each action.

    An action that is not allowed raises :class:`IllegalPlay` with field ``actions.N``.

    >>> from scoring.engine.dealing import deal, shuffled_deck
    >>> log = HandLog(Ruleset(), 0, deal(shuffled_deck(3), 0), (Pass(1), CallTrump(2, Suit.CLUBS)))
    >>> [s.phase for s in replay(log)]
    ['calling', 'calling', 'playing']
    """
    state = log.start()
    states = [state]
    for n, action in enumerate(log.actions):
        try:
            state = state.apply(action)
        except IllegalPlay as exc:
            raise IllegalPlay(str(exc), code=exc.code, field=f"actions.{n}") from None
        states.append(state)
    return tuple(states)
