"""Live and recorded hands: calling, play, runs, bella, throw-in, views, replay, JSON."""

import pytest

from scoring.engine import (
    DECK,
    Action,
    AnnounceRun,
    CallBella,
    CallTrump,
    Card,
    Deal,
    HandLog,
    HandState,
    IllegalPlay,
    InvalidEntry,
    Outcome,
    Pass,
    Play,
    Ruleset,
    ShowRun,
    Suit,
    ThrowIn,
    parse_card,
    parse_cards,
    replay,
)

H = Suit.HEARTS
HANDS = [
    "KH QH JH 10H 9S 10S JS 6C 7C",  # seat 0: fifty to the king of hearts, twenty to JS, bella
    "AH 9H 6S 7S 8S AC 8D JD AD",  # seat 1: the Linganer in spades
    "8H 7H 6H QS KS AS 8C 10C QC",  # seat 2: two twenties
    "9C JC KC 6D 7D 9D 10D QD KD",  # seat 3: no run
]
DEAL = Deal(tuple(parse_cards(h) for h in HANDS))


STD = Ruleset()


def start(ruleset: Ruleset = STD, dealer: int = 3, scores: tuple[int, int] = (0, 0)) -> HandState:
    return HandState.start(ruleset, dealer, DEAL, scores)


def called(ruleset: Ruleset = STD, trump: Suit | None = H, caller: int = 0) -> HandState:
    s = start(ruleset)
    for seat in range(caller):
        s = s.apply(Pass(seat))
    return s.apply(CallTrump(caller, trump))


def turn(s: HandState) -> int:
    assert s.to_act is not None
    return s.to_act


def why(s: HandState, action: Action) -> str:
    text = s.why_illegal(action)
    assert text is not None
    return text


def play_out(s: HandState) -> HandState:
    while not s.done:
        s = s.apply(Play(turn(s), s.legal_plays()[0]))
    return s


def c(text: str) -> Card:
    return parse_card(text)


# ---------------------------------------------------------------- calling


def test_calling_starts_left_of_dealer_and_goes_clockwise():
    s = start()
    assert s.to_act == 0
    assert s.why_illegal(Pass(1)) == "it is seat 0's turn to call"
    s = s.apply(Pass(0))
    assert s.to_act == 1
    s = s.apply(CallTrump(1, Suit.SPADES))
    assert (s.phase, s.caller, s.trump, s.to_act) == ("playing", 1, Suit.SPADES, 0)


def test_dealer_is_stuck_by_default():
    s = start().apply(Pass(0)).apply(Pass(1)).apply(Pass(2))
    with pytest.raises(IllegalPlay) as info:
        s.apply(Pass(3))
    assert info.value.code == "dealer_stuck"


def test_dealer_may_pass_gives_a_void_hand():
    s = start(Ruleset(dealer_may_pass=True))
    for seat in range(4):
        s = s.apply(Pass(seat))
    assert s.done
    r = s.result()
    assert r.outcome is Outcome.VOID
    assert r.points == (0, 0)


def test_forced_at_the_seat_before_an_opposing_dealer_must_call():
    # team 0 has more than 400, dealer 3 is on team 1: seat 2 must call
    s = start(Ruleset(forced_at=400), scores=(420, 100)).apply(Pass(0)).apply(Pass(1))
    assert "must name trump" in why(s, Pass(2))
    assert s.why_illegal(CallTrump(2, H)) is None
    # not forced without the switch, or below it
    assert start(scores=(420, 100)).apply(Pass(0)).apply(Pass(1)).why_illegal(Pass(2)) is None
    s = start(Ruleset(forced_at=400), scores=(100, 420)).apply(Pass(0)).apply(Pass(1))
    assert s.why_illegal(Pass(2)) is None  # team 1 is forced but deals itself


def test_no_trump_only_with_the_switch():
    s = start()
    assert s.why_illegal(CallTrump(0, None)) == "no trump is not allowed under this ruleset"
    s = start(Ruleset(no_trump_allowed=True)).apply(CallTrump(0, None))
    assert s.trump is None
    assert s.why_illegal(CallBella(0)) == "there is no bella in a no-trump hand"
    end = play_out(s)
    assert sum(end.result().card_points) == 130


# ---------------------------------------------------------------- play


