"""Request and response examples of the scoring API's OpenAPI schema.

The figures are a real evening at Table 4 (taken from the API's own answers): The Dealers
call hearts on hand 1 with a twenty and make it, 70 to 112.
"""

from typing import Any

from drf_spectacular.utils import OpenApiExample

from scoring.engine import preset

_STANDARD = preset("cape-breton-standard")
_SEATS = [
    {"seat": 0, "side": "team_a", "player_id": 1, "name": "Marie MacNeil"},
    {"seat": 1, "side": "team_b", "player_id": 2, "name": "Angus Gillis"},
    {"seat": 2, "side": "team_a", "player_id": 3, "name": "Rita Campbell"},
    {"seat": 3, "side": "team_b", "player_id": 4, "name": "Joe Boudreau"},
]
_HAND_ENTRY = {
    "caller": 1,
    "trump": "H",
    "card_points": {"team": "team_b", "points": 92},
    "runs": [{"seat": 1, "kind": "twenty", "suit": "S", "top": "QS"}],
    "bella_seat": None,
}
_HAND_RESULT = {
    "outcome": "made",
    "dealer": 1,
    "caller": 1,
    "calling_team": 1,
    "trump": "H",
    "card_points": [70, 92],
    "run_points": [0, 20],
    "bella_points": [0, 0],
    "taken": [70, 112],
    "hand_total": 182,
    "points": [70, 112],
    "runs_counted_by": 1,
    "runs_counted": [{"kind": "twenty", "suit": "S", "top": "QS"}],
    "bella_seat": None,
    "misplay_by": None,
    "misplay_accused": None,
    "thrown_in_by": None,
    "call_outcome": "made",
}
_HAND: dict[str, Any] = {
    "number": 1,
    "version": 1,
    "undone": False,
    "entry_kind": "summary",
    "entry": _HAND_ENTRY,
    "dealer": 1,
    "caller": 1,
    "trump": "H",
    "outcome": "made",
    "outcome_label": "made",
    "points": {"team_a": 70, "team_b": 112},
    "card_points": {"team_a": 70, "team_b": 92},
    "run_points": {"team_a": 0, "team_b": 20},
    "bella_points": {"team_a": 0, "team_b": 0},
    "runs_counted_by": 1,
    "bella_seat": None,
    "hand_total": 182,
    "running": {"team_a": 70, "team_b": 112},
    "result": _HAND_RESULT,
    "created_at": "2026-11-21T19:42:10.332712-04:00",
    "updated_at": "2026-11-21T19:42:10.332742-04:00",
}
_SCORE_LINE = {
    "id": 41,
    "version": 3,
    "status": "in_progress",
    "over": False,
    "winner": None,
    "totals": {"team_a": 70, "team_b": 112},
    "hands_played": 1,
    "next_hand": 2,
    "next_dealer": 2,
    "forced_seat": None,
}
_GAME: dict[str, Any] = {
    "id": 41,
    "game_id": 41,
    "version": 3,
    "status": "in_progress",
    "status_label": "In progress",
    "over": False,
    "winner": None,
    "winning_team": None,
    "ended_reason": "",
    "teams": {
        "team_a": {"id": 7, "name": "Marie MacNeil & Rita Campbell", "seats": [0, 2]},
        "team_b": {"id": 8, "name": "The Dealers", "seats": [1, 3]},
    },
    "seats": _SEATS,
    "totals": {"team_a": 70, "team_b": 112},
    "target": 500,
    "hands_played": 1,
    "hands": [
        {
            "number": 1,
            "dealer": 1,
            "caller": 1,
            "trump": "H",
            "outcome": "made",
            "outcome_label": "made",
            "points": {"team_a": 70, "team_b": 112},
            "running": {"team_a": 70, "team_b": 112},
            "version": 1,
        }
    ],
    "first_dealer": _SEATS[1],
    "first_dealer_method": "flip_for_jacks",
    "first_dealer_flips": [[0, "QH"], [1, "JH"]],
    "next_hand": 2,
    "next_dealer": _SEATS[2],
    "forced_seat": None,
    "forced_team": None,
    "ruleset_preset": "cape-breton-standard",
    "ruleset": _STANDARD.to_json(),
    "ruleset_described": [
        {"label": label, "value": value} for label, value in _STANDARD.describe()
    ],
    "table": "Table 4",
    "public": True,
    "scorekeepers": ["keeper"],
    "created_at": "2026-11-21T19:30:01.305326-04:00",
    "finished_at": None,
}
_NEW_GAME = {
    **_GAME,
    "version": 1,
    "totals": {"team_a": 0, "team_b": 0},
    "hands_played": 0,
    "hands": [],
    "first_dealer": None,
    "first_dealer_method": "",
    "first_dealer_flips": [],
    "next_hand": 1,
    "next_dealer": None,
}
_FLIPPED = {**_NEW_GAME, "version": 2, "first_dealer": _SEATS[1], "next_dealer": _SEATS[1]}
_FLIPPED["first_dealer_method"] = "flip_for_jacks"
_FLIPPED["first_dealer_flips"] = [[0, "QH"], [1, "JH"]]
_DISPUTE = {
    "id": 5,
    "version": 2,
    "game": 41,
    "hand_number": 3,
    "called_by": 0,
    "accused": 1,
    "trick": 4,
    "proof_card": "QH",
    "evidence": {"dealer": 2, "caller": 3, "trump": "S", "tricks": [["8S", "9S", "10S", "KS"]]},
    "status": "proven",
    "status_label": "Misplay proven",
    "verdict": {
        "proven": True,
        "accused": 1,
        "trick": 4,
        "offending_card": "7C",
        "rule": "follow_suit",
        "proof_card": "QH",
        "proof_trick": 6,
        "reason": "seat 1 played 7C on a heart lead in trick 4 but played QH in trick 6",
    },
    "reason": "seat 1 played 7C on a heart lead in trick 4 but played QH in trick 6",
    "adjudicated_at": "2026-11-21T20:05:02.118000-04:00",
    "ruling": "none",
    "ruling_note": "",
    "ruled_by": None,
    "ruled_at": None,
    "decision": True,
    "created_at": "2026-11-21T20:05:01.904000-04:00",
}


