"""Server-rendered SVG charts for the pages: a game's running scores and a rating history.

Plain functions from plain values to SVG text; no Django, no database. Every piece of text that
goes into the markup is escaped here, so the result can be placed in a page as it is. Words
shown in the chart come from the caller's ``translate`` function (the pages pass ``gettext``).

>>> svg = running_score_svg(
...     [ChartHand(1, (100, 62), "made", 0), ChartHand(2, (100, 224), "bait", 0)],
...     target=500,
...     team_names=("Ann & Bob", "Cy & Di"),
... )
>>> svg.startswith("<svg") and "Ann &amp; Bob" in svg and 'class="mark bait"' in svg
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

Translate = Callable[[str], str]

TEAM_COLOURS = ("#0b5d3b", "#1f4e9c")
OUTCOME_COLOURS = {"bait": "#b3261e", "half_bait": "#b36b00"}


def _same(text: str) -> str:
    return text


def attr(value: object) -> str:
    """A value escaped for a double-quoted attribute."""
    return escape(str(value), quote=True)


def num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros.

    >>> num(12.0), num(3.25), num(-0.04)
    ('12', '3.2', '0')
    """
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2, 5 x 10^k) giving about ``ticks`` gridlines over ``span``.

    >>> nice_step(500), nice_step(37), nice_step(0)
    (100, 10, 1)
    """
    if span <= 0:
        return 1
    raw = span / ticks
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for factor in (1, 2, 5, 10):
        if magnitude * factor >= raw:
            return magnitude * factor
    return magnitude * 10  # pragma: no cover - the loop always returns


@dataclass(frozen=True, slots=True)
class ChartHand:
    """One hand on the chart: its number, the running totals after it, its outcome, and the
    team that called (None for a void hand)."""

    number: int
    running: tuple[int, int]
    outcome: str
    calling_team: int | None


@dataclass(frozen=True, slots=True)
class _Frame:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_max: float
    y_min: float
    y_max: float

    def x(self, value: float) -> float:
        inner = self.width - self.left - self.right
        return self.left + (inner * value / self.x_max if self.x_max else 0)

    def y(self, value: float) -> float:
        inner = self.height - self.top - self.bottom
        span = self.y_max - self.y_min or 1
        return self.top + inner * (1 - (value - self.y_min) / span)


def _grid(frame: _Frame, step: int) -> list[str]:
    parts: list[str] = []
    start = int(frame.y_min // step) * step
    value = start
    while value <= frame.y_max:
        if value >= frame.y_min:
            y = num(frame.y(value))
            parts.append(
                f'<line x1="{frame.left}" x2="{frame.width - frame.right}" y1="{y}" y2="{y}" '
                'stroke="#e6e0d0" stroke-width="1"/>'
                f'<text x="{frame.left - 6}" y="{y}" text-anchor="end" dominant-baseline="middle" '
                f'font-size="12" fill="#5b5b5b">{value}</text>'
            )
        value += step
    return parts


def running_score_svg(
    hands: Sequence[ChartHand],
    *,
    target: int,
    team_names: tuple[str, str],
    translate: Translate = _same,
    width: int = 640,
    height: int = 320,
) -> str:
    """Both teams' running scores hand by hand, the target line, baits and half-baits marked.

    A bait or half-bait is marked on the line of the team that called (the team baited).
    """
    _ = translate
    top_score = max([target, *(max(h.running) for h in hands)]) if hands else target
    frame = _Frame(
        width, height, 48, 16, 16, 36, float(max(len(hands), 1)), 0.0, float(top_score) * 1.05
    )
    title = _("Running score, hand by hand")
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'class="chart running-score" role="img" aria-label="{attr(title)}">'
        ),
        f"<title>{escape(title)}</title>",
        *_grid(frame, nice_step(top_score)),
    ]
    ty = num(frame.y(target))
    parts.append(
        f'<line x1="{frame.left}" x2="{width - frame.right}" y1="{ty}" y2="{ty}" '
        'stroke="#1b1b1b" stroke-dasharray="6 4" stroke-width="1.5"/>'
        f'<text x="{width - frame.right}" y="{num(frame.y(target) - 4)}" text-anchor="end" '
        f'font-size="12">{escape(_("Target"))} {target}</text>'
    )
    # hand numbers along the bottom
    label_every = max(1, len(hands) // 12)
    parts.extend(
        f'<text x="{num(frame.x(h.number))}" y="{height - 18}" text-anchor="middle" '
        f'font-size="12" fill="#5b5b5b">{h.number}</text>'
        for h in hands
        if h.number % label_every == 0 or h.number == len(hands)
    )
    parts.append(
        f'<text x="{num(width / 2)}" y="{height - 3}" text-anchor="middle" font-size="12" '
        f'fill="#5b5b5b">{escape(_("Hand"))}</text>'
    )
    for team in (0, 1):
        points = [(0.0, 0.0)] + [(float(h.number), float(h.running[team])) for h in hands]
        path = " ".join(f"{num(frame.x(x))},{num(frame.y(y))}" for x, y in points)
        parts.append(
            f'<polyline class="team-line t{team}" points="{path}" fill="none" '
            f'stroke="{TEAM_COLOURS[team]}" stroke-width="3" stroke-linejoin="round">'
            f"<title>{escape(team_names[team])}</title></polyline>"
        )
    outcome_words = {"bait": _("Bait"), "half_bait": _("Half-bait")}
    for h in hands:
        if h.outcome not in OUTCOME_COLOURS or h.calling_team is None:
            continue
        cx = num(frame.x(h.number))
        cy = num(frame.y(h.running[h.calling_team]))
        words = f"{_('Hand')} {h.number}: {outcome_words[h.outcome]} ({team_names[h.calling_team]})"
        parts.append(
            f'<circle class="mark {h.outcome}" cx="{cx}" cy="{cy}" r="7" '
            f'fill="{OUTCOME_COLOURS[h.outcome]}" stroke="#fff" stroke-width="2">'
            f"<title>{escape(words)}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One rating on the history chart: a short label (a date) and the value."""

    label: str
    value: float


