"""Misplay (renege) adjudication from a trick record.

A record proves a misplay when a player who played a card at trick k later plays a card that
they therefore held at trick k and that the rules required them to play instead. Where the full
deal is known every card held at trick k counts as evidence, not only later plays. A record that
is itself impossible is rejected with :class:`ImpossibleRecord`, not judged.

A card of neither the suit led nor trump, played while holding a trump, is a misplay whether or
not the player held the suit led; the verdict says they were void in it only when the deal, or
the record, shows it.

A named proof card must itself prove the misplay; when it does not, the verdict is "not proven"
even if another card would have (the reason says which), because the caller has to show it.

Tricks are numbered as everywhere in the engine: by their position in the record's ``tricks``
(0 to 8), as in field paths (``tricks.1.2``). ``Accusation.trick``, ``Verdict.trick`` and
``Verdict.proof_trick`` are such positions; the reasons, written for people, say trick 1 to 9,
and so does the JSON of an accusation or a verdict, which people read and which is stored.

The seed's example: king of trump led, the second player plays the 6 of trump, and later plays
the 9 of trump: they did not play to beat at the first trick.

>>> from scoring.engine.cards import parse_cards
>>> rec = TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS, tricks=(
...     parse_cards("KH 6H 7H 8H"), parse_cards("AS 9H 10S 6S")))
>>> v = adjudicate(rec, Accusation(accused=1, trick=0, called_by=0))
>>> v.proven, str(v.offending_card), v.rule.value, str(v.proof_card), v.proof_trick
(True, '6H', 'beat_trump', '9H', 1)
>>> v.to_json()["trick"], v.to_json()["proof_trick"]
(1, 2)
>>> v.reason
'seat 1 played the 6 of hearts at trick 1 but did not beat the king of hearts on the trick: seat 1 held the 9 of hearts, played at trick 2'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import _bits, _parse
from scoring.engine.cards import (
    DECK,
    SEATS,
    Card,
    Suit,  # noqa: F401  (used by the doctests)
)
from scoring.engine.errors import InvalidEntry
from scoring.engine.play import MisplayRule, rule_of
from scoring.engine.record import Compiled, TrickRecord, compile_record
from scoring.engine.ruleset import Ruleset
from scoring.engine.runs import RunShown
from scoring.engine.scoring import HandResult, HandSummary, MisplayCall, settle

__all__ = ["Accusation", "Verdict", "adjudicate", "find_misplays", "score_misplay"]


@dataclass(frozen=True, slots=True)
class Accusation:
    """A misplay call: the accused seat, the trick (its position, 0 to 8), optionally the card
    that proves it.

    ``called_by`` (the seat calling the misplay) is needed to score the hand, not to judge it.
    """

    accused: int
    trick: int
    proof_card: Card | None = None
    called_by: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "accused": self.accused,
            "trick": self.trick + 1,
            "proof_card": None if self.proof_card is None else str(self.proof_card),
            "called_by": self.called_by,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Accusation:
        d = _parse.obj(data, "an accusation")
        trick: Any = d.get("trick")
        if not _parse.is_int(trick) or not 1 <= trick <= 9:
            raise InvalidEntry(
                f"trick must be a trick number 1 to 9, not {trick!r}",
                code="bad_trick",
                field="trick",
            )
        proof = d.get("proof_card")
        return cls(
            accused=_parse.seat(d.get("accused"), "accused"),
            trick=trick - 1,
            proof_card=None if proof is None else _parse.card(proof, "proof_card"),
            called_by=_parse.seat(d.get("called_by"), "called_by", optional=True),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to an accusation: proven or not, and why (tricks by position, 0 to 8)."""

    proven: bool
    accused: int
    trick: int
    offending_card: Card | None
    rule: MisplayRule | None
    proof_card: Card | None
    #: Trick where the proof card was played; None when the proof is the known deal.
    proof_trick: int | None
    reason: str
    called_by: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "proven": self.proven,
            "accused": self.accused,
            "trick": self.trick + 1,
            "offending_card": None if self.offending_card is None else str(self.offending_card),
            "rule": None if self.rule is None else self.rule.value,
            "proof_card": None if self.proof_card is None else str(self.proof_card),
            "proof_trick": None if self.proof_trick is None else self.proof_trick + 1,
            "reason": self.reason,
            "called_by": self.called_by,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        d = _parse.obj(data, "a verdict")
        off, proof, rule = d.get("offending_card"), d.get("proof_card"), d.get("rule")
        trick: Any = d.get("trick")
        proof_trick: Any = d.get("proof_trick")
        if not _parse.is_int(trick) or not (proof_trick is None or _parse.is_int(proof_trick)):
            raise InvalidEntry(
                "trick numbers must be whole numbers", code="bad_trick", field="trick"
            )
        if rule is not None and (
            not isinstance(rule, str) or rule not in {r.value for r in MisplayRule}
        ):
            names = ", ".join(f'"{r.value}"' for r in MisplayRule)
            raise InvalidEntry(
                f"{rule!r} is not a rule of play: use {names}", code="bad_rule", field="rule"
            )
        return cls(
            proven=_parse.boolean(d.get("proven"), "proven"),
            accused=_parse.seat(d.get("accused"), "accused"),
            trick=int(trick) - 1,
            offending_card=None if off is None else _parse.card(off, "offending_card"),
            rule=None if rule is None else MisplayRule(rule),
            proof_card=None if proof is None else _parse.card(proof, "proof_card"),
            proof_trick=None if proof_trick is None else int(proof_trick) - 1,
            reason=str(d.get("reason", "")),
            called_by=_parse.seat(d.get("called_by"), "called_by", optional=True),
        )


