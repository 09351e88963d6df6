"""Runs: finding, cutting long sequences, ranking, who counts."""

import pytest

from scoring.engine import (
    Card,
    InvalidEntry,
    Rank,
    Run,
    RunKind,
    RunShown,
    Suit,
    best_run,
    find_runs,
    parse_cards,
    run_from_cards,
    runs_counted,
    validate_runs_shown,
)

F, T = RunKind.FIFTY, RunKind.TWENTY
H, S, C, D = Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS


def runs_text(cards: str) -> list[str]:
    return [f"{r.kind.value}:{r.top.text}{r.suit.value}" for r in find_runs(parse_cards(cards))]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("6H 7H 8H", ["twenty:8H"]),  # the Linganer
        ("9C 10C JC", ["twenty:JC"]),  # RULES / seed example
        ("6H 7H 8H 9H", ["fifty:9H"]),
        ("6H 7H 8H 9H 10H", ["fifty:10H"]),  # 5 in a row is one fifty, cut from the top
        ("6H 7H 8H 9H 10H JH", ["fifty:JH"]),  # 6 in a row is one fifty
        ("6H 7H 8H 9H 10H JH QH", ["fifty:QH", "twenty:8H"]),  # 7: a fifty and a twenty
        ("6H 7H 8H 9H 10H JH QH KH", ["fifty:KH", "fifty:9H"]),  # 8: two fifties
        ("6H 7H 8H 9H 10H JH QH KH AH", ["fifty:AH", "fifty:10H"]),  # 9: two fifties
        ("JH 9H AH", []),  # the three best trumps are not a run
        ("6H 7H 9H 10H", []),
        ("QS KS AS 6D 7D 8D", ["twenty:AS", "twenty:8D"]),  # several runs, disjoint
    ],
)
def test_find_runs(cards, expected):
    assert runs_text(cards) == expected


# KenMacD/tarabish server/src/runs.erl score_suit_test_: (values high to low, best, points).
# J Q K A are 11 12 13 14 there.
@pytest.mark.parametrize(
    ("values", "best", "points"),
    [
        ([12, 10, 9, 7, 6], None, 0),
        ([12], None, 0),
        ([8, 7, 6], ("twenty", 8), 20),
        ([13, 12, 10, 8, 7, 6], ("twenty", 8), 20),
        ([13, 12, 11, 9, 7, 6], ("twenty", 13), 20),
        ([14, 13, 12, 10, 9, 8, 6], ("twenty", 14), 40),
        ([9, 8, 7, 6], ("fifty", 9), 50),
        ([12, 11, 10, 9, 8, 7, 6], ("fifty", 12), 70),
        ([14, 13, 12, 11, 10, 9, 8, 7, 6], ("fifty", 14), 100),
    ],
)
def test_kenmacd_score_suit(values, best, points):
    runs = find_runs([Card(Rank(v), H) for v in values])
    assert sum(r.points for r in runs) == points
    b = best_run(runs, None)
    assert (None if b is None else (b.kind.value, int(b.top))) == best


def test_run_ranking():
    fifty_low = Run(F, C, Rank.NINE)
    twenty_high = Run(T, H, Rank.ACE)
    assert best_run([twenty_high, fifty_low], H) == fifty_low  # a fifty beats any twenty
    assert best_run([Run(T, C, Rank.KING), Run(T, D, Rank.ACE)], None) == Run(T, D, Rank.ACE)
    # same size and top: trump beats plain
    assert best_run([Run(T, C, Rank.ACE), Run(T, H, Rank.ACE)], H) == Run(T, H, Rank.ACE)
    assert best_run([], H) is None


# KenMacD/tarabish runs.erl fold_runs_test_: equal trump beats non-trump; a lower trump run
# does not; a fifty beats a trump twenty with a higher card; a trump twenty never beats a fifty.
def test_kenmacd_fold_runs():
    assert Run(F, H, Rank.ACE).key(H) > Run(F, S, Rank.ACE).key(H)
    assert Run(T, H, Rank.ACE).key(H) > Run(T, S, Rank.ACE).key(H)
    assert Run(F, H, Rank.JACK).key(H) < Run(F, S, Rank.ACE).key(H)
    assert Run(F, S, Rank.JACK).key(H) > Run(T, H, Rank.ACE).key(H)
    assert Run(T, H, Rank.ACE).key(H) < Run(F, S, Rank.JACK).key(H)


def test_only_the_best_run_counts_all_of_that_players_runs():
    shown = (
        RunShown(0, T, C, Rank.ACE),
        RunShown(1, F, S, Rank.NINE),
        RunShown(1, T, D, Rank.EIGHT),
        RunShown(3, T, H, Rank.KING),
    )
    seat, counted = runs_counted(shown, H)
    assert seat == 1
    assert counted == shown[1:3]


