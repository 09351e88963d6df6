"""The trick record of a hand: who led, who won, and the score it gives.

A record lists the tricks in order, each as its cards in play order from that trick's leader.
Leaders are derived: the player left of the dealer leads trick 1, the winner of a trick leads
the next. The last trick may be partial when the hand was stopped (a misplay call or a throw-in).
The players' nine cards may be given too (online play, or a careful score-keeper).

A trick is known by its position in ``tricks``, 0 to 8, as in field paths (``tricks.2.1`` is
the second card of the third trick) and in misplay verdicts; messages, written for people, say
trick 1 to 9.

>>> from scoring.engine.cards import parse_cards
>>> rec = TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS,
...                   tricks=(parse_cards("KH 6H 9H 7H"), parse_cards("AS 10S 7S 6S")))
>>> trick_leaders(rec)
(0, 2)
>>> TrickRecord(dealer=3, caller=0, trump=Suit.HEARTS,
...             tricks=(parse_cards("KH 6H 9H 7H"), parse_cards("AS KH"))).check()
Traceback (most recent call last):
...
scoring.engine.errors.ImpossibleRecord: the king of hearts is played twice: at trick 1 and at trick 2
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.engine import _bits, _parse
from scoring.engine.cards import DECK, SEATS, Card, Rank, Suit
from scoring.engine.dealing import Deal
from scoring.engine.errors import EngineError, ImpossibleRecord, InvalidEntry
from scoring.engine.play import trick_winner
from scoring.engine.ruleset import Ruleset
from scoring.engine.runs import RunKind, RunShown, check_claims, validate_runs_shown
from scoring.engine.scoring import HandResult, settle

__all__ = [
    "RECORD_KEYS",
    "Compiled",
    "TrickRecord",
    "score_tricks",
    "trick_leaders",
    "trick_winner",
]

#: The keys of a trick record as :meth:`TrickRecord.from_json` reads it; any other is refused.
RECORD_KEYS = frozenset(
    {
        "dealer",
        "caller",
        "trump",
        "tricks",
        "hands",
        "runs",
        "bella_seat",
        "thrown_in_by",
        "leaders",
    }
)


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """The full record of a hand (see the module text)."""

    dealer: int
    caller: int | None
    trump: Suit | None
    tricks: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], ...] | None = None
    runs: tuple[RunShown, ...] = ()
    bella_seat: int | None = None
    thrown_in_by: int | None = None
    #: Optional stated leader of each trick; checked against the derived leaders.
    leaders: tuple[int, ...] | None = None

    @property
    def complete(self) -> bool:
        """Nine full tricks."""
        return len(self.tricks) == 9 and all(len(t) == 4 for t in self.tricks)

    def check(self) -> Compiled:
        """Check that this record could have happened; raises :class:`ImpossibleRecord`."""
        return compile_record(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "caller": self.caller,
            "trump": _parse.suit_text(self.trump),
            "tricks": [[str(c) for c in t] for t in self.tricks],
            "hands": None if self.hands is None else [[str(c) for c in h] for h in self.hands],
            "runs": [r.to_json() for r in self.runs],
            "bella_seat": self.bella_seat,
            "thrown_in_by": self.thrown_in_by,
            "leaders": None if self.leaders is None else list(self.leaders),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrickRecord:
        d = _parse.obj(data, "a trick record")
        _parse.no_extra(d, RECORD_KEYS)
        tricks = d.get("tricks") or []
        if not isinstance(tricks, list | tuple):
            raise InvalidEntry("tricks must be a list of tricks", code="bad_json", field="tricks")
        hands = d.get("hands")
        if hands is not None and (not isinstance(hands, list | tuple) or len(hands) != 4):
            raise InvalidEntry(
                "hands must be four lists of nine cards", code="bad_json", field="hands"
            )
        runs_data = d.get("runs") or []
        if not isinstance(runs_data, list | tuple):
            raise InvalidEntry("runs must be a list of runs", code="bad_json", field="runs")
        runs: list[RunShown] = []
        for i, r in enumerate(runs_data):
            try:
                runs.append(RunShown.from_json(r))
            except EngineError as exc:
                raise exc.nested(f"runs.{i}") from None
        leaders = d.get("leaders")
        if leaders is not None and not isinstance(leaders, list | tuple):
            raise InvalidEntry(
                "leaders must be a list of seats, the leader of each trick",
                code="bad_json",
                field="leaders",
            )
        return cls(
            dealer=_parse.seat(d.get("dealer"), "dealer"),
            caller=_parse.seat(d.get("caller"), "caller", optional=True),
            trump=_parse.trump(d.get("trump"), "trump"),
            tricks=tuple(_parse.cards(t, f"tricks.{k}") for k, t in enumerate(tricks)),
            hands=None
            if hands is None
            else tuple(_parse.cards(h, f"hands.{s}") for s, h in enumerate(hands)),
            runs=tuple(runs),
            bella_seat=_parse.seat(d.get("bella_seat"), "bella_seat", optional=True),
            thrown_in_by=_parse.seat(d.get("thrown_in_by"), "thrown_in_by", optional=True),
            leaders=None
            if leaders is None
            else tuple(_parse.seat(s, f"leaders.{k}") for k, s in enumerate(leaders)),
        )


class Compiled(NamedTuple):
    """A checked record in bit-set form (internal, shared with misplay adjudication)."""

    trump: int
    #: Per trick: (leader, card indices in play order).
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    #: Winner of each complete trick.
    winners: list[int]
    #: Dealt hands as masks, when known.
    hands: tuple[int, ...] | None
    #: ``plays[seat][n]``: the card index that seat played at trick ``n`` (a position).
    plays: list[list[int]]


def _bad(msg: str, field: str | None, code: str = "impossible_record") -> ImpossibleRecord:
    return ImpossibleRecord(msg, code=code, field=field)


def _deal_masks(hands: tuple[tuple[Card, ...], ...]) -> tuple[int, ...]:
    bit = _bits.BIT
    masks: list[int] = []
    for h in hands:
        m = 0
        for c in h:
            m |= bit[c.index]
        masks.append(m)
    ok = (
        len(hands) == 4
        and all(len(h) == 9 for h in hands)
        and masks[0] | masks[1] | masks[2] | masks[3] == _bits.ALL
    )
    if not ok:
        try:
            Deal(tuple(tuple(h) for h in hands))
        except InvalidEntry as exc:
            raise _bad(str(exc), "hands", "bad_deal") from None
        raise _bad("a deal is four hands of nine different cards", "hands", "bad_deal")
    return tuple(masks)


def compile_record(rec: TrickRecord, *, judging: bool = False) -> Compiled:
    """Check a record and put it in bit-set form (raises :class:`ImpossibleRecord`).

    ``judging``: the record is read to judge a misplay, which does not need the caller, so a
    record with tricks and no caller is one whose caller was not noted rather than one where
    everybody passed."""
    _check_seats_and_call(rec, judging=judging)
    t = 4 if rec.trump is None else rec.trump.index
    hand_masks = None if rec.hands is None else _deal_masks(rec.hands)
    played = _Played.of(rec.tricks, (rec.dealer + 1) % 4, t)
    if rec.leaders is not None:
        _check_leaders(rec.leaders, played.tricks)
    _check_each_card_once_and_held(rec.tricks, played, hand_masks)
    if rec.runs or rec.bella_seat is not None:
        _check_runs_and_bella(rec, played, hand_masks)
    _check_throw_in(rec.thrown_in_by, played.n_cards)
    return Compiled(t, tuple(played.tricks), played.winners, hand_masks, played.plays)


def _check_seats_and_call(rec: TrickRecord, *, judging: bool) -> None:
    """The dealer and caller are seats; nine tricks at most; no trump and no tricks without a
    caller (unless judging a misplay, where the caller may not have been noted)."""
    if rec.dealer not in SEATS:
        raise _bad(f"dealer must be a seat 0 to 3, not {rec.dealer!r}", "dealer", "bad_seat")
    if rec.caller is not None and rec.caller not in SEATS:
        raise _bad(f"caller must be a seat 0 to 3, not {rec.caller!r}", "caller", "bad_seat")
    if rec.caller is None and not judging and (rec.tricks or rec.trump is not None):
        raise _bad("a hand with no caller has no trump and no tricks", "caller")
    if len(rec.tricks) > 9:
        raise _bad(f"a hand has nine tricks, not {len(rec.tricks)}", "tricks", "too_many_tricks")


class _Played(NamedTuple):
    """The tricks of a record as card indices, with who led and won each."""

    #: Per trick: (leader, card indices in play order).
    tricks: list[tuple[int, tuple[int, ...]]]
    #: Winner of each complete trick.
    winners: list[int]
    #: ``plays[seat][n]``: the card index that seat played at trick ``n``.
    plays: list[list[int]]
    #: ``masks[seat]``: the cards that seat played, as a mask.
    masks: list[int]
    #: Every card played, as a mask, and how many cards were played.
    seen: int
    n_cards: int

    @classmethod
    def of(cls, tricks: tuple[tuple[Card, ...], ...], leader: int, t: int) -> _Played:
        """Follow the tricks from the first ``leader``: each winner leads the next. Only the
        last trick may have fewer than four cards."""
        bit = _bits.BIT
        keys_of = _bits.WIN_KEY[t * 4 : t * 4 + 4]
        count = 0
        masks = [0, 0, 0, 0]
        out: list[tuple[int, tuple[int, ...]]] = []
        winners: list[int] = []
        plays: list[list[int]] = [[], [], [], []]
        add = [p.append for p in plays]
        last = len(tricks) - 1
        for k, trick in enumerate(tricks):
            if len(trick) != 4:
                idx = _partial_trick(trick, k, last)
                for p, i in enumerate(idx):
                    masks[(leader + p) & 3] |= bit[i]
                    add[(leader + p) & 3](i)
                out.append((leader, idx))
                count += len(idx)
                continue
            c0, c1, c2, c3 = trick
            a, b, c, d = c0.index, c1.index, c2.index, c3.index
            s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
            masks[leader] |= bit[a]
            masks[s1] |= bit[b]
            masks[s2] |= bit[c]
            masks[s3] |= bit[d]
            add[leader](a)
            add[s1](b)
            add[s2](c)
            add[s3](d)
            keys = keys_of[a // 9]
            win, best = leader, keys[a]
            if keys[b] > best:
                win, best = s1, keys[b]
            if keys[c] > best:
                win, best = s2, keys[c]
            if keys[d] > best:
                win = s3
            winners.append(win)
            out.append((leader, (a, b, c, d)))
            leader = win
            count += 4
        # A card played twice is in one mask twice, or in two: seen then counts fewer cards.
        seen = masks[0] | masks[1] | masks[2] | masks[3]
        return cls(out, winners, plays, masks, seen, count)


def _partial_trick(trick: tuple[Card, ...], k: int, last: int) -> tuple[int, ...]:
    """The card indices of trick ``k``, which has fewer than four cards: it must have some
    and be the last trick (``last``) of the record."""
    n = len(trick)
    if n == 0 or n > 4:
        raise _bad(
            f"trick {k + 1} has {n} cards: a trick has one card from each player",
            f"tricks.{k}",
            "bad_trick",
        )
    if k != last:
        raise _bad(
            f"trick {k + 1} has only {n} cards but a later trick was played",
            f"tricks.{k}",
            "bad_trick",
        )
    return tuple([x.index for x in trick])


def _check_leaders(leaders: tuple[int, ...], tricks: list[tuple[int, tuple[int, ...]]]) -> None:
    """The leaders a record states are the ones its tricks give."""
    for k, (lead, _) in enumerate(tricks[: len(leaders)]):
        if leaders[k] != lead:
            why = "leads the first trick" if k == 0 else f"won trick {k}"
            raise _bad(
                f"trick {k + 1} was led by seat {leaders[k]} out of turn: seat {lead} "
                f"{why} and leads trick {k + 1}",
                f"leaders.{k}",
                "wrong_leader",
            )


def _check_each_card_once_and_held(
    tricks: tuple[tuple[Card, ...], ...], played: _Played, hand_masks: tuple[int, ...] | None
) -> None:
    """No card is played twice, and with the deal known, every card by the seat dealt it."""
    if played.seen.bit_count() != played.n_cards:
        _explain_cards(tricks, played.tricks, hand_masks)
    if hand_masks is None:
        return
    for seat, m in enumerate(played.masks):
        if m & ~hand_masks[seat]:
            _explain_cards(tricks, played.tricks, hand_masks)


def _check_throw_in(thrown_in_by: int | None, count: int) -> None:
    if thrown_in_by is None:
        return
    if thrown_in_by not in SEATS:
        raise _bad("thrown_in_by must be a seat 0 to 3", "thrown_in_by", "bad_seat")
    if count == 36:
        # A throw-in stops the hand before its end: the other team takes the last trick's 10
        # as not yet won. After the ninth trick there is nothing left to throw in (a
        # score-sheet line says the same through its card points).
        raise _bad(
            f"seat {thrown_in_by} cannot have thrown in the hand: it was played out, all "
            "nine tricks were played",
            "thrown_in_by",
            "thrown_in_played_out",
        )


def _explain_cards(
    tricks: tuple[tuple[Card, ...], ...],
    out: list[tuple[int, tuple[int, ...]]],
    hand_masks: tuple[int, ...] | None,
) -> None:
    """Raise the error for the first card played twice or not held."""
    first: dict[int, int] = {}
    for k, (leader, idx) in enumerate(out):
        for p, i in enumerate(idx):
            c = tricks[k][p]
            if i in first:
                raise _bad(
                    f"the {c.label} is played twice: at trick {first[i] + 1} and at trick {k + 1}",
                    f"tricks.{k}.{p}",
                    "card_twice",
                )
            first[i] = k
            seat = (leader + p) % 4
            if hand_masks is not None and not hand_masks[seat] >> i & 1:
                raise _bad(
                    f"seat {seat} plays the {c.label} at trick {k + 1} but was not dealt it",
                    f"tricks.{k}.{p}",
                    "card_not_held",
                )


def _check_runs_and_bella(
    rec: TrickRecord, played: _Played, hand_masks: tuple[int, ...] | None
) -> None:
    try:
        validate_runs_shown(rec.runs)
    except InvalidEntry as exc:
        raise _bad(str(exc), exc.field, exc.code) from None
    _check_runs_not_played_by_others(rec.runs, played.seen, played.masks, hand_masks)
    _check_runs_cut_from_the_top(rec, played, hand_masks)
    if rec.bella_seat is not None:
        _check_bella(rec, played.masks, hand_masks)


def _check_runs_not_played_by_others(
    runs: tuple[RunShown, ...],
    seen: int,
    played_by: list[int],
    hand_masks: tuple[int, ...] | None,
) -> None:
    """Every card of a shown run was dealt to its seat (when the deal is known) and played
    by no other seat (``played_by[seat]``: the mask of the cards that seat played)."""
    for n, r in enumerate(runs):
        length = 4 if r.kind is RunKind.FIFTY else 3
        m = ((1 << length) - 1) << (r.suit.index * 9 + int(r.top) - 5 - length)
        others = seen & ~played_by[r.seat]
        bad_hand = hand_masks is not None and m & ~hand_masks[r.seat]
        if bad_hand or m & others:
            _explain_run(n, r, played_by, hand_masks)


def _explain_run(
    n: int, r: RunShown, played_by: list[int], hand_masks: tuple[int, ...] | None
) -> None:
    """Raise the error for the first card of run ``n`` not dealt to its seat or played by
    another."""
    for c in r.cards:
        i = c.index
        if hand_masks is not None and not hand_masks[r.seat] >> i & 1:
            raise _bad(
                f"seat {r.seat} shows a {r.run} but was not dealt the {c.label}",
                f"runs.{n}",
                "run_not_held",
            )
        for other in SEATS:
            if other != r.seat and played_by[other] >> i & 1:
                raise _bad(
                    f"seat {r.seat} shows a {r.run} but seat {other} played the {c.label}",
                    f"runs.{n}",
                    "run_not_held",
                )


def _check_bella(
    rec: TrickRecord, played_by: list[int], hand_masks: tuple[int, ...] | None
) -> None:
    """Bella in a hand with a trump, by the seat holding the king and queen of trump: dealt
    them (when the deal is known), and no other seat played or showed either."""
    seat = rec.bella_seat
    if seat not in SEATS:
        raise _bad("bella_seat must be a seat 0 to 3", "bella_seat", "bad_seat")
    if rec.trump is None:
        raise _bad("there is no bella in a no-trump hand", "bella_seat", "no_bella")
    for rank in (Rank.KING, Rank.QUEEN):
        i = rec.trump.index * 9 + int(rank) - 6
        if hand_masks is not None and not hand_masks[seat] >> i & 1:
            raise _bad(
                f"seat {seat} calls bella but was not dealt the {DECK[i].label}",
                "bella_seat",
                "bella_not_held",
            )
        for other in SEATS:
            if other != seat and played_by[other] >> i & 1:
                raise _bad(
                    f"seat {seat} calls bella but seat {other} played the {DECK[i].label}",
                    "bella_seat",
                    "bella_not_held",
                )
        # A run shown holds its cards as surely as a card played: a record stopped
        # before the king or queen was played still cannot give it to two players.
        for r in rec.runs:
            if r.seat != seat and any(c.index == i for c in r.cards):
                raise _bad(
                    f"seat {seat} calls bella but seat {r.seat} showed the {DECK[i].label} "
                    "in a run",
                    "bella_seat",
                    "bella_not_held",
                )


def _check_runs_cut_from_the_top(
    rec: TrickRecord, played: _Played, hand_masks: tuple[int, ...] | None
) -> None:
    """A shown run must be a block cut from the top of the player's nine cards, when those are
    known: dealt in the record, or all nine played. (Holding 6 to 10 of a suit, the fifty is
    7-8-9-10, not 6-7-8-9.) With fewer cards known the claim cannot be judged."""
    for n, r in enumerate(rec.runs):
        if hand_masks is not None:
            held = hand_masks[r.seat]
        elif len(played.plays[r.seat]) == 9:
            held = played.masks[r.seat]
        else:
            continue
        s = r.suit.index
        if (r.kind.length, int(r.top) - 6) in _bits.RUNS9[held >> 9 * s & 511]:
            continue
        try:
            check_claims(_bits.cards_of(held), (r.run,), who=f"seat {r.seat}")
        except InvalidEntry as exc:
            raise _bad(str(exc), f"runs.{n}", "run_not_held") from None


def trick_leaders(record: TrickRecord) -> tuple[int, ...]:
    """The leader of each trick in the record (checks the record).

    >>> from scoring.engine.cards import parse_cards
    >>> trick_leaders(TrickRecord(dealer=0, caller=1, trump=Suit.SPADES,
    ...                           tricks=(parse_cards("AH 6S KH QH"), parse_cards("9C"))))
    (1, 2)
    """
    return tuple(leader for leader, _ in compile_record(record).tricks)


def won_card_points(comp: Compiled) -> tuple[int, int]:
    """Card points won in complete tricks, +10 for the ninth trick's winner."""
    pts = [0, 0]
    table = _bits.POINTS[comp.trump]
    # Only complete tricks have a winner: the cards zipped with one are four.
    for (_, (a, b, c, d)), win in zip(comp.tricks, comp.winners, strict=False):
        pts[win & 1] += table[a] + table[b] + table[c] + table[d]
    if len(comp.winners) == 9:
        pts[comp.winners[8] & 1] += 10
    return pts[0], pts[1]


