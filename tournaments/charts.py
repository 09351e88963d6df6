"""The elimination bracket drawn as SVG, from the bracket document.

Input is the plain document of :func:`tournaments.algorithms.bracket.bracket_document` (sides
hold rounds, rounds hold matches, each match has two slots with a source label and an
occupant) plus what the page knows beside it: the names of the entries and, per match, its
page, its score and whether it is being played. Output is SVG text with everything escaped.

Layout: one column per round. The winners bracket is drawn on top, the losers bracket under
it, the grand final (or third-place match) in a last column. A match sits midway between the
matches of its own side that feed it; a first-round match (or one fed only from the other
side) is stacked in order. Lines join a match to its feeders of the same side; a slot fed from
the other side says so ("Loser W2-3") until its occupant is known.

>>> from tournaments.algorithms.bracket import bracket_document
>>> from tournaments.algorithms.elimination import single_elimination
>>> doc = bracket_document(single_elimination([1, 2, 3]), {"W1-2": 0})
>>> svg = bracket_svg(doc, names={1: "Aces", 2: "Kings", 3: "Queens"}, highlight=2)
>>> "Kings" in svg and "Bye" in svg and 'class="slot path' in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from scoring.charts import attr, num

Translate = Callable[[str], str]

BOX_W = 200
ROW_H = 24
LINE_H = 16
# A name of up to ONE_LINE characters is written on one line. A longer one (teams of one name
# told apart by their community, "… (Chéticamp)") is written on two, broken between words,
# every box of the bracket then a line taller. A box is BOX_W wide, or wider for its longest
# line: CHAR_W a character (the big screen's type, the wider) beside PAD for the margin and
# the score, up to MAX_LINE characters: only beyond them is a line cut short ("…", the whole
# name in a tooltip).
CLIP = 22
ONE_LINE = 28
CHAR_W = 8.5
PAD = 36
MAX_LINE = 32
GAP_Y = 22
COL_GAP = 48


@dataclass(frozen=True, slots=True)
class _Box:
    """The size of every match's box in one bracket: its width and the height of a slot."""

    w: int = BOX_W
    row_h: int = ROW_H

    @property
    def h(self) -> int:
        return 2 * self.row_h

    @property
    def col_w(self) -> int:
        return self.w + COL_GAP


HEAD_H = 44
SIDE_GAP = 40
MARGIN = 10


@dataclass(frozen=True, slots=True)
class MatchExtra:
    """What the page adds to a bracket match: a link, the score per slot, live or not, and
    whether it was decided by forfeit (no score then: the slot that forfeited says so)."""

    url: str | None = None
    scores: tuple[str, str] | None = None
    table: str = ""
    live: bool = False
    forfeit: bool = False


@dataclass(slots=True)
class _Placed:
    match: Mapping[str, Any]
    x: float
    y: float


def _same(text: str) -> str:
    return text


def _feeders(match: Mapping[str, Any], side: str) -> list[str]:
    """Keys of the matches of ``side`` whose winner feeds ``match``."""
    keys = []
    for slot in match["slots"]:
        source = slot["source"]
        if source["kind"] == "winner" and source["match"] and source["match"][0] == side[0].upper():
            keys.append(source["match"])
    return keys


def _layout_side(
    rounds: Sequence[Mapping[str, Any]], side: str, top: float, left: float, box: _Box
) -> tuple[dict[str, _Placed], float]:
    """Place one side's matches; return their positions and the side's height."""
    placed: dict[str, _Placed] = {}
    bottom = top
    for column, rnd in enumerate(rounds):
        x = left + column * box.col_w
        stack = top + HEAD_H
        for match in rnd["matches"]:
            feeders = [placed[k] for k in _feeders(match, side) if k in placed]
            y = sum(p.y for p in feeders) / len(feeders) if feeders else stack
            stack = max(stack, y) + box.h + GAP_Y
            placed[match["key"]] = _Placed(match, x, y)
            bottom = max(bottom, y + box.h)
    return placed, bottom - top


