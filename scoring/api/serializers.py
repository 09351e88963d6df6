"""Serializers of the scoring API: input envelopes and output shapes, no rules.

Input serializers check only types and references (is this a whole number, does player 12
exist); everything about Tarabish (is 161 a possible count, may this seat show that run) is
checked by the engine through :mod:`scoring.services`, whose errors name the field in the
scorekeeper's words. Output serializers show what the services stored and what the selectors
computed; they compute nothing themselves.

Hand entries are sent flat: ``{"entry_kind": "summary", "caller": 0, "trump": "H", ...}``, so
the engine's field paths (``card_points``, ``runs.1.top``, ``tricks.3.2``) are the body's own.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.engine import PRESET_NAMES, PRESETS, Outcome, RunKind
from scoring.models import (
    SEAT_CHOICES,
    TRUMP_CHOICES,
    Game,
    Hand,
    HandRevision,
    MisplayDispute,
    Player,
    Side,
    Team,
)
from tarabish_site.api.serializers import (
    DocumentedKeys,
    OnlyItsChanges,
    OnlyItsFields,
    WholeNumberField,
    refuse_undocumented_keys,
)

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

SEAT = serializers.IntegerField(min_value=0, max_value=3)
_DATETIME = serializers.DateTimeField()
RUN_KIND_CHOICES = [
    (RunKind.TWENTY.value, "twenty: three cards in sequence"),
    (RunKind.FIFTY.value, "fifty: four cards in sequence"),
]


def _missing(thing: str) -> dict[str, "str | _StrPromise"]:
    return {
        "does_not_exist": f"there is no {thing} {{pk_value}}",
        "incorrect_type": f"a {thing} is given by its id, a whole number",
    }


# ------------------------------------------------------------------------------ small shapes


class SidesSerializer(serializers.Serializer[Any]):
    """A figure per team: team A sits at seats 0 and 2, team B at seats 1 and 3."""

    team_a = serializers.IntegerField()
    team_b = serializers.IntegerField()


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    side = serializers.ChoiceField(choices=Side.choices)
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class TeamAtTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seats = serializers.ListField(child=serializers.IntegerField())


class TeamsAtTableSerializer(serializers.Serializer[Any]):
    team_a = TeamAtTableSerializer()
    team_b = TeamAtTableSerializer()


class RuleInWordsSerializer(serializers.Serializer[Any]):
    label = serializers.CharField()  # type: ignore[assignment]  # the key is "label"
    value = serializers.CharField()


class RunningHandSerializer(serializers.Serializer[Any]):
    """One line of the running score."""

    number = serializers.IntegerField()
    dealer = serializers.ChoiceField(choices=SEAT_CHOICES)
    caller = serializers.ChoiceField(choices=SEAT_CHOICES, allow_null=True)
    trump = serializers.ChoiceField(choices=TRUMP_CHOICES, allow_null=True)
    outcome = serializers.CharField()
    outcome_label = serializers.CharField()
    points = SidesSerializer()
    running = SidesSerializer()
    version = serializers.IntegerField()


class WinningTeamSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


# ------------------------------------------------------------------------------ players, teams


class PlayerSerializer(OnlyItsFields, serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name", "community", "created_at"]
        read_only_fields = ["id", "created_at"]
        # The service checks the name (required, length, unique in its community).
        extra_kwargs = {
            "display_name": {"validators": [], "required": True},
            "community": {"validators": []},
        }
        validators: list[object] = []


class TeamSerializer(OnlyItsFields, serializers.ModelSerializer[Team]):
    player_one = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), error_messages=_missing("player")
    )
    player_two = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), error_messages=_missing("player")
    )
    player_one_name = serializers.CharField(source="player_one.display_name", read_only=True)
    player_two_name = serializers.CharField(source="player_two.display_name", read_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "player_one",
            "player_two",
            "player_one_name",
            "player_two_name",
            "created_at",
        ]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"name": {"required": False, "allow_blank": True}}
        validators: list[object] = []


# ------------------------------------------------------------------------------ games


class GameCreateSerializer(OnlyItsFields):
    """A new game: two teams, who sits where, and the rules."""

    team_a = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(),
        error_messages=_missing("team"),
        help_text="The team at seats 0 and 2.",
    )
    team_b = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(),
        error_messages=_missing("team"),
        help_text="The team at seats 1 and 3.",
    )
    seats = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(
            queryset=Player.objects.all(), error_messages=_missing("player")
        ),
        min_length=4,
        max_length=4,
        required=False,
        help_text="The four players clockwise from seat 0; partners sit opposite (0 and 2, "
        "1 and 3). Default: each team's first player at seats 0 and 1.",
    )
    ruleset_preset = serializers.ChoiceField(
        choices=list(PRESETS),
        required=False,
        help_text="A named ruleset (default: cape-breton-standard): "
        + "; ".join(f"{slug} = {name}" for slug, name in PRESET_NAMES.items())
        + ".",
    )
    ruleset = serializers.DictField(
        required=False,
        help_text="An explicit ruleset (every key optional, defaults are Cape Breton standard): "
        "dealer_may_pass, forced_at, runs_count_for_team, bella_on_first, "
        "half_bait_is_whole_bait, no_trump_allowed, target, both_over, first_dealer, "
        "pass_reveals_kitty.",
    )
    first_dealer = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        allow_null=True,
        help_text="The first dealer if already chosen at the table; else flip later.",
    )
    table = serializers.CharField(required=False, allow_blank=True, max_length=60)
    public = serializers.BooleanField(
        default=True,
        help_text="Anyone may follow the game (the default); false: only its scorekeepers "
        "and directors see it.",
    )
    scorekeepers = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(),
        error_messages=_missing("user"),
        many=True,
        required=False,
        help_text="Accounts that may enter hands besides you (you are one already).",
    )


class GamePublicSerializer(OnlyItsChanges):
    """Who may follow a game."""

    #: The one key of its PATCH: a body without it is refused (the schema says so).
    whole_on_patch = True

    public = serializers.BooleanField(
        help_text="true: anyone may follow the game; false: only its scorekeepers and directors."
    )


class GameListSerializer(serializers.ModelSerializer[Game]):
    """One game in a list: who plays, the score, and whether it is over."""

    team_a_name = serializers.CharField(source="team_a.name", read_only=True)
    team_b_name = serializers.CharField(source="team_b.name", read_only=True)
    totals = serializers.SerializerMethodField()
    over = serializers.BooleanField(source="is_over", read_only=True)
    pending_disputes = serializers.IntegerField(read_only=True, default=0)
    winner = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "table",
            "public",
            "status",
            "team_a",
            "team_a_name",
            "team_b",
            "team_b_name",
            "totals",
            "hands_played",
            "totals_only",
            "next_dealer",
            "forced_seat",
            "over",
            "winner",
            "pending_disputes",
            "ruleset_preset",
            "version",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields

    @extend_schema_field(SidesSerializer)
    def get_totals(self, game: Game) -> dict[str, int]:
        return {"team_a": game.score_a, "team_b": game.score_b}

    @extend_schema_field(serializers.ChoiceField(choices=Side.choices, allow_null=True))
    def get_winner(self, game: Game) -> str | None:
        return game.winner or None


#: A seat is its number (0-3) wherever a game names one; ``seats`` says who sits there.
_NEXT_DEALER_HELP = (
    "The seat that deals the next hand (its player is `seats[n]` of the game), or null once "
    "the game is over."
)
_FORCED_SEAT_HELP = "The seat that must name trump if the call goes round to it, or null."


class GameSerializer(serializers.Serializer[Any]):
    """A game as a score-pad shows it (from :func:`scoring.selectors.game_state`): the running
    score, whose deal it is, who is forced to call, whether it is over and who won, and the
    ruleset in plain words. The pad needs no rules of its own."""

    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Also the ETag of this game.")
    table = serializers.CharField()
    public = serializers.BooleanField(
        help_text="Anyone may follow the game; false: only its scorekeepers and directors."
    )
    status = serializers.ChoiceField(choices=Game.Status.choices)
    status_label = serializers.CharField()
    over = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    winning_team = WinningTeamSerializer(allow_null=True)
    ended_reason = serializers.CharField(allow_blank=True)
    teams = TeamsAtTableSerializer()
    seats = SeatSerializer(many=True)
    totals = SidesSerializer()
    target = serializers.IntegerField()
    hands_played = serializers.IntegerField()
    totals_only = serializers.BooleanField(
        help_text="Played on paper and recorded by its final totals only: it has no hands."
    )
    hands = RunningHandSerializer(many=True, help_text="The running score, hand by hand.")
    first_dealer = serializers.ChoiceField(
        choices=SEAT_CHOICES,
        allow_null=True,
        help_text="The seat that dealt the first hand (its player is `seats[n]`), or null "
        "while it is not chosen.",
    )
    first_dealer_method = serializers.CharField(allow_blank=True)
    first_dealer_flips = serializers.ListField(
        child=serializers.ListField(), help_text="The cards turned: [[seat, card], ...]."
    )
    next_hand = serializers.IntegerField(allow_null=True)
    next_dealer = serializers.ChoiceField(
        choices=SEAT_CHOICES, allow_null=True, help_text=_NEXT_DEALER_HELP
    )
    forced_seat = serializers.ChoiceField(
        choices=SEAT_CHOICES, allow_null=True, help_text=_FORCED_SEAT_HELP
    )
    forced_team = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    ruleset_preset = serializers.CharField()
    ruleset = serializers.DictField()
    ruleset_described = RuleInWordsSerializer(
        many=True,
        help_text="Each switch of the ruleset in words, for people to read, in the language "
        "of the request (`Accept-Language`; English otherwise). `ruleset` is the same "
        "rules for programs.",
    )
    scorekeepers = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        game, state = instance
        return {
            "id": game.pk,
            **state,
            "table": game.table,
            "public": game.public,
            "scorekeepers": [user.get_username() for user in game.scorekeepers.all()],
            "created_at": serializers.DateTimeField().to_representation(game.created_at),
            "finished_at": (
                None
                if game.finished_at is None
                else serializers.DateTimeField().to_representation(game.finished_at)
            ),
        }


class GameScoreSerializer(serializers.Serializer[Game]):
    """The game's score line after a change, as the services stored it."""

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    over = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    totals = SidesSerializer()
    hands_played = serializers.IntegerField()
    next_hand = serializers.IntegerField(allow_null=True)
    next_dealer = serializers.ChoiceField(
        choices=SEAT_CHOICES, allow_null=True, help_text=_NEXT_DEALER_HELP
    )
    forced_seat = serializers.ChoiceField(
        choices=SEAT_CHOICES, allow_null=True, help_text=_FORCED_SEAT_HELP
    )

    def to_representation(self, instance: Game) -> dict[str, Any]:
        return game_score(instance)