def test_equal_plain_runs_cancel_nobody_counts():
    # RULES.md: a fifty 6-7-8-9-10 and a fifty 7-8-9-10 in two plain suits are equal
    a = RunShown(0, F, C, Rank.TEN)  # shown from 6-10: the fifty is 7-8-9-10
    b = RunShown(1, F, D, Rank.TEN)
    extra = RunShown(0, T, S, Rank.EIGHT)
    assert runs_counted((a, b, extra), H) == (None, ())
    # ... but if one of them is trump, that one wins
    assert runs_counted((a, b, extra), C)[0] == 0


def test_runs_count_for_team_switch():
    shown = (
        RunShown(0, F, C, Rank.ACE),
        RunShown(2, T, H, Rank.EIGHT),
        RunShown(1, T, D, Rank.KING),
    )
    assert runs_counted(shown, H)[1] == shown[:1]
    assert runs_counted(shown, H, for_team=True)[1] == shown[:2]


def test_runs_counted_says_the_points_each_team_takes():
    shown = (
        RunShown(0, F, C, Rank.ACE),
        RunShown(2, T, H, Rank.EIGHT),
        RunShown(1, T, D, Rank.KING),
    )
    assert runs_counted(shown, H).points == (50, 0)
    assert runs_counted(shown, H, for_team=True).points == (70, 0)
    assert runs_counted(shown[2:], H).points == (0, 20)
    assert runs_counted((), H).points == (0, 0)
    tie = (RunShown(0, F, C, Rank.TEN), RunShown(1, F, D, Rank.TEN))
    assert runs_counted(tie, H).points == (0, 0)


def test_run_from_cards():
    assert run_from_cards(parse_cards("10S JS QS KS")) == Run(F, S, Rank.KING)
    for bad in ("JH 9H AH", "6H 7H 8S", "6H 7H", "6H 7H 8H 9H 10H"):
        with pytest.raises(InvalidEntry):
            run_from_cards(parse_cards(bad))


def test_impossible_runs():
    with pytest.raises(InvalidEntry) as info:
        Run(F, H, Rank.EIGHT)
    assert info.value.code == "run_impossible"
    with pytest.raises(InvalidEntry) as info:
        validate_runs_shown((RunShown(2, T, H, Rank.KING), RunShown(2, F, H, Rank.KING)))
    assert str(info.value) == (
        "seat 2 cannot show a fifty in hearts to the king: it is already counted as a twenty in "
        "hearts to the king"
    )
    assert info.value.field == "runs.1"
    with pytest.raises(InvalidEntry, match="seat 1"):
        validate_runs_shown((RunShown(1, T, H, Rank.KING), RunShown(3, T, H, Rank.ACE)))
    # six in a row shown as two twenties: it is one fifty
    with pytest.raises(InvalidEntry, match="cut from the top"):
        validate_runs_shown((RunShown(0, T, H, Rank.EIGHT), RunShown(0, T, H, Rank.JACK)))
    # three fifties need twelve cards
    with pytest.raises(InvalidEntry, match="nine cards"):
        validate_runs_shown(
            (
                RunShown(0, F, H, Rank.NINE),
                RunShown(0, F, S, Rank.NINE),
                RunShown(0, F, C, Rank.NINE),
            )
        )
    validate_runs_shown((RunShown(0, F, H, Rank.ACE), RunShown(0, F, H, Rank.TEN)))


def test_json():
    r = RunShown(3, F, S, Rank.TEN)
    assert r.to_json() == {"seat": 3, "kind": "fifty", "suit": "S", "top": "10S"}
    assert RunShown.from_json(r.to_json()) == r
    with pytest.raises(InvalidEntry) as info:
        RunShown.from_json({"seat": 3, "kind": "fourty", "suit": "S", "top": "10"})
    assert info.value.field == "kind"


@pytest.mark.parametrize("top", ["10S", "10s", "TS", "10", "T"])
def test_json_reads_the_top_card_and_its_rank_alone(top):
    """The top is written as a card; the rank alone, as results were stored before, reads the
    same."""
    read = RunShown.from_json({"seat": 3, "kind": "fifty", "suit": "S", "top": top})
    assert read == RunShown(3, F, S, Rank.TEN)
    assert read.to_json()["top"] == "10S"


def test_json_refuses_a_top_card_of_another_suit():
    with pytest.raises(InvalidEntry) as info:
        Run.from_json({"kind": "fifty", "suit": "S", "top": "10H"})
    assert (info.value.code, info.value.field) == ("bad_run", "top")
    assert str(info.value) == "the top card 10H is not of the run's suit, spades"


def test_check_claims_against_a_holding():
    from scoring.engine import check_claims

    hand = parse_cards("6H 7H 8H 9H 10H KS QS 6C 7D")
    check_claims(hand, [Run(F, H, Rank.TEN)], bella=True, trump=S)
    with pytest.raises(InvalidEntry) as info:
        check_claims(hand, [Run(T, C, Rank.EIGHT)], who="seat 1")
    assert info.value.code == "run_not_held"
    with pytest.raises(InvalidEntry) as info:
        check_claims(hand, bella=True, trump=H)
    assert info.value.code == "bella_not_held"
    with pytest.raises(InvalidEntry):
        check_claims(hand, bella=True, trump=None)