def score_tricks(ruleset: Ruleset, record: TrickRecord) -> HandResult:
    """Score a hand from its trick record.

    The record must be complete (nine tricks of four cards), or thrown in before the end: a
    record of nine tricks marked thrown in is refused (``thrown_in_played_out``).

    >>> from scoring.engine.cards import DECK
    >>> from scoring.engine.dealing import deal
    >>> from scoring.engine.simulate import simulate_hand
    >>> import random
    >>> sim = simulate_hand(Ruleset(), random.Random(4), dealer=0)
    >>> score_tricks(Ruleset(), sim.record) == sim.result
    True
    """
    comp = compile_record(record)
    if record.caller is None:
        if not ruleset.dealer_may_pass:
            raise _bad(
                "every hand needs a caller: under this ruleset the dealer cannot pass",
                "caller",
                "caller_required",
            )
        return settle(ruleset, dealer=record.dealer, caller=None, trump=None, card_points=(0, 0))
    if record.trump is None and not ruleset.no_trump_allowed:
        raise _bad(
            "a trump suit is needed: no trump is not allowed under this ruleset",
            "trump",
            "no_trump_not_allowed",
        )
    if record.thrown_in_by is None and len(comp.winners) != 9:  # not nine full tricks
        raise _bad(
            f"the record has {len(comp.winners)} complete tricks: a hand that was not "
            "thrown in has nine",
            "tricks",
            "record_incomplete",
        )
    return settle(
        ruleset,
        dealer=record.dealer,
        caller=record.caller,
        trump=record.trump,
        card_points=won_card_points(comp),
        runs=record.runs,
        bella_seat=record.bella_seat,
        thrown_in_by=record.thrown_in_by,
    )