def game_score(game: Game) -> dict[str, Any]:
    """:class:`GameScoreSerializer`'s answer, written out rather than built field by field:
    it answers every hand entered."""
    over = game.is_over
    return {
        "id": game.pk,
        "version": game.version,
        "status": game.status,
        "over": over,
        "winner": game.winner or None,
        "totals": {"team_a": game.score_a, "team_b": game.score_b},
        "hands_played": game.hands_played,
        "next_hand": None if over else game.hands_played + 1,
        "next_dealer": game.next_dealer,
        "forced_seat": game.forced_seat,
    }


class FirstDealerSerializer(OnlyItsFields):
    seat = serializers.IntegerField(
        min_value=0, max_value=3, help_text="The seat chosen at the table to deal first."
    )


class ReasonSerializer(OnlyItsFields):
    reason = serializers.CharField(help_text="Why, in a few words (kept with the game).")


class OptionalReasonSerializer(OnlyItsFields):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


# ------------------------------------------------------------------------------ hands

_ENTRY_KIND_HELP = (
    '"summary" (the score-sheet line) or "tricks" (the full record of the hand). The other '
    "keys of the body are the entry itself, kept exactly as sent."
)


class RunShownSerializer(DocumentedKeys):
    seat = SEAT
    kind = serializers.ChoiceField(choices=RUN_KIND_CHOICES)
    suit = serializers.ChoiceField(choices=TRUMP_CHOICES)
    top = serializers.CharField(
        help_text='The top card, "QS"; its rank alone ("6".."10", "J", "Q", "K", "A") also reads.'
    )