def _label(i: int) -> str:
    return DECK[i].label


def _judge(comp: Compiled, accused: int, k: int, proof: int, called_by: int | None) -> Verdict:
    """Judge the play of ``accused`` at trick ``k`` (a position); ``proof`` card index or -1."""
    if k >= len(comp.tricks):
        return Verdict(
            False, accused, k, None, None, None, None, f"the record has no trick {k + 1}", called_by
        )
    leader, cards = comp.tricks[k]
    pos = (accused - leader) % 4
    if pos >= len(cards):
        return Verdict(
            False,
            accused,
            k,
            None,
            None,
            None,
            None,
            f"seat {accused} did not play to trick {k + 1}",
            called_by,
        )
    t = comp.trump
    i = cards[pos]
    led = cards[0] // 9 if pos else -1
    top = -1
    for j in cards[:pos]:
        if j // 9 == t and (top < 0 or _bits.BIT[j] & _bits.ABOVE[top]):
            top = j
    # evidence: cards the accused played after trick k, and with a known deal every held card
    mine = comp.plays[accused]
    later = 0
    when: dict[int, int] = {}
    for n in range(k + 1, len(mine)):
        j = mine[n]
        later |= 1 << j
        when[j] = n
    held = later
    if comp.hands is not None:
        before = 0
        for j in mine[:k]:
            before |= 1 << j
        held |= comp.hands[accused] & ~before
    held &= ~(1 << i)
    rule, required = rule_of(i, held | 1 << i, led, top, t)
    # A card of neither the suit led nor trump, played with a trump in hand, breaks "did not
    # trump" when the accused had none of the suit led, and "did not follow suit" when they had
    # one: against the rules either way, so it is proven. The verdict says the accused was
    # void in the suit led only when the record shows it: with the deal, with all nine of their
    # cards played, or with every card of the suit led played by someone else (or by the
    # accused before trick k). A card of the suit led played later makes ``rule`` follow suit.
    void_shown = True
    if rule is MisplayRule.TRUMP and comp.hands is None and len(mine) < 9:
        seen = 0
        for seat_plays in comp.plays:
            for j in seat_plays:
                seen |= 1 << j
        void_shown = not _bits.SUIT_MASK[led] & ~seen
    card = DECK[i]
    head = f"seat {accused} played the {card.label} at trick {k + 1}"
    if rule is None:
        source = "the deal shows" if comp.hands is not None else "the later tricks show"
        return Verdict(
            False,
            accused,
            k,
            card,
            None,
            None,
            None,
            f"{head}, a legal play as far as {source}",
            called_by,
        )
    what = _rule_words(rule, led, top, accused, void_shown=void_shown)
    if proof >= 0:
        if not required >> proof & 1:
            alt = _pick(required, when)
            extra = f"; the {_label(alt)} would have" if alt >= 0 else ""
            if proof == i:
                why = f"it is the card seat {accused} played there"
            elif held >> proof & 1:
                why = f"seat {accused} held it, but it was not a card they had to play instead"
            else:
                why = f"seat {accused} is not known to have held it at trick {k + 1}"
            return Verdict(
                False,
                accused,
                k,
                card,
                None,
                DECK[proof],
                when.get(proof),
                f"the {_label(proof)} does not prove a misplay at trick {k + 1}: {why}{extra}",
                called_by,
            )
        chosen = proof
    else:
        chosen = _pick(required, when)
    where = f", played at trick {when[chosen] + 1}" if chosen in when else ", dealt to them"
    return Verdict(
        True,
        accused,
        k,
        card,
        rule,
        DECK[chosen],
        when.get(chosen),
        f"{head} but {what}: seat {accused} held the {_label(chosen)}{where}",
        called_by,
    )