def _bye_slots(document: Mapping[str, Any]) -> dict[str, tuple[bool, ...]]:
    """Per match, which of its slots no entry will ever fill: a bye, the loser of a match
    played against a bye, the winner of a match between two byes. A slot waiting on a match
    still to be played is not one of them, even in a match a bye has already decided."""
    matches = {
        item["key"]: item
        for side in document["sides"]
        for rnd in side["rounds"]
        for item in rnd["matches"]
    }
    byes: dict[str, tuple[bool, ...]] = {}

    def of(key: str) -> tuple[bool, ...]:
        if key not in byes:
            flags = []
            for slot in matches[key]["slots"]:
                source = slot["source"]
                feeder = source.get("match")
                if source["kind"] == "bye":
                    flags.append(True)
                elif source["kind"] in ("winner", "loser") and feeder in matches:
                    empty = of(feeder)
                    flags.append(all(empty) if source["kind"] == "winner" else any(empty))
                else:
                    flags.append(False)
            byes[key] = tuple(flags)
        return byes[key]

    for key in matches:
        of(key)
    return byes


def _slot_text(
    slot: Mapping[str, Any],
    names: Mapping[Any, str],
    translate: Translate,
    *,
    bye: bool = False,
) -> tuple[str, str]:
    """(text, css class) for one slot: its entry, else a bye, else where its entry comes
    from ("Seed 3", "Winner W1-2", "Loser W1-2")."""
    entry = slot.get("entry")
    if entry is not None:
        return names.get(entry) or slot.get("name") or str(entry), "name"
    if bye:
        return translate("Bye"), "bye"
    return source_text(slot["source"], translate), "bye"


def source_text(source: Mapping[str, Any], translate: Translate) -> str:
    """Where a bracket slot's entry comes from, in words: "Seed 3", "Winner W1-2", "Loser
    W1-2" or "Bye" (``source`` as a bracket document or a match's ``home_source`` holds it).

    >>> source_text({"kind": "winner", "match": "L2-1", "seed": None}, str)
    'Winner L2-1'
    """
    kind = source["kind"]
    if kind == "bye":
        return translate("Bye")
    if kind == "seed":
        return f"{translate('Seed')} {source['seed']}"
    word = translate("Winner") if kind == "winner" else translate("Loser")
    return f"{word} {source['match']}"


def _clip(text: str, limit: int = CLIP) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _lines(text: str) -> list[str]:
    """``text`` on one line if it fits ONE_LINE, else on two broken at the space that makes the
    longer line shortest (the first keeps its trailing space, so the text reads whole)."""
    if len(text) <= ONE_LINE:
        return [text]
    spaces = [i for i, char in enumerate(text) if char == " "]
    if not spaces:
        return [text]
    cut = min(spaces, key=lambda i: max(i + 1, len(text) - i - 1))
    return [text[: cut + 1], text[cut + 1 :]]


def _texts(
    document: Mapping[str, Any], names: Mapping[Any, str], translate: Translate
) -> list[str]:
    """What every slot of the bracket says."""
    return [
        _slot_text(slot, names, translate)[0]
        for side in document["sides"]
        for rnd in side["rounds"]
        for match in rnd["matches"]
        for slot in match["slots"]
    ]


def cell_size(
    document: Mapping[str, Any], names: Mapping[Any, str], translate: Translate = _same
) -> tuple[int, int]:
    """How wide a round's column and how high a match's row of the bracket are drawn, in the
    drawing's own units (whose type is 15): a match's box is as wide as its longest name
    needs, and a line taller when a name takes two; each with the gap to the next.

    >>> from tournaments.algorithms.bracket import bracket_document
    >>> from tournaments.algorithms.elimination import single_elimination
    >>> doc = bracket_document(single_elimination([1, 2]), {})
    >>> cell_size(doc, {1: "Aces", 2: "Kings"}), cell_size(doc, {1: "A" * 26, 2: "K"})
    ((248, 70), (305, 70))
    >>> cell_size(doc, {1: "Alphonse Poirier & Marie-Madeleine MacLellan", 2: "K"})
    (297, 102)
    """
    box = _box(_texts(document, names, translate))
    return box.col_w, box.h + GAP_Y