def _request(name: str, value: object, description: str = "") -> OpenApiExample:
    return OpenApiExample(name, value=value, request_only=True, description=description)


def _response(name: str, value: object, status: int = 200) -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[status])


PLAYER = [
    _request("A player", {"display_name": "Marie MacNeil", "community": "Glace Bay"}),
    _response(
        "Added",
        {
            "id": 1,
            "display_name": "Marie MacNeil",
            "community": "Glace Bay",
            "created_at": "2026-11-21T19:20:45.666937-04:00",
        },
        201,
    ),
]
TEAM = [
    _request("A pair", {"player_one": 2, "player_two": 4, "name": "The Dealers"}),
    _request("A pair, named after its players", {"player_one": 1, "player_two": 3}),
    _response(
        "Added",
        {
            "id": 8,
            "name": "The Dealers",
            "player_one": 2,
            "player_two": 4,
            "player_one_name": "Angus Gillis",
            "player_two_name": "Joe Boudreau",
            "created_at": "2026-11-21T19:21:45.701067-04:00",
        },
        201,
    ),
]
GAME_LIST = [
    _response(
        "Games",
        {
            "count": 1,
            "next": None,
            "previous": None,
            "results": [
                {
                    "id": 41,
                    "table": "Table 4",
                    "public": True,
                    "status": "in_progress",
                    "team_a": 7,
                    "team_a_name": "Marie MacNeil & Rita Campbell",
                    "team_b": 8,
                    "team_b_name": "The Dealers",
                    "totals": {"team_a": 70, "team_b": 112},
                    "hands_played": 1,
                    "next_dealer": 2,
                    "forced_seat": None,
                    "over": False,
                    "winner": None,
                    "pending_disputes": 0,
                    "ruleset_preset": "cape-breton-standard",
                    "version": 3,
                    "created_at": "2026-11-21T19:30:01.305326-04:00",
                    "finished_at": None,
                }
            ],
        },
    )
]
GAME = [_response("A running game after one hand", _GAME)]
GAME_CREATE = [
    _request(
        "With a preset",
        {
            "team_a": 7,
            "team_b": 8,
            "seats": [1, 2, 3, 4],
            "ruleset_preset": "cape-breton-standard",
            "table": "Table 4",
        },
    ),
    _request(
        "With house rules and the first dealer already chosen",
        {
            "team_a": 7,
            "team_b": 8,
            "ruleset": {"dealer_may_pass": True, "forced_at": 400, "target": 500},
            "first_dealer": 2,
            "table": "Kitchen",
            "public": False,
            "scorekeepers": [12],
        },
    ),
    _response("Started", _NEW_GAME, 201),
]
GAME_FLIP = [_response("Seat 1 turned the first jack and deals first", _FLIPPED)]
FIRST_DEALER = [
    _request("Seat 1 deals first", {"seat": 1}),
    _response("First dealer entered", {**_FLIPPED, "first_dealer_method": "entered"}),
]
END_EARLY = [
    _request("The hall is closing", {"reason": "the hall is closing"}),
    _response(
        "Ended early",
        {
            **_GAME,
            "version": 4,
            "status": "abandoned",
            "status_label": "Ended early",
            "over": True,
            "ended_reason": "the hall is closing",
            "next_hand": None,
            "next_dealer": None,
            "finished_at": "2026-11-21T22:58:00.000000-04:00",
        },
    ),
]
REOPEN = [_response("Reopened", {**_GAME, "version": 5})]
GAME_PUBLIC = [
    _request("Only the table's scorekeepers and directors", {"public": False}),
    _response("Now private", {**_GAME, "public": False, "version": 4}),
]
HAND_CREATE = [
    _request(
        "Summary: one team's card points, a twenty",
        {"entry_kind": "summary", "number": 1, **_HAND_ENTRY},
        "Team B's count is entered; the engine derives team A's (162 - 92 = 70).",
    ),
    _request(
        "Summary: both teams' card points, bella",
        {
            "entry_kind": "summary",
            "number": 2,
            "caller": 3,
            "trump": "S",
            "card_points": [80, 82],
            "bella_seat": 3,
        },
    ),
    _request(
        "Summary: the runs each player showed",
        {
            "entry_kind": "summary",
            "number": 2,
            "caller": 0,
            "trump": "C",
            "card_points": {"team": "team_a", "points": 92},
            "run_counts": [
                {"twenties": 0, "fifties": 1},
                {"twenties": 1, "fifties": 0},
                {"twenties": 1, "fifties": 0},
                {"twenties": 0, "fifties": 0},
            ],
        },
        "As the score-pad's grid sends them, seat 0 first. The fifty beats every twenty, so seat "
        "0 alone counts runs: her 50 (her partner's twenty counts too only under rules where "
        "runs count for the team). Two players whose best runs are both fifties (or both "
        "twenties) are refused: give the runs with their suits and top cards instead.",
    ),
    _request(
        "Summary: a hand thrown in",
        {
            "entry_kind": "summary",
            "number": 2,
            "caller": 1,
            "trump": "H",
            "card_points": [30, 40],
            "thrown_in_by": 0,
        },
        "Both teams' card points as won when the hand was thrown in; team B, opposite the "
        "player who threw in, takes the 92 not yet won.",
    ),
    _request(
        "Summary: a void hand (all passed)",
        {"entry_kind": "summary", "number": 3, "caller": None, "trump": None},
        "Only under rules where the dealer may pass (kitchen-table); otherwise 400 on caller.",
    ),
    _request(
        "Summary: a misplay called and proven",
        {
            "entry_kind": "summary",
            "number": 4,
            "caller": 0,
            "trump": "D",
            "misplay": {"called_by": 1, "proven": True},
        },
    ),
    _request(
        "Tricks: the full record",
        {
            "entry_kind": "tricks",
            "number": 5,
            "caller": 2,
            "trump": "C",
            "tricks": [
                ["8S", "9C", "10S", "KS"],
                ["KD", "JD", "8D", "QD"],
                ["QC", "JC", "JS", "8C"],
                ["QH", "KH", "9H", "AH"],
                ["6H", "10C", "10H", "7C"],
                ["6D", "10D", "AD", "AC"],
                ["8H", "KC", "JH", "7S"],
                ["AS", "9S", "QS", "6C"],
                ["7H", "7D", "6S", "9D"],
            ],
            "runs": [{"seat": 2, "kind": "twenty", "suit": "H", "top": "8H"}],
        },
    ),
    _response("Entered", {**_HAND, "game": _SCORE_LINE}, 201),
]
HAND_DETAIL = [
    _response(
        "A hand and its versions",
        {
            **_HAND,
            "revisions": [
                {
                    "version": 1,
                    "action": "recorded",
                    "entry_kind": "summary",
                    "entry": _HAND_ENTRY,
                    "result": _HAND_RESULT,
                    "reason": "",
                    "changed_by": "keeper",
                    "changed_at": "2026-11-21T19:42:10.334105-04:00",
                }
            ],
            "disputes": [],
        },
    )
]
HAND_CORRECT = [
    _request(
        "The card points were misread",
        {
            "entry_kind": "summary",
            "caller": 1,
            "trump": "H",
            "card_points": [100, 62],
            "reason": "card points misread: the calling team took 62",
        },
    ),
    _response(
        "Corrected: now a bait",
        {
            **_HAND,
            "version": 2,
            "entry": {"caller": 1, "trump": "H", "card_points": [100, 62]},
            "outcome": "bait",
            "outcome_label": "bait",
            "points": {"team_a": 162, "team_b": 0},
            "card_points": {"team_a": 100, "team_b": 62},
            "run_points": {"team_a": 0, "team_b": 0},
            "runs_counted_by": None,
            "hand_total": 162,
            "running": {"team_a": 162, "team_b": 0},
            "game": {**_SCORE_LINE, "version": 4, "totals": {"team_a": 162, "team_b": 0}},
        },
    ),
]
UNDO = [
    _request("Entered at the wrong table", {"reason": "entered at the wrong table"}),
    _response(
        "Undone",
        {
            **_HAND,
            "version": 2,
            "undone": True,
            "game": {
                **_SCORE_LINE,
                "version": 4,
                "totals": {"team_a": 0, "team_b": 0},
                "hands_played": 0,
                "next_hand": 1,
                "next_dealer": 1,
            },
        },
    ),
]
DISPUTE_CREATE = [
    _request(
        "Seat 0 calls a misplay on seat 1 in trick 4",
        {"called_by": 0, "accused": 1, "trick": 4, "proof_card": "QH"},
        "For a hand entered as a summary, add `evidence`: the trick record.",
    ),
    _response(
        "Waiting for the engine",
        {
            **_DISPUTE,
            "version": 1,
            "status": "pending",
            "status_label": "Waiting for the engine",
            "verdict": None,
            "reason": "",
            "adjudicated_at": None,
            "decision": None,
        },
        201,
    ),
]
DISPUTE = [_response("Judged by the engine", _DISPUTE)]
RULING = [
    _request("Upheld", {"ruling": "upheld"}),
    _request(
        "Overruled",
        {"ruling": "overruled", "note": "the queen of hearts was played from the kitty"},
    ),
    _response(
        "Ruled",
        {
            **_DISPUTE,
            "version": 3,
            "ruling": "upheld",
            "ruled_by": "director",
            "ruled_at": "2026-11-21T20:10:00.000000-04:00",
        },
    ),
]
HAND_PREVIEW = [
    _request(
        "The hand being typed",
        {"entry_kind": "summary", **_HAND_ENTRY},
        "The same body as entering it; `number` left out is the next hand.",
    ),
    _response(
        "What entering it would give",
        {
            **_HAND,
            "created_at": None,
            "updated_at": None,
            "game": _SCORE_LINE,
        },
    ),
]
