"""Scoring a score-sheet line: made, half-bait, bait, void, misplay, thrown in; validation."""

from typing import Any

import pytest

from scoring.engine import (
    HandResult,
    HandSummary,
    InvalidEntry,
    MisplayCall,
    Outcome,
    Rank,
    Ruleset,
    RunKind,
    RunShown,
    Suit,
    derive_card_points,
    score_summary,
)

STD = Ruleset()
H = Suit.HEARTS


def line(**kw: Any) -> HandSummary:
    base: dict[str, Any] = {"dealer": 3, "caller": 0, "trump": H, "card_points": (100, 62)}
    base.update(kw)
    return HandSummary(**base)


def test_made_both_teams_score_what_they_took():
    r = score_summary(STD, line(card_points=(82, 80)))  # 82 of 162 is "one more than half"
    assert r.outcome is Outcome.MADE
    assert r.points == (82, 80)
    assert r.hand_total == 162
    assert r.calling_team == 0
    assert r.caller == 0


def test_half_bait_calling_team_zero_other_keeps_its_half():
    # seed 000: "if a team calls trump and collects 81 points out of 162, they get no points
    # and the opponent gets 81 points"
    r = score_summary(STD, line(card_points=(81, 81)))
    assert r.outcome is Outcome.HALF_BAIT
    assert r.points == (0, 81)


def test_half_bait_is_whole_bait_switch():
    r = score_summary(Ruleset(half_bait_is_whole_bait=True), line(card_points=(81, 81)))
    assert r.outcome is Outcome.BAIT
    assert r.points == (0, 162)


def test_bait_other_team_scores_the_hands_total():
    r = score_summary(STD, line(caller=1, card_points=(90, 72)))
    assert r.outcome is Outcome.BAIT
    assert r.points == (162, 0)
    assert r.taken == (90, 72)


def test_runs_and_bella_raise_the_hands_total():
    # seed 002 quick reference: one three-card run -> 182; one four-card run + bells -> 232
    r = score_summary(STD, line(runs=(RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.EIGHT),)))
    assert r.hand_total == 182
    assert r.run_points == (20, 0)
    r = score_summary(
        STD,
        line(runs=(RunShown(1, RunKind.FIFTY, Suit.CLUBS, Rank.NINE),), bella_seat=3),
    )
    assert r.hand_total == 232
    assert r.taken == (100, 62 + 50 + 20)
    assert r.bella_points == (0, 20)
    assert r.runs_counted_by == 1


def test_maximum_282_two_fifties_and_bella():
    r = score_summary(
        STD,
        line(
            runs=(
                RunShown(2, RunKind.FIFTY, Suit.CLUBS, Rank.ACE),
                RunShown(2, RunKind.FIFTY, Suit.CLUBS, Rank.TEN),
            ),
            bella_seat=0,
        ),
    )
    assert r.hand_total == 282
    assert r.points == (100 + 100 + 20, 62)


def test_runs_make_the_difference_between_made_and_bait():
    # calling team has 90 card points, opponents show a fifty: 90 of 212 is bait
    r = score_summary(
        STD, line(card_points=(90, 72), runs=(RunShown(1, RunKind.FIFTY, Suit.SPADES, Rank.ACE),))
    )
    assert r.outcome is Outcome.BAIT
    assert r.points == (0, 212)


def test_equal_plain_runs_cancel_in_scoring():
    r = score_summary(
        STD,
        line(
            runs=(
                RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.KING),
                RunShown(1, RunKind.TWENTY, Suit.SPADES, Rank.KING),
            )
        ),
    )
    assert r.run_points == (0, 0)
    assert r.runs_counted_by is None
    assert r.hand_total == 162


def test_run_points_given_as_totals():
    r = score_summary(STD, line(run_points=(0, 70)))
    assert r.run_points == (0, 70)
    assert r.hand_total == 232