class MisplayCallSerializer(DocumentedKeys):
    called_by = SEAT
    proven = serializers.BooleanField()
    accused = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=3,
        help_text="The seat said to have misplayed (an opponent of the caller), if noted.",
    )


class RunCountSerializer(DocumentedKeys):
    twenties = serializers.IntegerField(
        required=False, min_value=0, max_value=3, help_text="Twenties shown (default 0)."
    )
    fifties = serializers.IntegerField(
        required=False, min_value=0, max_value=2, help_text="Fifties shown (default 0)."
    )


class CardPointsOfOneTeamSerializer(serializers.Serializer[Any]):
    team = serializers.ChoiceField(choices=Side.choices)
    points = serializers.IntegerField(help_text="That team's count; the other is derived.")


#: Whose deal it is, sent as a check (the engine knows it and refuses another seat).
_DEALER_HELP = "Optional check: the seat dealing this hand; the engine knows whose deal it is."


class SummaryEntrySerializer(DocumentedKeys):
    """A hand as a paper score-sheet holds it: the keys of its entry, and no other (the engine
    reads and checks their values)."""

    entry_kind = serializers.ChoiceField(choices=["summary"], help_text=_ENTRY_KIND_HELP)
    number = serializers.IntegerField(
        required=False, min_value=1, help_text="The hand's number; default: the next one."
    )
    caller = serializers.IntegerField(
        allow_null=True, min_value=0, max_value=3, help_text="The calling seat; null: all passed."
    )
    trump = serializers.ChoiceField(
        choices=TRUMP_CHOICES,
        allow_null=True,
        help_text="C, D, H or S; null with a caller is no trump (when the rules allow it).",
    )
    card_points = serializers.JSONField(
        required=False,
        help_text="Both teams' card points [team A, team B], or one team's count {\"team\": "
        '"team_b", "points": 70} (the other is derived). Omit for a void or misplay hand. A '
        "thrown-in hand gives both teams' points as won when it was thrown in.",
    )
    runs = RunShownSerializer(
        many=True,
        required=False,
        help_text="The runs shown, with suit and top card. The runs are given one way: runs, "
        "run_counts or run_points.",
    )
    run_counts = RunCountSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text="How many twenties and fifties each player showed, four entries, seat 0 "
        'first: [{"twenties": 0, "fifties": 1}, {}, {"twenties": 1}, {}]. The engine works out '
        "who counts (the only player whose best run is of the best kind: a fifty beats any "
        "twenty) and refuses counts that cannot tell (two players' best runs of one kind).",
    )
    run_points = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        help_text="Run points per team when the runs themselves were not noted.",
    )
    bella_seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    misplay = MisplayCallSerializer(required=False, allow_null=True)
    thrown_in_by = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3
    )
    dealer = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3, help_text=_DEALER_HELP
    )


