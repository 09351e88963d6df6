"""Runs given as how many twenties and fifties each player showed (``run_counts``): who counts
them, what counts cannot tell, and how each player's counts are checked."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    DECK,
    HandSummary,
    InvalidEntry,
    MisplayCall,
    Outcome,
    Rank,
    Ruleset,
    RunShown,
    Suit,
    check_run_count,
    find_runs,
    run_counts_counted,
    runs_counted,
    score_summary,
)
from scoring.engine.runs import RunKind

STD = Ruleset()
TEAM = Ruleset(runs_count_for_team=True)
NONE = ((0, 0), (0, 0), (0, 0), (0, 0))


def counts(**by_seat: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """``counts(s0=(0, 1), s2=(1, 0))``: (twenties, fifties) per seat, none elsewhere."""
    return tuple(by_seat.get(f"s{seat}", (0, 0)) for seat in range(4))


def line(**kw: Any) -> HandSummary:
    base: dict[str, Any] = {"dealer": 3, "caller": 0, "trump": Suit.HEARTS, "card_points": (92, 70)}
    base.update(kw)
    return HandSummary(**base)


def test_only_the_player_with_the_best_run_counts_their_runs():
    # Shirley (seat 0) a fifty, her partner Murdock (seat 2) a twenty: Shirley counts her fifty
    r = score_summary(STD, line(run_counts=counts(s0=(0, 1), s2=(1, 0))))
    assert (r.run_points, r.runs_counted_by) == ((50, 0), 0)
    assert (r.hand_total, r.points) == (212, (142, 70))


def test_that_player_counts_all_of_their_runs():
    r = score_summary(STD, line(run_counts=counts(s1=(1, 1), s0=(2, 0))))
    assert (r.run_points, r.runs_counted_by) == ((0, 70), 1)


def test_with_the_team_switch_the_partners_runs_count_too():
    r = score_summary(TEAM, line(run_counts=counts(s0=(0, 1), s2=(1, 0), s1=(1, 0))))
    assert (r.run_points, r.runs_counted_by) == ((70, 0), 0)


def test_runs_on_both_teams_are_worked_out_when_a_fifty_beats_the_twenties():
    r = score_summary(STD, line(run_counts=counts(s0=(2, 0), s3=(0, 1))))
    assert (r.run_points, r.runs_counted_by) == ((0, 50), 3)


@pytest.mark.parametrize("ruleset", [STD, TEAM])
@pytest.mark.parametrize(
    ("given", "seats"),
    [
        (counts(s0=(0, 1), s1=(1, 1)), "seat 0 and seat 1 each show a fifty"),
        (counts(s1=(1, 0), s3=(2, 0)), "seat 1 and seat 3 each show a twenty"),
        (counts(s0=(0, 1), s2=(0, 1)), "seat 0 and seat 2 each show a fifty"),
        (counts(s0=(1, 0), s1=(1, 0), s2=(1, 0)), "seat 0, seat 1 and seat 2 each show"),
    ],
)
def test_counts_that_cannot_tell_who_counts_are_refused_saying_what_to_give(ruleset, given, seats):
    with pytest.raises(InvalidEntry) as info:
        score_summary(ruleset, line(run_counts=given))
    message = str(info.value)
    assert (info.value.code, info.value.field) == ("runs_undecided", "run_counts")
    assert seats in message
    assert "the runs with their suits and top cards" in message
    assert "the run points the team counted" in message


def test_partners_runs_of_one_kind_may_cancel_so_counts_cannot_tell():
    with pytest.raises(InvalidEntry, match="even between partners"):
        score_summary(TEAM, line(run_counts=counts(s0=(0, 1), s2=(0, 1))))


def test_a_refusal_names_the_players_when_given_their_names():
    names = ["Shirley", "Angus", "Murdock", "Joe"]
    with pytest.raises(InvalidEntry, match=r"^Shirley and Angus each show a fifty"):
        run_counts_counted(counts(s0=(0, 1), s1=(0, 1)), names=names)


@pytest.mark.parametrize(
    ("given", "field", "message"),
    [
        (
            counts(s2=(4, 0)),
            "run_counts.2.twenties",
            "seat 2 cannot show 4 twenties: nine cards hold at most 3",
        ),
        (
            counts(s0=(0, 3)),
            "run_counts.0.fifties",
            "seat 0 cannot show 3 fifties: nine cards hold at most 2",
        ),
        (
            counts(s1=(2, 1)),
            "run_counts.1",
            "seat 1 cannot show 2 twenties and a fifty: that is 10 cards in runs",
        ),
        (
            counts(s3=(1, 2)),
            "run_counts.3",
            "seat 3 cannot show a twenty and 2 fifties: that is 11 cards in runs",
        ),
        (counts(s0=(-1, 0)), "run_counts.0.twenties", "seat 0's twenties must be a whole number"),
    ],
)
def test_each_players_counts_are_checked_naming_the_player(given, field, message):
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(run_counts=given))
    assert info.value.field == field
    assert message in str(info.value)


def allowed(check: Any) -> bool:
    try:
        check()
    except InvalidEntry:
        return False
    return True


def test_what_nine_cards_hold_is_what_the_run_point_check_allows():
    from_counts = {
        20 * t + 50 * f
        for t in range(5)
        for f in range(4)
        if allowed(lambda t=t, f=f: check_run_count(t, f, who="seat 0", field="run_counts.0"))
    }
    from_points = {
        p
        for p in range(0, 300, 10)
        if allowed(lambda p=p: score_summary(STD, line(run_points=(p, 0))))
    }
    assert from_counts == from_points


@pytest.mark.parametrize(
    ("more", "field"),
    [
        ({"run_points": (50, 0)}, "run_counts"),
        ({"runs": (RunShown(0, RunKind.FIFTY, Suit.CLUBS, Rank.TEN),)}, "run_counts"),
    ],
)
def test_runs_are_given_one_way_only(more, field):
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(run_counts=counts(s0=(0, 1)), **more))
    assert (info.value.code, info.value.field) == ("runs_twice", field)


def test_a_void_hand_has_no_runs_but_may_send_an_empty_grid():
    kitchen = Ruleset(dealer_may_pass=True)
    void = {"caller": None, "trump": None, "card_points": None}
    assert score_summary(kitchen, line(**void, run_counts=NONE)).outcome is Outcome.VOID
    with pytest.raises(InvalidEntry) as info:
        score_summary(kitchen, line(**void, run_counts=counts(s0=(1, 0))))
    assert (info.value.code, info.value.field) == ("void_hand", "run_counts")


def test_runs_counted_go_with_a_misplay_and_stay_on_a_throw_in():
    given = counts(s1=(0, 1))
    call = MisplayCall(called_by=0, proven=True)
    r = score_summary(STD, line(card_points=None, misplay=call, run_counts=given))
    assert (r.outcome, r.points) == (Outcome.MISPLAY_PROVEN, (212, 0))
    thrown = score_summary(STD, line(card_points=(40, 20), thrown_in_by=0, run_counts=given))
    assert (thrown.run_points, thrown.points, thrown.runs_counted_by) == ((0, 50), (0, 212), 1)


def test_run_counts_as_json():
    data = {
        "dealer": 3,
        "caller": 0,
        "trump": "H",
        "card_points": [92, 70],
        "run_counts": [{"fifties": 1}, {}, {"twenties": 1, "fifties": 0}, {"twenties": 0}],
    }
    s = HandSummary.from_json(data)
    assert s.run_counts == counts(s0=(0, 1), s2=(1, 0))
    assert HandSummary.from_json(s.to_json()) == s
    assert "run_counts" not in line().to_json()


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ([{}, {}, {}], "run_counts"),
        ("fifty", "run_counts"),
        ([{}, {"twenties": "2"}, {}, {}], "run_counts.1.twenties"),
        ([{}, {}, {"fifties": True}, {}], "run_counts.2.fifties"),
        ([{}, {}, {}, {"sixties": 1}], "run_counts.3.sixties"),
        ([{}, {}, {}, [1, 0]], "run_counts.3"),
    ],
)
def test_run_counts_json_errors_name_the_field(value, field):
    data = {"dealer": 0, "caller": 0, "trump": "H", "card_points": [81, 81], "run_counts": value}
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(data)
    assert info.value.field == field


# ---------------------------------------------------------------- counts agree with the runs


@st.composite
def shown_runs(draw: Any) -> tuple[RunShown, ...]:
    """The runs shown from a random deal: each player shows some of the runs they hold."""
    deck = draw(st.permutations(DECK))
    return tuple(
        RunShown.of(seat, run)
        for seat in range(4)
        for run in find_runs(deck[9 * seat : 9 * seat + 9])
        if draw(st.booleans())
    )


@given(
    shown_runs(),
    st.sampled_from(list(Suit)),
    st.booleans(),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_where_counts_decide_they_score_as_the_runs_themselves(
    shown, trump, for_team, caller, thrown
):
    ruleset = Ruleset(runs_count_for_team=for_team)
    by_seat = [[0, 0] for _ in range(4)]
    for r in shown:
        by_seat[r.seat][0 if r.kind is RunKind.TWENTY else 1] += 1
    given = tuple((t, f) for t, f in by_seat)
    try:
        run_counts_counted(given)
    except InvalidEntry:
        # counts cannot tell: two players' best runs are of one kind
        best = max(r.kind.length for r in shown)
        assert len({r.seat for r in shown if r.kind.length == best}) > 1
        return
    base: dict[str, Any] = {"dealer": 3, "caller": caller, "trump": trump}
    for extra in ({"card_points": (92, 70)}, {"card_points": (40, 32), "thrown_in_by": thrown}):
        with_runs = score_summary(ruleset, HandSummary(**base, **extra, runs=shown))
        with_counts = score_summary(ruleset, HandSummary(**base, **extra, run_counts=given))
        assert with_counts.points == with_runs.points
        assert with_counts.run_points == with_runs.run_points
        assert with_counts.outcome is with_runs.outcome
        assert with_counts.runs_counted_by == with_runs.runs_counted_by
    assert runs_counted(shown, trump, for_team=for_team)[0] == with_counts.runs_counted_by