@pytest.mark.parametrize(
    ("kw", "field", "code"),
    [
        ({"card_points": (161, 1)}, "card_points.0", "card_points_impossible"),
        ({"card_points": (1, 161)}, "card_points.0", "card_points_impossible"),
        ({"card_points": (100, 61)}, "card_points", "card_points_sum"),
        ({"card_points": (-2, 164)}, "card_points.0", "card_points_impossible"),
        ({"card_points": None}, "card_points", "missing_field"),
        ({"trump": None, "card_points": (70, 60)}, "trump", "no_trump_not_allowed"),
        ({"caller": None, "trump": None, "card_points": None}, "caller", "caller_required"),
        ({"run_points": (30, 0)}, "run_points.0", "run_points_impossible"),
        ({"run_points": (20, 20)}, "run_points", "run_points_impossible"),
        ({"run_points": (120, 0)}, "run_points.0", "run_points_impossible"),
        (
            {"run_points": (20, 0), "runs": (RunShown(0, RunKind.TWENTY, H, Rank.EIGHT),)},
            "run_points",
            "runs_twice",
        ),
        (
            {
                "runs": (
                    RunShown(2, RunKind.TWENTY, H, Rank.KING),
                    RunShown(2, RunKind.FIFTY, H, Rank.KING),
                )
            },
            "runs.1",
            "run_impossible",
        ),
        (
            {"bella_seat": 1, "runs": (RunShown(0, RunKind.TWENTY, H, Rank.KING),)},
            "bella_seat",
            "bella_impossible",
        ),
        (
            {"misplay": MisplayCall(1, True), "thrown_in_by": 2},
            "thrown_in_by",
            "misplay_and_thrown_in",
        ),
    ],
)
def test_impossible_entries_are_rejected_naming_the_field(kw, field, code):
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(**kw))
    assert (info.value.field, info.value.code) == (field, code)


def test_161_message():
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(card_points=(161, 1)))
    assert str(info.value) == "card points 161 are impossible: no card is worth 1"


def test_no_trump_switch_130_points_no_bella():
    nt = Ruleset(no_trump_allowed=True)
    r = score_summary(nt, line(trump=None, card_points=(70, 60)))
    assert r.outcome is Outcome.MADE
    assert r.hand_total == 130
    assert r.trump is None
    assert score_summary(nt, line(trump=None, card_points=(65, 65))).outcome is Outcome.HALF_BAIT
    for bad in ((129, 1), (70, 92)):
        with pytest.raises(InvalidEntry):
            score_summary(nt, line(trump=None, card_points=bad))
    with pytest.raises(InvalidEntry) as info:
        score_summary(nt, line(trump=None, card_points=(70, 60), bella_seat=0))
    assert info.value.code == "no_bella"


def test_void_hand_under_dealer_may_pass():
    r = score_summary(
        Ruleset(dealer_may_pass=True),
        HandSummary(dealer=2, caller=None, trump=None, card_points=None),
    )
    assert r.outcome is Outcome.VOID
    assert r.points == (0, 0)
    assert r.dealer == 2
    with pytest.raises(InvalidEntry) as info:
        score_summary(
            Ruleset(dealer_may_pass=True),
            HandSummary(dealer=2, caller=None, trump=H, card_points=None),
        )
    assert info.value.field == "trump"
    with pytest.raises(InvalidEntry) as info:
        score_summary(
            Ruleset(dealer_may_pass=True),
            HandSummary(dealer=2, caller=None, trump=None, card_points=None, bella_seat=1),
        )
    assert (info.value.field, str(info.value)) == (
        "bella_seat",
        "a void hand (all passed) has no bella",
    )


def test_misplay_proven_calling_team_scores_whole_hand():
    s = line(
        card_points=None,
        misplay=MisplayCall(called_by=1, proven=True),
        runs=(RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.ACE),),
        bella_seat=2,
    )
    r = score_summary(STD, s)
    assert r.outcome is Outcome.MISPLAY_PROVEN
    assert r.points == (0, 162 + 20 + 20)
    assert r.misplay_by == 1
    r = score_summary(STD, line(card_points=None, misplay=MisplayCall(called_by=1, proven=False)))
    assert r.outcome is Outcome.MISPLAY_NOT_PROVEN
    assert r.points == (162, 0)


