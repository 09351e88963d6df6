"""The SVG drawings: well-formed, every match and hand drawn once, every text escaped."""

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.charts import (
    ChartHand,
    RatingPoint,
    nice_step,
    num,
    rating_history_svg,
    running_score_svg,
)
from tournaments.algorithms.bracket import bracket_document, resolve
from tournaments.algorithms.elimination import double_elimination, single_elimination
from tournaments.charts import MatchExtra, bracket_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own markup


def test_running_score_marks_baits_on_the_calling_team():
    hands = [
        ChartHand(1, (100, 62), "made", 0),
        ChartHand(2, (262, 62), "bait", 1),
        ChartHand(3, (262, 143), "half_bait", 0),
    ]
    root = parse(running_score_svg(hands, target=500, team_names=("A <&> B", "C & D")))
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("class") for line in lines] == ["team-line t0", "team-line t1"]
    # each line starts at 0 and has one point per hand
    assert all(len(line.get("points", "").split()) == 4 for line in lines)
    marks = root.findall(f"{SVG}circle")
    assert [m.get("class") for m in marks] == ["mark bait", "mark half_bait"]
    # the bait sits on team B's line (team B called), the half-bait on team A's
    assert "C &amp; D" in running_score_svg(hands, target=500, team_names=("A <&> B", "C & D"))
    assert marks[0].findtext(f"{SVG}title") == "Hand 2: Bait (C & D)"
    assert marks[1].findtext(f"{SVG}title") == "Hand 3: Half-bait (A <&> B)"


def test_running_score_without_hands_still_draws_the_target():
    root = parse(running_score_svg([], target=500, team_names=("A", "B")))
    assert any("Target 500" in "".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_rating_history_draws_every_point():
    points = [RatingPoint("1 May", 20.0), RatingPoint("8 May", 22.5), RatingPoint("9 May", 21.0)]
    root = parse(rating_history_svg(points))
    assert len(root.findall(f"{SVG}circle")) == 3
    assert "No rated matches yet" in rating_history_svg([])


def test_numbers_and_steps():
    assert (num(12.0), num(3.25), num(-0.04)) == ("12", "3.2", "0")
    assert (nice_step(500), nice_step(37), nice_step(0)) == (100, 10, 1)


@settings(max_examples=40, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=40),
    double=st.booleans(),
    data=st.data(),
)
def test_every_bracket_is_drawn_whole(teams, double, data):
    entries = list(range(1, teams + 1))
    bracket = double_elimination(entries) if double else single_elimination(entries)
    # play some ready matches with random winners
    results: dict[str, int] = {}
    for _ in range(data.draw(st.integers(min_value=0, max_value=teams))):
        ready = resolve(bracket, results).with_status("ready")
        if not ready:
            break
        results[ready[0]] = data.draw(st.sampled_from([0, 1]))
    document = bracket_document(bracket, results)
    followed = data.draw(st.sampled_from(entries))
    names = {e: f"Team <{e}> & co" for e in entries}
    extras = {
        m.key: MatchExtra(url=f"/matches/{i}/", scores=("1", "0"))
        for i, m in enumerate(bracket.matches)
    }
    root = parse(bracket_svg(document, names=names, extras=extras, highlight=followed))
    drawn = [g.get("data-match", "") for g in root.iter(f"{SVG}g")]
    assert sorted(drawn) == sorted(m.key for m in bracket.matches)
    state = resolve(bracket, results)
    appearances = sum(1 for m in state.matches.values() for entry in m.entries if entry == followed)
    path = [r for r in root.iter(f"{SVG}rect") if "path" in (r.get("class") or "").split()]
    assert len(path) == appearances
    assert all(r.get("data-entry") == str(followed) for r in path)
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    for group in root.iter(f"{SVG}g"):
        x, y = (float(v) for v in group.get("transform", "")[10:-1].split(","))
        assert 0 <= x < width
        assert 0 <= y < height


SAME = "Alphonse Poirier & Marie MacLellan"


def _slots(svg: str) -> list[tuple[str, float, float]]:
    """(text as read, slot width, slot height) of every named slot."""
    drawn = []
    for group in parse(svg).iter(f"{SVG}g"):
        rects = group.findall(f"{SVG}rect")
        names = [t for t in group.findall(f"{SVG}text") if t.get("class") == "name"]
        for rect, text in zip(rects, names, strict=False):
            size = (float(rect.get("width", "0")), float(rect.get("height", "0")))
            drawn.append(("".join(text.itertext()), *size))
    return drawn


def test_long_names_are_written_whole_on_two_lines_in_wider_boxes():
    doc = bracket_document(single_elimination([1, 2, 3, 4]), {})
    names = {1: "Les Fifties", 2: f"{SAME} (1)", 3: f"{SAME} (Isle Madame)", 4: f"{SAME} (3)"}
    svg = bracket_svg(doc, names=names)
    drawn = _slots(svg)
    assert {text for text, _, _ in drawn} == set(names.values())  # whole, no "…"
    assert "<title>" not in svg
    assert "<tspan" in svg
    (width,) = {w for _, w, _ in drawn}
    (height,) = {h for _, _, h in drawn}
    assert width > 200
    assert height == 40
    # short names keep the narrow box on one line
    short = bracket_svg(doc, names={1: "Aces", 2: "Kings", 3: "Queens", 4: "Jacks"})
    assert {(w, h) for _, w, h in _slots(short)} == {(200, 24)}
    assert "<tspan" not in short