def _box(texts: Sequence[str]) -> _Box:
    """The box every match of a bracket whose names are ``texts`` is drawn in."""
    lines = [line.rstrip() for text in texts for line in _lines(text)]
    longest = min(max((len(line) for line in lines), default=0), MAX_LINE)
    return _Box(
        w=max(BOX_W, PAD + math.ceil(CHAR_W * longest)),
        row_h=ROW_H + LINE_H if any(len(text) > ONE_LINE for text in texts) else ROW_H,
    )


def _draw_match(
    placed: _Placed,
    names: Mapping[Any, str],
    extra: MatchExtra | None,
    highlight: object | None,
    translate: Translate,
    *,
    byes: Sequence[bool] = (),
    box: _Box = _Box(),
) -> str:
    match = placed.match
    wider = max(0, int((box.w - PAD) / CHAR_W) - CLIP)  # the characters beyond CLIP it holds
    x, y = placed.x, placed.y
    live = extra is not None and extra.live
    classes = ["match", str(match["status"])]
    if live:
        classes.append("live")
    parts = [
        (
            f'<g class="{attr(" ".join(classes))}" data-match="{attr(match["key"])}" '
            f'transform="translate({num(x)},{num(y)})">'
        )
    ]
    # the label above the box says its key, table and forfeit: no title repeats it
    forfeit = extra is not None and extra.forfeit
    for index, slot in enumerate(match["slots"]):
        bye = index < len(byes) and byes[index]
        text, css = _slot_text(slot, names, translate, bye=bye)
        entry = slot.get("entry")
        slot_classes = ["slot"]
        if match.get("winner_slot") == index:
            slot_classes.append("win")
        if highlight is not None and entry == highlight:
            slot_classes.append("path")
        data = f' data-entry="{attr(entry)}"' if entry is not None else ""
        sy = index * box.row_h
        forfeited = forfeit and match.get("winner_slot") not in (None, index)
        limit = (14 if forfeited else CLIP) + wider
        lines = _lines(text) if box.row_h > ROW_H else [text]
        lines = [_clip(line.rstrip(), limit) + line[len(line.rstrip()) :] for line in lines]
        shown = "".join(lines)
        written = escape(lines[0]) + "".join(
            f'<tspan x="6" dy="{LINE_H}">{escape(line)}</tspan>' for line in lines[1:]
        )
        parts.append(
            f'<rect class="{" ".join(slot_classes)}"{data} x="0" y="{sy}" width="{box.w}" '
            f'height="{box.row_h}" rx="3"/>'
            f'<text class="{css}" x="6" y="{sy + 16}">{written}'
            + (f"<title>{escape(text)}</title>" if shown != text else "")
            + "</text>"
        )
        if forfeited:
            parts.append(
                f'<text class="score forfeit" x="{box.w - 6}" y="{sy + 16}" text-anchor="end">'
                f"{escape(translate('forfeit'))}</text>"
            )
        elif extra is not None and extra.scores is not None and not forfeit:
            parts.append(
                f'<text class="score" x="{box.w - 6}" y="{sy + 16}" text-anchor="end">'
                f"{escape(extra.scores[index])}</text>"
            )
    parts.append(
        f'<text class="label" x="0" y="-3">{escape(str(match["key"]))}'
        + (
            f" · {escape(translate('Table'))} {escape(extra.table)}"
            if extra and extra.table
            else ""
        )
        + (f" · {escape(translate('forfeit'))}" if forfeit else "")
        + "</text>"
    )
    parts.append("</g>")
    body = "".join(parts)
    if extra is not None and extra.url:
        return f'<a href="{attr(extra.url)}">{body}</a>'
    return body


def _link(source: _Placed, target: _Placed, slot: int, box: _Box) -> str:
    x1 = source.x + box.w
    y1 = source.y + box.row_h
    x2 = target.x
    y2 = target.y + box.row_h * slot + box.row_h / 2
    mid = x1 + (x2 - x1) / 2
    return f'<path class="link" d="M{num(x1)} {num(y1)}H{num(mid)}V{num(y2)}H{num(x2)}"/>'