def test_a_misplay_line_takes_the_card_points_counted_when_the_hand_stopped():
    stopped = line(card_points=(40, 30), misplay=MisplayCall(called_by=1, proven=True))
    assert score_summary(STD, stopped).points == (0, 162)  # the whole hand, as without them
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(card_points=(100, 70), misplay=MisplayCall(1, True)))
    assert (info.value.field, str(info.value)) == (
        "card_points",
        "card points 100 and 70 add up to 170: a hand has only 162",
    )
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(card_points=(40, 1), misplay=MisplayCall(1, False)))
    assert info.value.field == "card_points.1"


def test_thrown_in_other_team_takes_what_was_not_yet_won():
    # team 1 (seat 3) throws in after team 0 won 40, team 1 won 30: team 0 gets the other 92
    r = score_summary(STD, line(caller=0, card_points=(40, 30), thrown_in_by=3))
    assert r.outcome is Outcome.THROWN_IN
    assert r.call_outcome is Outcome.MADE
    assert r.card_points == (132, 30)
    assert r.points == (132, 30)
    # the calling team throws in: the rest goes to the opponents, and the caller is bait
    r = score_summary(
        STD,
        line(
            caller=0,
            card_points=(40, 30),
            thrown_in_by=2,
            runs=(RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.ACE),),
        ),
    )
    assert r.card_points == (40, 122)
    assert r.run_points == (20, 0)
    assert r.call_outcome is Outcome.BAIT
    assert r.points == (0, 182)
    with pytest.raises(InvalidEntry):  # 155 already won: the last 10 cannot be
        score_summary(STD, line(card_points=(100, 55), thrown_in_by=1))
    with pytest.raises(InvalidEntry):  # leaves cards worth 1
        score_summary(STD, line(card_points=(100, 51), thrown_in_by=1))


def test_derive_card_points():
    assert derive_card_points(0, 92) == (92, 70)
    assert derive_card_points(1, 0) == (162, 0)
    assert derive_card_points(1, 60, trump_is_none=True) == (70, 60)
    for bad in (1, 161, 163, -1):
        with pytest.raises(InvalidEntry) as info:
            derive_card_points(0, bad)
        assert info.value.field == "card_points"
    with pytest.raises(InvalidEntry):
        derive_card_points(2, 80)


def test_summary_and_result_json_round_trip():
    s = line(runs=(RunShown(0, RunKind.TWENTY, Suit.CLUBS, Rank.ACE),), bella_seat=2, misplay=None)
    assert HandSummary.from_json(s.to_json()) == s
    m = line(card_points=None, misplay=MisplayCall(3, False))
    assert HandSummary.from_json(m.to_json()) == m
    r = score_summary(STD, s)
    assert HandResult.from_json(r.to_json()) == r


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"dealer": 5, "caller": 0, "trump": "H", "card_points": [81, 81]}, "dealer"),
        ({"dealer": 0, "caller": 0, "trump": "H", "card_points": [81]}, "card_points"),
        (
            {"dealer": 0, "caller": 0, "trump": "H", "card_points": [81, 81], "runs": [{}]},
            "runs.0.seat",
        ),
        ({"dealer": 0, "caller": 0, "trump": "H", "card_points": [81, 81], "bogus": 1}, "bogus"),
        (
            {
                "dealer": 0,
                "caller": 0,
                "trump": "H",
                "card_points": [81, 81],
                "misplay": {"called_by": 1},
            },
            "misplay.proven",
        ),
    ],
)
def test_summary_json_errors_name_the_field(data, field):
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(data)
    assert info.value.field == field


def test_runs_count_for_team_switch_in_scoring():
    runs = (
        RunShown(0, RunKind.FIFTY, Suit.CLUBS, Rank.ACE),
        RunShown(2, RunKind.TWENTY, Suit.SPADES, Rank.EIGHT),
        RunShown(1, RunKind.TWENTY, Suit.DIAMONDS, Rank.KING),
    )
    assert score_summary(STD, line(runs=runs)).run_points == (50, 0)
    team = score_summary(Ruleset(runs_count_for_team=True), line(runs=runs))
    assert team.run_points == (70, 0)
    assert team.hand_total == 232
    # two players' runs can add up beyond what one player can hold
    assert score_summary(Ruleset(runs_count_for_team=True), line(run_points=(150, 0))).hand_total
    with pytest.raises(InvalidEntry):
        score_summary(STD, line(run_points=(150, 0)))