class TricksEntrySerializer(DocumentedKeys):
    """A hand as the full record of its nine tricks: the keys of its entry, and no other (the
    engine reads and checks their values)."""

    entry_kind = serializers.ChoiceField(choices=["tricks"], help_text=_ENTRY_KIND_HELP)
    number = serializers.IntegerField(required=False, min_value=1)
    caller = serializers.IntegerField(allow_null=True, min_value=0, max_value=3)
    trump = serializers.ChoiceField(choices=TRUMP_CHOICES, allow_null=True)
    tricks = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text='The tricks in play order, each from its leader: [["8S","9C","10S","KS"], ...].',
    )
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        allow_null=True,
        help_text="The deal (four hands of nine cards, seat 0 first), if known.",
    )
    runs = RunShownSerializer(many=True, required=False)
    bella_seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    thrown_in_by = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3
    )
    misplay = MisplayCallSerializer(required=False, allow_null=True)
    dealer = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3, help_text=_DEALER_HELP
    )
    leaders = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3),
        required=False,
        allow_null=True,
        help_text="Optional check: the seat that led each trick, in order. The engine derives "
        "them (the player left of the dealer leads the first trick, the winner of each trick "
        "the next) and refuses any other.",
    )


#: A hand's entry in each way of entering it, and the keys of each (what the engine reads).
ENTRY_SHAPES: dict[str, type[serializers.Serializer[Any]]] = {
    "summary": SummaryEntrySerializer,
    "tricks": TricksEntrySerializer,
}
#: The object form of ``card_points`` (one team's count).
_ENTRY_OBJECTS = {"card_points": frozenset({"team", "points"})}


def refuse_keys_of_no_entry(data: Any, entry_kind: str, *, correction: bool = False) -> None:
    """Refuse (400 ``unknown_field``, naming each) a key of a hand's body that no entry of
    ``entry_kind`` documents, at any depth (``misplay.by``, ``runs.0.colour``): what the
    schema declares, the API takes, and nothing else."""
    shapes = CORRECTION_SHAPES if correction else ENTRY_SHAPES
    shape = shapes.get(entry_kind)
    if shape is not None:
        refuse_undocumented_keys(data, shape, _ENTRY_OBJECTS)


_NOT_AN_ENTRY_KIND = '"{input}" is not a way to enter a hand: give "summary" or "tricks"'