def rating_history_svg(
    points: Sequence[RatingPoint],
    *,
    translate: Translate = _same,
    width: int = 640,
    height: int = 240,
) -> str:
    """A rating history as a line, first and last labels along the bottom.

    >>> svg = rating_history_svg([RatingPoint("1 May", 25.0), RatingPoint("8 May", 27.5)])
    >>> "<polyline" in svg and "8 May" in svg
    True
    """
    _ = translate
    title = _("Rating history")
    values = [p.value for p in points] or [0.0]
    low, high = min(values), max(values)
    pad = max((high - low) * 0.15, 1.0)
    frame = _Frame(
        width, height, 48, 16, 16, 36, float(max(len(points) - 1, 1)), low - pad, high + pad
    )
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'class="chart rating-history" role="img" aria-label="{attr(title)}">'
        ),
        f"<title>{escape(title)}</title>",
        *_grid(frame, nice_step(frame.y_max - frame.y_min)),
    ]
    if points:
        coords = " ".join(
            f"{num(frame.x(i))},{num(frame.y(p.value))}" for i, p in enumerate(points)
        )
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{TEAM_COLOURS[0]}" '
            'stroke-width="3" stroke-linejoin="round"/>'
        )
        for i, p in enumerate(points):
            parts.append(
                f'<circle cx="{num(frame.x(i))}" cy="{num(frame.y(p.value))}" r="4" '
                f'fill="{TEAM_COLOURS[0]}"><title>{escape(p.label)}: {p.value:.1f}</title></circle>'
            )
        ends = {0: points[0].label, len(points) - 1: points[-1].label}
        for i, label in ends.items():
            anchor = "start" if i == 0 and len(points) > 1 else "end"
            parts.append(
                f'<text x="{num(frame.x(i))}" y="{height - 12}" text-anchor="{anchor}" '
                f'font-size="12" fill="#5b5b5b">{escape(label)}</text>'
            )
    else:
        parts.append(
            f'<text x="{num(width / 2)}" y="{num(height / 2)}" text-anchor="middle" '
            f'fill="#5b5b5b">{escape(_("No rated matches yet"))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