@pytest.mark.parametrize(
    ("kind", "top"),
    [
        (RunKind.TWENTY, Rank.QUEEN),
        (RunKind.FIFTY, Rank.QUEEN),
        (RunKind.TWENTY, Rank.KING),
        (RunKind.TWENTY, Rank.ACE),
        (RunKind.FIFTY, Rank.ACE),
    ],
)
def test_bella_impossible_when_another_player_showed_king_or_queen_of_trump(kind, top):
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(bella_seat=1, runs=(RunShown(0, kind, H, top),)))
    assert info.value.code == "bella_impossible"
    # the same run shown by the bella player is fine (bella with the run)
    assert score_summary(STD, line(bella_seat=0, runs=(RunShown(0, kind, H, top),))).bella_points


def test_bella_possible_beside_a_run_without_king_or_queen():
    r = score_summary(STD, line(bella_seat=1, runs=(RunShown(0, RunKind.FIFTY, H, Rank.JACK),)))
    assert r.bella_points == (0, 20)


@pytest.mark.parametrize("bad", [5, True, 1.5])
def test_result_json_with_runs_counted_not_a_list(bad: object) -> None:
    r = score_summary(STD, line())
    with pytest.raises(InvalidEntry) as info:
        HandResult.from_json(r.to_json() | {"runs_counted": bad})
    assert info.value.field == "runs_counted"


def test_the_score_sheet_may_note_who_made_the_misplay() -> None:
    # RULES.md: a misplay is not cheating; tournament directors still see who made it
    call = MisplayCall(called_by=1, proven=True, accused=2)
    r = score_summary(STD, line(card_points=None, misplay=call))
    assert (r.outcome, r.points, r.misplay_by, r.misplay_accused) == (
        Outcome.MISPLAY_PROVEN,
        (0, 162),
        1,
        2,
    )
    assert HandSummary.from_json(line(card_points=None, misplay=call).to_json()).misplay == call
    assert score_summary(STD, line(misplay=MisplayCall(1, False))).misplay_accused is None
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(card_points=None, misplay=MisplayCall(1, True, accused=3)))
    assert (info.value.code, info.value.field) == ("accused_partner", "misplay.accused")
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(
            line(misplay=MisplayCall(1, True)).to_json()
            | {"misplay": {"called_by": 1, "proven": True, "accused": 4}}
        )
    assert info.value.field == "misplay.accused"


def test_impossible_run_points_are_explained_in_words() -> None:
    with pytest.raises(InvalidEntry) as info:
        score_summary(STD, line(run_points=(30, 0)))
    assert str(info.value) == (
        "run points 30 are impossible: runs are twenties and fifties, and a player's runs "
        "come from nine cards"
    )
    with pytest.raises(InvalidEntry) as info:
        score_summary(Ruleset(runs_count_for_team=True), line(run_points=(0, 210)))
    assert info.value.field == "run_points.1"
    assert str(info.value) == (
        "run points 210 are impossible: runs are twenties and fifties, and a team's runs "
        "come from its two players' cards"
    )


def test_card_points_of_the_wrong_shape_are_named() -> None:
    data = line().to_json() | {"card_points": [80]}
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(data)
    assert (info.value.field, str(info.value)) == (
        "card_points",
        "card points must be two whole numbers, one per team, not [80]",
    )


def test_a_refusal_quotes_a_short_value_and_names_an_object_or_a_long_one() -> None:
    line = {"dealer": 0, "caller": 1, "trump": "H", "card_points": [81, 81]}
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(line | {"caller": {"seat": 0, "name": "Shirley", "side": "team_a"}})
    assert str(info.value) == "caller must be a seat 0 to 3, not an object"
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(line | {"caller": "x" * 60})
    assert str(info.value) == "caller must be a seat 0 to 3, not a long text"
    with pytest.raises(InvalidEntry) as info:
        HandSummary.from_json(line | {"caller": "4"})
    assert str(info.value) == "caller must be a seat 0 to 3, not '4'"