class HandEnvelopeSerializer(serializers.Serializer[Any]):
    """The keys of a hand body that are not the entry."""

    entry_kind = serializers.ChoiceField(
        choices=Hand.EntryKind.choices,
        error_messages={"invalid_choice": _NOT_AN_ENTRY_KIND},
    )
    number = WholeNumberField(required=False, min_value=1, allow_null=True)

    @classmethod
    def validated(cls, data: Any) -> dict[str, Any]:
        """What ``is_valid`` gives for ``data``, without making a serializer when the envelope
        is plainly right (a known entry kind, the number absent, null or a whole number from
        1), as on every hand entered; anything else goes through the serializer, whose
        errors say what is wrong."""
        if isinstance(data, Mapping):
            kind, number = data.get("entry_kind"), data.get("number")
            if (
                isinstance(kind, str)
                and kind in _ENTRY_KINDS
                and (number is None or (type(number) is int and number >= 1))
            ):
                return (
                    {"entry_kind": kind, "number": number}
                    if "number" in data
                    else {"entry_kind": kind}
                )
        envelope = cls(data=data)
        envelope.is_valid(raise_exception=True)
        return dict(envelope.validated_data)


_ENTRY_KINDS = frozenset(Hand.EntryKind.values)


_CORRECTION_KIND_HELP = '"summary" or "tricks"; default: the way the hand was entered.'
_CORRECTION_REASON_HELP = "Why the hand is corrected (kept with the new version)."


class HandCorrectEnvelopeSerializer(serializers.Serializer[Any]):
    """The keys of a correction that are not the entry."""

    entry_kind = serializers.ChoiceField(
        choices=Hand.EntryKind.choices,
        required=False,
        error_messages={"invalid_choice": _NOT_AN_ENTRY_KIND},
        help_text=_CORRECTION_KIND_HELP,
    )
    reason = serializers.CharField(help_text=_CORRECTION_REASON_HELP)


class SummaryCorrectionSerializer(HandCorrectEnvelopeSerializer, SummaryEntrySerializer):
    """A correction to a summary: the keys of entering it but ``number`` (the hand is the one
    in the address), and the reason for the change."""

    number = None  # type: ignore[assignment]


class TricksCorrectionSerializer(HandCorrectEnvelopeSerializer, TricksEntrySerializer):
    """A correction to a tricks record: the keys of entering it but ``number``, and the
    reason for the change."""

    number = None  # type: ignore[assignment]


CORRECTION_SHAPES: dict[str, type[serializers.Serializer[Any]]] = {
    "summary": SummaryCorrectionSerializer,
    "tricks": TricksCorrectionSerializer,
}


class HandSerializer(serializers.Serializer[Hand]):
    """A hand: the entry as entered, and beside it what the engine made of it."""

    number = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Also the ETag of this hand.")
    undone = serializers.BooleanField()
    entry_kind = serializers.ChoiceField(choices=Hand.EntryKind.choices)
    entry = serializers.JSONField(help_text="The entry exactly as it was sent.")
    dealer = serializers.ChoiceField(choices=SEAT_CHOICES)
    caller = serializers.ChoiceField(choices=SEAT_CHOICES, allow_null=True)
    trump = serializers.ChoiceField(choices=TRUMP_CHOICES, allow_null=True)
    outcome = serializers.ChoiceField(choices=Hand.OUTCOME_CHOICES)
    outcome_label = serializers.CharField()
    points = SidesSerializer(help_text="What each team scores for the hand.")
    card_points = SidesSerializer()
    run_points = SidesSerializer()
    bella_points = SidesSerializer()
    runs_counted_by = serializers.ChoiceField(choices=SEAT_CHOICES, allow_null=True)
    bella_seat = serializers.ChoiceField(choices=SEAT_CHOICES, allow_null=True)
    hand_total = serializers.IntegerField()
    running = SidesSerializer(help_text="The game's score after this hand.")
    result = serializers.JSONField(help_text="The engine's result of the hand, in full.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def to_representation(self, instance: Hand) -> dict[str, Any]:
        return hand_fields(instance)


def hand_fields(hand: Hand) -> dict[str, Any]:
    """:class:`HandSerializer`'s answer, written out rather than built field by field: it
    answers every hand entered."""
    return {
        "number": hand.number,
        "version": hand.version,
        "undone": hand.undone,
        "entry_kind": hand.entry_kind,
        "entry": hand.entry,
        "dealer": hand.dealer,
        "caller": hand.caller,
        "trump": hand.trump or None,
        "outcome": hand.outcome,
        "outcome_label": Outcome(hand.outcome).label,
        "points": {"team_a": hand.points_a, "team_b": hand.points_b},
        "card_points": {"team_a": hand.card_points_a, "team_b": hand.card_points_b},
        "run_points": {"team_a": hand.run_points_a, "team_b": hand.run_points_b},
        "bella_points": {
            "team_a": hand.bella_points_a,
            "team_b": hand.bella_points_b,
        },
        "runs_counted_by": hand.runs_counted_by,
        "bella_seat": hand.bella_seat,
        "hand_total": hand.hand_total,
        "running": {"team_a": hand.running_a, "team_b": hand.running_b},
        "result": hand.result,
        "created_at": _DATETIME.to_representation(hand.created_at),
        "updated_at": _DATETIME.to_representation(hand.updated_at),
    }


class HandWithGameSerializer(HandSerializer):
    """A hand just entered or changed, with the game's score line after it (the game is
    given in the context)."""

    game = GameScoreSerializer()

    def to_representation(self, instance: Hand) -> dict[str, Any]:
        return hand_with_game(instance, self.context["game"])


def hand_with_game(hand: Hand, game: Game) -> dict[str, Any]:
    """:class:`HandWithGameSerializer`'s answer, with no serializer made (every hand
    entered)."""
    return {**hand_fields(hand), "game": game_score(game)}


class HandRevisionSerializer(serializers.ModelSerializer[HandRevision]):
    changed_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="Who made this version (their account), or null when not known.",
    )

    class Meta:
        model = HandRevision
        fields = [
            "version",
            "action",
            "entry_kind",
            "entry",
            "result",
            "reason",
            "changed_by",
            "changed_at",
        ]
        read_only_fields = fields