def test_play_turns_and_legality_in_plain_words():
    s = called()
    assert s.to_act == 0
    assert s.why_illegal(Play(1, c("AH"))) == "it is seat 0's turn to play"
    assert s.why_illegal(Play(0, c("AH"))) == "seat 0 does not hold the ace of hearts"
    s = s.apply(Play(0, c("9S")))
    assert s.why_illegal(Play(1, c("AC"))) == (
        "seat 1 must follow suit: spades were led and seat 1 holds the 8 of spades"
    )
    with pytest.raises(IllegalPlay) as info:
        s.apply(Play(1, c("AC")))
    assert info.value.code == "follow_suit"
    assert [str(x) for x in s.legal_plays()] == ["6S", "7S", "8S"]


def test_trick_winner_leads_next_and_hand_ends_after_nine_tricks():
    s = called()
    s = s.apply(Play(0, c("10H"))).apply(Play(1, c("AH"))).apply(Play(2, c("6H")))
    s = s.apply(Play(3, s.legal_plays()[0]))
    assert s.winners[0] in (1, 3)
    end = play_out(s)
    assert end.done
    assert len(end.tricks) == 9
    assert sum(end.result().card_points) == 162
    with pytest.raises(IllegalPlay):
        end.apply(Play(0, c("AH")))


def test_throw_in_stops_the_hand():
    s = called().apply(Play(0, c("9S")))
    s = s.apply(ThrowIn(2))
    r = s.result()
    assert r.outcome is Outcome.THROWN_IN
    assert r.thrown_in_by == 2
    assert r.card_points == (0, 162)
    assert r.points == (0, 162)  # the calling team threw in and goes bait


def test_result_before_the_end_is_refused():
    with pytest.raises(IllegalPlay):
        called().result()


# ---------------------------------------------------------------- runs


def test_runs_announced_before_the_first_card_and_shown_before_the_second():
    s = called()
    assert s.why_illegal(AnnounceRun(3)) == "seat 3 holds no run"
    s = s.apply(AnnounceRun(0))
    assert s.why_illegal(ShowRun(1, parse_cards("6S 7S 8S"))) == (
        "seat 1 did not announce a run before playing their first card"
    )
    s = s.apply(ShowRun(0, parse_cards("10H JH QH KH")))
    s = s.apply(Play(0, c("9S")))
    s = s.apply(ShowRun(0, parse_cards("9S 10S JS")))  # after the first card is fine
    assert s.why_illegal(AnnounceRun(0)) == "a run is announced before playing one's first card"
    assert s.why_illegal(ShowRun(0, parse_cards("9S 10S JS"))) == (
        "seat 0 already showed the twenty in spades to the jack"
    )
    s = s.apply(AnnounceRun(1)).apply(Play(1, c("6S")))
    s = s.apply(Play(2, s.legal_plays()[0]))
    s = s.apply(Play(3, s.legal_plays()[0]))
    # seat 1 played one card: it may still show its twenty before its second card
    assert s.why_illegal(ShowRun(1, parse_cards("7S 8S 6S"))) is None
    end = play_out(s)
    r = end.result()
    assert r.runs_counted_by == 0
    assert r.run_points == (70, 0)  # seat 1's Linganer was never shown and does not count


def test_show_must_be_a_block_cut_from_the_top_and_held():
    s = called().apply(AnnounceRun(0))
    assert "not one of seat 0's runs" in why(s, ShowRun(0, parse_cards("JH QH KH")))
    assert why(s, ShowRun(0, parse_cards("JH 9H AH"))).endswith(
        "a run is 3 or 4 cards of one suit in the order 6 7 8 9 10 J Q K A"
    )
    assert (
        s.why_illegal(ShowRun(0, parse_cards("7C 8C 9C"))) == "seat 0 was not dealt the 8 of clubs"
    )


def test_show_too_late_after_the_second_card():
    s = called().apply(AnnounceRun(2))
    s = s.apply(Play(0, c("9S"))).apply(Play(1, c("6S"))).apply(Play(2, c("AS")))
    s = s.apply(Play(3, s.legal_plays()[0]))
    while s.played_count(2) < 2:
        s = s.apply(Play(turn(s), s.legal_plays()[0]))
    assert s.why_illegal(ShowRun(2, parse_cards("QS KS AS"))) == (
        "a run is shown before playing one's second card"
    )


# ---------------------------------------------------------------- bella