def bracket_svg(
    document: Mapping[str, Any],
    *,
    names: Mapping[Any, str],
    extras: Mapping[str, MatchExtra] | None = None,
    highlight: object | None = None,
    translate: Translate = _same,
    keys: Collection[str] | None = None,
) -> str:
    """The bracket as one SVG element (see the module docstring for the layout): the
    matches ``keys`` names only, when given (a part of a bracket too tall to read whole:
    :func:`bracket_parts`), the others still read for what the slots say.

    >>> from tournaments.algorithms.bracket import bracket_document
    >>> from tournaments.algorithms.elimination import double_elimination
    >>> doc = bracket_document(double_elimination([1, 2, 3, 4]), {})
    >>> losers = bracket_svg(doc, names={}, keys={"L1-1", "L2-1"})
    >>> 'data-match="L1-1"' in losers, 'data-match="W1-1"' in losers, "Loser W1-1" in losers
    (True, False, True)
    """
    extras = extras or {}
    box = _box(_texts(document, names, translate))
    placed: dict[str, _Placed] = {}
    headings: list[tuple[float, float, str]] = []
    drawn = {
        side["side"]: _only(side["rounds"], keys) if keys is not None else side["rounds"]
        for side in document["sides"]
    }
    top = float(MARGIN)
    width = 0.0
    for side in ("winners", "losers"):
        rounds = drawn.get(side)
        if not rounds:
            continue
        side_placed, height = _layout_side(rounds, side, top, MARGIN, box)
        placed.update(side_placed)
        headings.extend(
            (MARGIN + i * box.col_w, top + 16, translate(str(rnd["name"])))
            for i, rnd in enumerate(rounds)
        )
        width = max(width, MARGIN + len(rounds) * box.col_w)
        top += height + SIDE_GAP
    height_so_far = top - SIDE_GAP
    finals = drawn.get("final", [])
    if finals:
        x = width
        middle = max(MARGIN + HEAD_H, (height_so_far - box.h) / 2)
        for i, rnd in enumerate(finals):
            col_x = x + i * box.col_w
            headings.append((col_x, middle - HEAD_H / 2, translate(str(rnd["name"]))))
            for j, match in enumerate(rnd["matches"]):
                placed[match["key"]] = _Placed(match, col_x, middle + j * (box.h + HEAD_H))
        width = x + len(finals) * box.col_w
        height_so_far = max(height_so_far, middle + box.h + HEAD_H)
    total_w = int(width - COL_GAP + 2 * MARGIN)
    total_h = int(height_so_far + MARGIN)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" viewBox="0 0 {total_w} '
            f'{total_h}" width="{total_w}" height="{total_h}" role="img" '
            f'aria-label="{attr(translate("Bracket"))}">'
        )
    ]
    for hx, hy, text in headings:
        parts.append(
            f'<text class="label" x="{num(hx)}" y="{num(hy)}" font-weight="700">'
            f"{escape(text)}</text>"
        )
    for target in placed.values():
        reset_of = target.match.get("reset_of")
        if reset_of in placed:
            parts.append(_link(placed[reset_of], target, 0, box))
            continue
        for slot, source in enumerate(target.match["slots"]):
            key = source["source"].get("match")
            if source["source"]["kind"] != "winner" or key not in placed:
                continue
            feeder = placed[key]
            if feeder.match["side"] == target.match["side"] or target.match["side"] == "final":
                parts.append(_link(feeder, target, slot, box))
    byes = _bye_slots(document)
    parts.extend(
        _draw_match(
            p, names, extras.get(key), highlight, translate, byes=byes.get(key, ()), box=box
        )
        for key, p in placed.items()
    )
    parts.append("</svg>")
    return "".join(parts)


def _only(rounds: Sequence[Mapping[str, Any]], keys: Collection[str]) -> list[dict[str, Any]]:
    """``rounds`` with the matches ``keys`` names only, and only the rounds left holding one."""
    kept = [{**rnd, "matches": [m for m in rnd["matches"] if m["key"] in keys]} for rnd in rounds]
    return [rnd for rnd in kept if rnd["matches"]]


@dataclass(frozen=True, slots=True)
class Part:
    """A part of a bracket drawn on its own: its side and the keys of its matches."""

    side: str
    keys: frozenset[str]