def _pick(required: int, when: dict[int, int]) -> int:
    """The proof card to show: the earliest later play, else the first held card."""
    later = [j for j in when if required >> j & 1]
    if later:
        return min(later, key=lambda j: (when[j], j))
    idx = _bits.indices(required)
    return idx[0] if idx else -1


def _rule_words(
    rule: MisplayRule, led: int, top: int, accused: int, *, void_shown: bool = True
) -> str:
    suit = DECK[led * 9].suit.label
    if rule is MisplayRule.FOLLOW_SUIT:
        return f"did not follow suit ({suit} were led)"
    if rule is MisplayRule.TRUMP:
        if not void_shown:
            return (
                f"did not trump ({suit} were led; the record does not show whether seat "
                f"{accused} held any, and with one they had to follow suit instead)"
            )
        return f"did not trump (void in {suit})"
    return f"did not beat the {_label(top)} on the trick"


def adjudicate(record: TrickRecord, accusation: Accusation) -> Verdict:
    """The verdict on an accusation, from the record (see the module text).

    The rules of play do not depend on a ruleset's switches, and judging needs only the
    dealer, the trump and the tricks: a record whose ``caller`` is ``None`` (not noted) is
    judged as well.

    >>> from scoring.engine.cards import parse_card, parse_cards
    >>> rec = TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS, tricks=(
    ...     parse_cards("AS 6C 7S 8S"), parse_cards("KD 9S 8D 7D")))
    >>> v = adjudicate(rec, Accusation(accused=1, trick=0, called_by=0,
    ...                                proof_card=parse_card("9S")))
    >>> v.proven, v.rule.value, v.proof_trick
    (True, 'follow_suit', 1)
    >>> from dataclasses import replace
    >>> adjudicate(replace(rec, caller=None), Accusation(accused=1, trick=0)).proven
    True
    """
    if not _parse.is_int(accusation.trick) or not 0 <= accusation.trick <= 8:
        raise InvalidEntry(
            f"trick must be a trick's position 0 to 8, not {accusation.trick!r}",
            code="bad_trick",
            field="accusation.trick",
        )
    if accusation.accused not in SEATS:
        raise InvalidEntry(
            "accused must be a seat 0 to 3", code="bad_seat", field="accusation.accused"
        )
    by = accusation.called_by
    if by is not None:
        _parse.seat(by, "accusation.called_by")
        if by % 2 == accusation.accused % 2:
            whom = (
                "themselves"
                if by == accusation.accused
                else f"seat {accusation.accused}: they are partners"
            )
            raise InvalidEntry(
                f"seat {by} cannot call a misplay on {whom}, and a misplay is called on an "
                "opponent",
                code="accused_partner",
                field="accusation.called_by",
            )
    comp = compile_record(record, judging=True)
    proof = -1 if accusation.proof_card is None else accusation.proof_card.index
    return _judge(comp, accusation.accused, accusation.trick, proof, accusation.called_by)