def test_bella_on_the_second_of_king_and_queen():
    s = called()
    s = s.apply(Play(0, c("KH")))
    assert s.why_illegal(CallBella(0)) == (
        "bella is called when the second of the king and queen of trump is played"
    )
    assert (
        called(Ruleset(bella_on_first=True)).apply(Play(0, c("KH"))).why_illegal(CallBella(0))
        is None
    )
    assert s.why_illegal(CallBella(1)) == "seat 1 was not dealt both the king and queen of hearts"
    while s.played_count(0) < 9 and c("QH") in s.held_cards(0):
        legal = s.legal_plays()
        if s.to_act == 0 and c("QH") in legal:
            s = s.apply(Play(0, c("QH")))
        else:
            s = s.apply(Play(turn(s), next(x for x in legal if x != c("QH"))))
    assert s.why_illegal(CallBella(0)) is None
    s = s.apply(CallBella(0))
    assert s.why_illegal(CallBella(0)) == "bella was already called"
    r = play_out(s).result()
    assert r.bella_points == (20, 0)
    assert r.bella_seat == 0


def test_bella_when_showing_a_run_with_king_and_queen():
    s = called().apply(AnnounceRun(0)).apply(ShowRun(0, parse_cards("10H JH QH KH")))
    assert s.why_illegal(CallBella(0)) is None


def test_bella_not_called_does_not_count():
    r = play_out(called()).result()
    assert r.bella_points == (0, 0)


# ---------------------------------------------------------------- views


def test_view_hides_other_hands_and_kitties():
    s = start()
    v = s.view_for(0)
    assert v.hand == DEAL.seen(0)
    assert v.kitty is None
    assert v.hand_sizes == (9, 9, 9, 9)
    s = s.apply(Pass(0))
    assert s.view_for(0).kitty is None
    revealing = start(Ruleset(pass_reveals_kitty=True)).apply(Pass(0))
    assert revealing.view_for(0).kitty == DEAL.kitty(0)
    assert revealing.view_for(1).kitty is None
    s = s.apply(CallTrump(1, H))
    v = s.view_for(2)
    assert v.kitty == DEAL.kitty(2)
    assert set(v.hand) == set(DEAL.hands[2])
    assert not set(v.hand) & set(DEAL.hands[0])
    assert v.legal_plays == ()
    assert s.view_for(0).legal_plays == s.legal_plays()


def test_view_shows_only_the_last_completed_trick():
    s = called()
    for _ in range(5):
        s = s.apply(Play(turn(s), s.legal_plays()[0]))
    v = s.view_for(1)
    assert v.last_trick is not None
    assert len(v.last_trick) == 4
    assert [seat for seat, _ in v.last_trick] == [0, 1, 2, 3]
    assert len(v.current_trick) == 1
    assert sum(v.tricks_won) == 1
    assert sum(v.hand_sizes) == 31
    assert v.to_json()["seat"] == 1


# ---------------------------------------------------------------- log, replay, JSON


def test_log_replays_every_position_and_round_trips():
    s = called().apply(AnnounceRun(0)).apply(ShowRun(0, parse_cards("10H JH QH KH")))
    s = s.apply(CallBella(0))
    end = play_out(s)
    actions: list[Action] = [
        CallTrump(0, H),
        AnnounceRun(0),
        ShowRun(0, parse_cards("10H JH QH KH")),
        CallBella(0),
    ]
    # rebuild the plays from the finished state
    plays: list[Action] = []
    for trick, winner_before in zip(end.tricks, (0, *end.winners), strict=False):
        plays += [Play((winner_before + p) % 4, DECK[i]) for p, i in enumerate(trick)]
    log = HandLog(Ruleset(), 3, DEAL, tuple(actions + plays))
    states = replay(log)
    assert len(states) == len(log.actions) + 1
    assert states[-1].result() == end.result()
    assert HandLog.from_json(log.to_json()) == log
    assert states[0].to_act == 0


def test_replay_names_the_bad_action():
    log = HandLog(Ruleset(), 3, DEAL, (Pass(0), Pass(2)))
    with pytest.raises(IllegalPlay) as info:
        replay(log)
    assert info.value.field == "actions.1"


def test_log_json_errors_name_the_field():
    data = HandLog(Ruleset(), 3, DEAL, (CallTrump(0, H),)).to_json()
    data["actions"].append({"type": "play", "seat": 0, "card": "ZZ"})
    with pytest.raises(InvalidEntry) as info:
        HandLog.from_json(data)
    assert info.value.field == "actions.1.card"
    data["actions"][1] = {"type": "dance", "seat": 0}
    with pytest.raises(InvalidEntry) as info:
        HandLog.from_json(data)
    assert info.value.field == "actions.1.type"