def bracket_parts(document: Mapping[str, Any], rows: int, columns: int) -> list[Part]:
    """A bracket too big to read whole, in parts, each at most ``rows`` matches high and
    ``columns`` rounds wide (none: it is read whole, its tallest rounds of both sides holding
    no more than ``rows`` matches).

    A double-elimination bracket comes a side at a time; a side with more than ``rows``
    matches in a round comes in parts, one for each match of the last round with as many
    matches as parts are needed (its halves, or its quarters), with the earlier matches that
    feed it; the rounds after those, and the final, come with the winners' side's last part.
    A part more than ``columns`` rounds wide comes in turn as its first rounds and its last.

    >>> from tournaments.algorithms.bracket import bracket_document
    >>> from tournaments.algorithms.elimination import double_elimination, single_elimination
    >>> def sizes(bracket):
    ...     parts = bracket_parts(bracket_document(bracket, {}), 8, 7)
    ...     return [(part.side, len(part.keys)) for part in parts]
    >>> sizes(single_elimination(range(16))), sizes(single_elimination(range(32)))
    ([], [('winners', 15), ('winners', 16)])
    >>> sizes(double_elimination(range(16)))
    [('winners', 17), ('losers', 14)]
    >>> sizes(double_elimination(range(32)))  # the losers' side 8 rounds wide: 4 and 4
    [('winners', 15), ('winners', 18), ('losers', 24), ('losers', 6)]
    """
    sides = {side["side"]: side["rounds"] for side in document["sides"]}
    tallest = {side: _tallest(rounds) for side, rounds in sides.items() if side != "final"}
    if sum(tallest.values()) <= rows:
        return []
    parts = [
        Part(side, keys)
        for side in ("winners", "losers")
        if sides.get(side)
        for keys in _sections(sides[side], side, rows)
    ]
    finals = frozenset(m["key"] for rnd in sides.get("final", []) for m in rnd["matches"])
    last = max(i for i, part in enumerate(parts) if part.side == "winners")
    parts[last] = Part("winners", parts[last].keys | finals)
    narrow: list[Part] = []
    for part in parts:
        drawn = [  # the part's rounds, left to right, the final's last
            frozenset(m["key"] for m in rnd["matches"]) & part.keys
            for side in (part.side, "final")
            for rnd in sides.get(side, [])
        ]
        drawn = [keys for keys in drawn if keys]
        size = math.ceil(len(drawn) / math.ceil(len(drawn) / columns))
        narrow.extend(
            Part(part.side, frozenset().union(*drawn[start : start + size]))
            for start in range(0, len(drawn), size)
        )
    return narrow


def bracket_parts_within(
    document: Mapping[str, Any],
    width: int,
    height: int,
    names: Mapping[Any, str],
    translate: Translate = _same,
) -> list[Part]:
    """:func:`bracket_parts` for a part drawn at most ``width`` by ``height`` of the drawing's
    own units: as many rows of matches and rounds as its boxes let fit (:func:`cell_size`)."""
    column, row = cell_size(document, names, translate)
    return bracket_parts(document, (height - HEAD_H - 2 * MARGIN) // row, width // column)


def _tallest(rounds: Sequence[Mapping[str, Any]]) -> int:
    return max((len(rnd["matches"]) for rnd in rounds), default=0)


def _sections(rounds: Sequence[Mapping[str, Any]], side: str, most: int) -> list[frozenset[str]]:
    """One side's parts: the whole side, or the matches feeding each match of the last round
    with as many matches as parts are needed, the rounds after it with the last part."""
    everything = [m for rnd in rounds for m in rnd["matches"]]
    needed = math.ceil(_tallest(rounds) / most)
    if needed <= 1:
        return [frozenset(m["key"] for m in everything)]
    by_key = {m["key"]: m for m in everything}
    # the last round with as many matches as parts are needed: each part's rounds then hold
    # at most ``most`` matches (rounds halve: 16, 8, 4, 2)
    index = max(i for i, rnd in enumerate(rounds) if len(rnd["matches"]) >= needed)

    def fed(key: str) -> set[str]:
        found = {key}
        for feeder in _feeders(by_key[key], side):
            if feeder in by_key:
                found |= fed(feeder)
        return found

    sections = [frozenset(fed(root["key"])) for root in rounds[index]["matches"]]
    later = frozenset(m["key"] for rnd in rounds[index + 1 :] for m in rnd["matches"])
    return [*sections[:-1], sections[-1] | later]