def find_misplays(record: TrickRecord) -> tuple[Verdict, ...]:
    """Every misplay the record proves, in play order (for tournament directors); as with
    :func:`adjudicate`, no ruleset and no caller are needed.

    >>> from scoring.engine.cards import parse_cards
    >>> rec = TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS, tricks=(
    ...     parse_cards("AS 6C 7S 8S"), parse_cards("KD 9S 8D 7D")))
    >>> [(v.accused, v.trick, v.rule.value) for v in find_misplays(rec)]
    [(1, 0, 'follow_suit')]
    """
    comp = compile_record(record, judging=True)
    t = comp.trump
    # held[seat][n]: what the evidence says seat held when playing its card at trick n
    held: list[list[int]] = []
    for seat in SEATS:
        mine = comp.plays[seat]
        after = [0] * (len(mine) + 1)
        for n in range(len(mine) - 1, -1, -1):
            after[n] = after[n + 1] | 1 << mine[n]
        if comp.hands is None:
            held.append(after[:-1])
        else:
            before = 0
            row = []
            for j in mine:
                row.append(comp.hands[seat] & ~before)
                before |= 1 << j
            held.append(row)
    out: list[Verdict] = []
    above = _bits.ABOVE
    for k, (leader, cards) in enumerate(comp.tricks):
        led = cards[0] // 9
        top = cards[0] if led == t else -1
        for pos in range(1, len(cards)):
            seat = (leader + pos) % 4
            i = cards[pos]
            rule, _ = rule_of(i, held[seat][k] | 1 << i, led, top, t)
            if rule is not None:
                out.append(_judge(comp, seat, k, -1, None))
            if i // 9 == t and (top < 0 or 1 << i & above[top]):
                top = i
    return tuple(out)


def score_misplay(
    ruleset: Ruleset,
    context: TrickRecord | HandSummary,
    call: Verdict | MisplayCall,
    *,
    called_by: int | None = None,
) -> HandResult:
    """The hand's result after a misplay call.

    Proven: the calling team scores the whole hand (every card point, played or not, + the runs
    counted from those shown + bella if called); not proven: the other team does. ``context`` is
    the trick record (or the score-sheet line) of the stopped hand. With a :class:`Verdict`,
    ``called_by`` is taken from the verdict unless given.

    >>> from scoring.engine.cards import parse_cards
    >>> rec = TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS, tricks=(
    ...     parse_cards("KH 6H 7H 8H"), parse_cards("AS 9H 10S 6S")), bella_seat=0)
    >>> v = adjudicate(rec, Accusation(accused=1, trick=0, called_by=2))
    >>> score_misplay(Ruleset(), rec, v).points
    (182, 0)
    """
    if isinstance(call, Verdict):
        seat = called_by if called_by is not None else call.called_by
        if seat is None:
            raise InvalidEntry(
                "say who called the misplay", code="missing_field", field="called_by"
            )
        mc = MisplayCall(seat, call.proven, call.accused)
    else:
        mc = call
    accused = mc.accused
    mc.validate("" if isinstance(call, Verdict) else "misplay.")
    runs: tuple[RunShown, ...]
    if isinstance(context, TrickRecord):
        compile_record(context)
        caller, trump, dealer = context.caller, context.trump, context.dealer
        runs, bella = context.runs, context.bella_seat
    else:
        context.validate(
            ruleset.replace(dealer_may_pass=True) if context.caller is None else ruleset
        )
        caller, trump, dealer = context.caller, context.trump, context.dealer
        runs, bella = context.runs, context.bella_seat
        if context.run_points is not None or context.run_counts is not None:
            return settle(
                ruleset,
                dealer=dealer,
                caller=caller,
                trump=trump,
                card_points=(0, 0),
                run_points=context.run_points,
                run_counts=context.run_counts,
                bella_seat=bella,
                misplay=mc,
                misplay_accused=accused,
            )
    if caller is None:
        raise InvalidEntry("a void hand has no misplay", code="void_hand", field="caller")
    return settle(
        ruleset,
        dealer=dealer,
        caller=caller,
        trump=trump,
        card_points=(0, 0),
        runs=runs,
        bella_seat=bella,
        misplay=mc,
        misplay_accused=accused,
    )