class DisputeBriefSerializer(serializers.ModelSerializer[MisplayDispute]):
    class Meta:
        model = MisplayDispute
        fields = ["id", "status", "ruling", "called_by", "accused", "trick", "created_at"]
        read_only_fields = fields


class HandDetailSerializer(HandSerializer):
    """A hand with every version it went through and the misplays called on it."""

    revisions = HandRevisionSerializer(many=True)
    disputes = DisputeBriefSerializer(many=True)

    def to_representation(self, instance: Hand) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["revisions"] = HandRevisionSerializer(instance.history(), many=True).data
        data["disputes"] = DisputeBriefSerializer(instance.disputes.all(), many=True).data
        return data


# ------------------------------------------------------------------------------ disputes


class DisputeCreateSerializer(OnlyItsFields):
    called_by = serializers.IntegerField(help_text="The seat that calls the misplay.")
    accused = serializers.IntegerField(help_text="The seat said to have misplayed.")
    trick = serializers.IntegerField(help_text="The trick (1 to 9) of the misplay.")
    proof_card = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text='The card that proves it, if named (e.g. "QH").',
    )
    evidence = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="The trick record as evidence (tricks, deal if known...). Omit for a hand "
        "entered as tricks: its own record is the evidence.",
    )


class DisputeRulingSerializer(OnlyItsFields):
    ruling = serializers.ChoiceField(
        choices=[MisplayDispute.Ruling.UPHELD, MisplayDispute.Ruling.OVERRULED],
        help_text="upheld: the engine's verdict stands; overruled: the opposite is decided.",
    )
    note = serializers.CharField(
        required=False, allow_blank=True, help_text="Why (required to overrule)."
    )


class DisputeSerializer(serializers.ModelSerializer[MisplayDispute]):
    """A misplay dispute: the call, the engine's verdict with its reasons, the director's
    ruling, and what counts for the hand."""

    game = serializers.IntegerField(source="hand.game_id", read_only=True)
    hand_number = serializers.IntegerField(source="hand.number", read_only=True)
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    ruled_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="The director who ruled (their account), or null before a ruling.",
    )
    decision = serializers.BooleanField(
        read_only=True,
        allow_null=True,
        help_text="Whether the misplay counts as proven for the hand (null: decides nothing).",
    )

    class Meta:
        model = MisplayDispute
        fields = [
            "id",
            "version",
            "game",
            "hand_number",
            "called_by",
            "accused",
            "trick",
            "proof_card",
            "evidence",
            "status",
            "status_label",
            "verdict",
            "reason",
            "adjudicated_at",
            "ruling",
            "ruling_note",
            "ruled_by",
            "ruled_at",
            "decision",
            "created_at",
        ]
        read_only_fields = fields
