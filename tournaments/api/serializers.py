"""Serializers of the tournaments API: input envelopes (types only) and output shapes.

Nothing here decides anything about a tournament: the services validate and refuse, the
selectors load; these only read requests and show what is stored.
"""

from typing import Any

from rest_framework import serializers

from scoring.engine import PRESETS
from scoring.engine.game import FINAL_TOTAL_MAX
from scoring.models import MisplayDispute
from tarabish_site.api.routes import ID_MAX
from tarabish_site.api.serializers import OnlyItsChanges, OnlyItsFields
from tournaments.algorithms.standings import TIEBREAKERS
from tournaments.models import (
    POOLS_MAX,
    QUALIFIERS_PER_POOL_MAX,
    SEED_MAX,
    STANDING_FIELDS,
    SWISS_ROUNDS_MAX,
    Entry,
    Match,
    MatchGame,
    PlayerRating,
    RatingChange,
    ResultReport,
    Round,
    Stage,
    Standing,
    TeamRegistration,
    Tournament,
    TournamentEvent,
)


# ------------------------------------------------------------------------------ tournaments
class DirectorAccountSerializer(serializers.Serializer[Any]):
    """An account directing a tournament (its id names it in ``directors/{user_id}/``)."""

    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


class TournamentEventSerializer(serializers.ModelSerializer[TournamentEvent]):
    by = serializers.CharField(source="by.username", default=None, read_only=True)

    class Meta:
        model = TournamentEvent
        fields = ["kind", "reason", "by", "at"]
        read_only_fields = fields


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    organiser = serializers.CharField(source="organiser.username", default=None, read_only=True)
    directors = DirectorAccountSerializer(
        many=True,
        read_only=True,
        help_text="Who directs it (besides its organiser) and so its match games.",
    )
    entry_count = serializers.IntegerField(read_only=True, required=False)
    stage_count = serializers.IntegerField(read_only=True, required=False)
    history = TournamentEventSerializer(
        source="events",
        many=True,
        read_only=True,
        help_text="Each time it was finished or reopened (a reopening says why).",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "venue",
            "starts_on",
            "ends_on",
            "organiser",
            "directors",
            "status",
            "public",
            "ruleset_preset",
            "ruleset",
            "match_format",
            "match_games",
            "substitutes_allowed",
            "seed_by_rating",
            "check_in_required",
            "quick_results_by_scorekeepers",
            "results_confirmed_by_both",
            "entry_cap",
            "self_registration",
            "registration_opens_at",
            "registration_closes_at",
            "version",
            "entry_count",
            "stage_count",
            "finished_at",
            "history",
        ]
        read_only_fields = fields


class TournamentCreateSerializer(OnlyItsFields):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(
        max_length=80, required=False, help_text="Omitted: made from the name."
    )
    venue = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, default=None)
    ruleset_preset = serializers.ChoiceField(
        choices=list(PRESETS), required=False, default="cape-breton-standard"
    )
    ruleset = serializers.DictField(
        required=False,
        default=None,
        help_text="A custom ruleset (engine fields); overrides ruleset_preset.",
    )
    match_format = serializers.ChoiceField(
        choices=Tournament.MatchFormat.choices, required=False, default="best_of"
    )
    match_games = serializers.IntegerField(min_value=1, max_value=9, required=False, default=1)
    public = serializers.BooleanField(required=False, default=True)
    substitutes_allowed = serializers.BooleanField(required=False, default=False)
    seed_by_rating = serializers.BooleanField(required=False, default=False)
    check_in_required = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Teams check in on the day; otherwise every team registered is checked in.",
    )
    entry_cap = serializers.IntegerField(
        min_value=2,
        max_value=SEED_MAX,
        required=False,
        default=None,
        allow_null=True,
        help_text="The most teams that play; those registered beyond it wait on a waiting "
        "list, promoted in order of registration when a team withdraws or misses check-in.",
    )
    quick_results_by_scorekeepers = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A table's scorekeeper may record a game played on paper by its final "
        "totals (directors always may).",
    )
    results_confirmed_by_both = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A player of either team reports a match's result by its games' totals; "
        "it counts once a player of the other team or a director confirms it.",
    )
    self_registration = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Signed-in players register their own teams (a player names a partner, who "
        "confirms) while the registration window is open; the cap and waiting list apply.",
    )
    registration_opens_at = serializers.DateTimeField(
        required=False,
        default=None,
        allow_null=True,
        help_text="Teams register themselves from then; null: at once.",
    )
    registration_closes_at = serializers.DateTimeField(
        required=False,
        default=None,
        allow_null=True,
        help_text="Teams register themselves until then; null: until play starts. After "
        "registration_opens_at.",
    )


class TournamentUpdateSerializer(OnlyItsChanges):
    name = serializers.CharField(max_length=200, required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)
    public = serializers.BooleanField(required=False)
    substitutes_allowed = serializers.BooleanField(required=False)
    seed_by_rating = serializers.BooleanField(required=False)
    check_in_required = serializers.BooleanField(required=False)
    quick_results_by_scorekeepers = serializers.BooleanField(required=False)
    results_confirmed_by_both = serializers.BooleanField(
        required=False,
        help_text="A player of either team reports a match's result by its games' totals; "
        "it counts once a player of the other team or a director confirms it.",
    )
    entry_cap = serializers.IntegerField(
        min_value=2, max_value=SEED_MAX, required=False, allow_null=True
    )
    match_format = serializers.ChoiceField(choices=Tournament.MatchFormat.choices, required=False)
    match_games = serializers.IntegerField(min_value=1, max_value=9, required=False)
    ruleset_preset = serializers.ChoiceField(choices=list(PRESETS), required=False)
    ruleset = serializers.DictField(required=False)
    self_registration = serializers.BooleanField(
        required=False,
        help_text="Signed-in players register their own teams (a player names a partner, who "
        "confirms) while the registration window is open; the cap and waiting list apply.",
    )
    registration_opens_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="Teams register themselves from then; null: at once.",
    )
    registration_closes_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="Teams register themselves until then; null: until play starts. After "
        "registration_opens_at.",
    )


# ------------------------------------------------------------------------------ registrations
class TeamRegistrationCreateSerializer(OnlyItsFields):
    partner = serializers.CharField(
        max_length=150, help_text="The partner's username: they confirm the team."
    )
    team_name = serializers.CharField(
        max_length=120,
        required=False,
        default="",
        allow_blank=True,
        help_text="Empty: the two players' names (a pair that is a team already keeps its name).",
    )
    community = serializers.CharField(
        max_length=100,
        required=False,
        default="",
        allow_blank=True,
        help_text="Home community, for a player made for an account that has none.",
    )


class TeamRegistrationSerializer(serializers.ModelSerializer[TeamRegistration]):
    tournament = serializers.CharField(source="tournament.slug", read_only=True)
    tournament_name = serializers.CharField(source="tournament.name", read_only=True)
    requested_by = serializers.CharField(
        source="requested_by.username", read_only=True, help_text="Who registered the team."
    )
    partner = serializers.CharField(
        source="partner.username", read_only=True, help_text="The partner named: they confirm."
    )
    entry = serializers.IntegerField(
        source="entry_id",
        read_only=True,
        allow_null=True,
        help_text="The entry made once confirmed (null before).",
    )

    class Meta:
        model = TeamRegistration
        fields = [
            "id",
            "tournament",
            "tournament_name",
            "requested_by",
            "partner",
            "team_name",
            "community",
            "status",
            "entry",
            "created_at",
            "decided_at",
        ]
        read_only_fields = fields


# ------------------------------------------------------------------------------ entries
class SubstitutePlayerSerializer(serializers.Serializer[Any]):
    """A player registered to stand in for either player of an entry."""

    id = serializers.IntegerField(read_only=True)
    display_name = serializers.CharField(read_only=True)


class EntrySerializer(serializers.ModelSerializer[Entry]):
    team_name = serializers.CharField(source="team.name", read_only=True)
    display_name = serializers.CharField(
        read_only=True,
        help_text="The team's name as the tournament shows it: the name alone, or, where "
        "another team registered the same name, with its community or a number.",
    )
    players = serializers.SerializerMethodField()
    substitutes = SubstitutePlayerSerializer(
        many=True,
        read_only=True,
        help_text="The players registered to stand in for either player (by name).",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "team",
            "team_name",
            "display_name",
            "players",
            "substitutes",
            "seed",
            "status",
            "checked_in",
            "checked_in_at",
            "withdrawn_at",
            "withdrawal_note",
            "final_place",
            "version",
        ]
        read_only_fields = fields

    def get_players(self, entry: Entry) -> list[str]:
        return [entry.team.player_one.display_name, entry.team.player_two.display_name]


class EntryCreateSerializer(OnlyItsFields):
    team = serializers.IntegerField(min_value=1, max_value=ID_MAX, help_text="The team's id.")
    seed = serializers.IntegerField(min_value=1, max_value=SEED_MAX, required=False, default=None)


class CheckInSerializer(OnlyItsFields):
    checked_in = serializers.BooleanField(required=False, default=True)


class WithdrawSerializer(OnlyItsFields):
    forfeit_remaining = serializers.BooleanField(
        required=False,
        default=True,
        help_text="Forfeit the entry's unfinished matches to the opponents (true), or set them "
        "aside as not played (false; bracket matches are always forfeited).",
    )
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class SubstituteSerializer(OnlyItsFields):
    player = serializers.IntegerField(min_value=1, max_value=ID_MAX)


class DirectorSerializer(OnlyItsFields):
    user = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="The account to name a director."
    )


class ReopenSerializer(OnlyItsFields):
    reason = serializers.CharField(
        max_length=500, help_text="Why the tournament is reopened (kept in its history)."
    )


class CsvImportSerializer(OnlyItsFields):
    csv = serializers.CharField(
        help_text="CSV text with a header: team, player_one, player_two, community, seed "
        "(player_one and player_two required).",
        trim_whitespace=False,
    )


class BulkEntrySerializer(OnlyItsFields):
    entries = serializers.ListField(
        child=serializers.JSONField(),
        min_length=1,
        max_length=4096,
        help_text="Teams to register, each {player_one, player_two} with an optional team "
        "(name), community and seed; all are registered or none.",
    )


class SeedSerializer(OnlyItsFields):
    method = serializers.ChoiceField(
        choices=["as_entered", "rating", "random", "order"],
        help_text="as_entered (order of registration), rating (strongest first), random, or "
        "order (the ids in `order`, seed 1 first).",
    )
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        default=list,
        help_text="With method order: every active entry's id, seed 1 first.",
    )


class ImportReportSerializer(serializers.Serializer[Any]):
    rows = serializers.IntegerField()
    created = EntrySerializer(many=True)


# ------------------------------------------------------------------------------ stages
class StageSerializer(serializers.ModelSerializer[Stage]):
    tiebreakers_in_effect = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The tie-breakers that order the table (the stage's own or the default).",
    )
    swiss_pairing_rule = serializers.CharField(
        source="get_swiss_pairing_display",
        read_only=True,
        help_text="How a Swiss stage pairs its rounds, in words.",
    )
    match_format = serializers.ChoiceField(
        choices=Tournament.MatchFormat.choices,
        allow_blank=True,
        read_only=True,
        help_text="Empty: the tournament's match format.",
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "order",
            "name",
            "kind",
            "status",
            "pool_count",
            "legs",
            "swiss_rounds",
            "swiss_pairing",
            "swiss_pairing_rule",
            "third_place",
            "grand_final",
            "qualifiers_per_pool",
            "tiebreakers",
            "tiebreakers_in_effect",
            "match_format",
            "match_games",
            "standings_computed_at",
            "started_at",
            "finished_at",
            "version",
        ]
        read_only_fields = fields


class StageCreateSerializer(OnlyItsFields):
    kind = serializers.ChoiceField(choices=Stage.Kind.choices)
    name = serializers.CharField(
        max_length=100,
        required=False,
        help_text=(
            "Omitted: numbered and named after its kind, in the request's language "
            '(Accept-Language): "Stage 2: Single elimination".'
        ),
    )
    pool_count = serializers.IntegerField(
        min_value=1, max_value=POOLS_MAX, required=False, default=1
    )
    legs = serializers.IntegerField(min_value=1, max_value=2, required=False, default=1)
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=SWISS_ROUNDS_MAX, required=False, default=None
    )
    swiss_pairing = serializers.ChoiceField(
        choices=Stage.SwissPairing.choices,
        required=False,
        default="dutch",
        help_text="Swiss: dutch (top half of each score group against its bottom half) or "
        "neighbours (1 v 2, 3 v 4).",
    )
    third_place = serializers.BooleanField(required=False, default=False)
    grand_final = serializers.ChoiceField(
        choices=Stage.GrandFinal.choices, required=False, default="reset"
    )
    qualifiers_per_pool = serializers.IntegerField(
        min_value=1, max_value=QUALIFIERS_PER_POOL_MAX, required=False, default=None
    )
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAKERS)), required=False, default=list
    )
    match_format = serializers.ChoiceField(
        choices=Tournament.MatchFormat.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="Empty: the tournament's match format.",
    )
    match_games = serializers.IntegerField(
        min_value=1, max_value=9, required=False, default=None, allow_null=True
    )


class RoundSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "side", "number", "name"]
        read_only_fields = fields


# ------------------------------------------------------------------------------ matches
class MatchEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    seed = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField(source="team.name")


class MatchGameSerializer(serializers.ModelSerializer[MatchGame]):
    status = serializers.CharField(source="game.status")
    winner = serializers.CharField(source="game.winner")
    score = serializers.SerializerMethodField()
    totals_only = serializers.BooleanField(
        source="game.totals_only",
        help_text="Played on paper and recorded by its final totals only (no hands).",
    )

    class Meta:
        model = MatchGame
        fields = [
            "number",
            "game",
            "discarded",
            "discarded_reason",
            "status",
            "winner",
            "score",
            "totals_only",
        ]
        read_only_fields = fields

    def get_score(self, link: MatchGame) -> list[int]:
        return [link.game.score_a, link.game.score_b]


class MatchSerializer(serializers.ModelSerializer[Match]):
    stage = serializers.IntegerField(source="stage_id")
    round = RoundSerializer()
    pool = serializers.CharField(source="pool.name", default=None, allow_null=True)
    home = MatchEntrySerializer(allow_null=True)
    away = MatchEntrySerializer(allow_null=True)
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    format = serializers.CharField(help_text="best_of or fixed (copied from the tournament).")

    class Meta:
        model = Match
        fields = [
            "id",
            "stage",
            "round",
            "pool",
            "number",
            "key",
            "table",
            "state",
            "format",
            "games_planned",
            "home",
            "away",
            "home_source",
            "away_source",
            "bye",
            "forfeit",
            "winner",
            "home_games",
            "away_games",
            "home_points",
            "away_points",
            "home_baits",
            "away_baits",
            "held_reason",
            "version",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class MatchDetailSerializer(MatchSerializer):
    games = MatchGameSerializer(source="match_games", many=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "games"]
        read_only_fields = fields


class GameStartSerializer(OnlyItsFields):
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, required=False, default=None)
    seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        min_length=4,
        max_length=4,
        required=False,
        default=None,
        help_text="The four player ids clockwise from seat 0 (home team at seats 0 and 2).",
    )


class QuickResultSerializer(OnlyItsFields):
    home_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The home team's final total."
    )
    away_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The away team's final total."
    )
    winner = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        required=False,
        default=None,
        help_text="The entry that won: needed only when the totals cannot say (both over the "
        "target under the caller's rule); otherwise, if given, it must agree with them.",
    )
    seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        min_length=4,
        max_length=4,
        required=False,
        default=None,
        help_text="The four player ids clockwise from seat 0 (home team at seats 0 and 2).",
    )


class ReportedGameSerializer(OnlyItsFields):
    home_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The home team's final total."
    )
    away_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The away team's final total."
    )
    winner = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        required=False,
        default=None,
        allow_null=True,
        help_text="The entry that won: needed only when the totals cannot say (both over the "
        "target under the caller's rule); otherwise, if given, it must agree with them.",
    )


class ResultReportCreateSerializer(OnlyItsFields):
    games = ReportedGameSerializer(
        many=True,
        allow_empty=False,
        help_text="Every game of the match in order, each by its final totals: they must "
        "decide the match, and no game after that.",
    )


class ResultReportDisputeSerializer(OnlyItsFields):
    reason = serializers.CharField(
        max_length=500, help_text="What is wrong with the result reported: a director reads it."
    )


class ResultReportGameSerializer(serializers.Serializer[Any]):
    home_points = serializers.IntegerField(read_only=True)
    away_points = serializers.IntegerField(read_only=True)
    winner = serializers.IntegerField(read_only=True, allow_null=True)


class ResultReportSerializer(serializers.ModelSerializer[ResultReport]):
    match = serializers.IntegerField(source="match_id", read_only=True)
    games = ResultReportGameSerializer(
        many=True, read_only=True, help_text="The games as reported, in order."
    )
    reported_by = serializers.CharField(
        source="reported_by.username", read_only=True, help_text="Who reported the result."
    )
    side = serializers.ChoiceField(
        choices=ResultReport.Side.choices,
        read_only=True,
        help_text="The side of the player who reported it: a player of the other side "
        "confirms or disputes it.",
    )
    disputed_by = serializers.CharField(
        source="disputed_by.username", read_only=True, allow_null=True, default=None
    )
    decided_by = serializers.CharField(
        source="decided_by.username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = ResultReport
        fields = [
            "id",
            "match",
            "games",
            "side",
            "reported_by",
            "status",
            "dispute_reason",
            "disputed_by",
            "decided_by",
            "created_at",
            "disputed_at",
            "decided_at",
        ]
        read_only_fields = fields


class TotalsCorrectionSerializer(OnlyItsFields):
    home_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The home team's final total."
    )
    away_points = serializers.IntegerField(
        min_value=0, max_value=FINAL_TOTAL_MAX, help_text="The away team's final total."
    )
    winner = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        required=False,
        default=None,
        help_text="The entry that won: needed only when the totals cannot say (both over the "
        "target under the caller's rule); otherwise, if given, it must agree with them.",
    )
    reason = serializers.CharField(
        max_length=500, help_text="Why the totals are corrected (kept with the totals before)."
    )


class ForfeitSerializer(OnlyItsFields):
    loser = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="The entry that forfeits."
    )
    confirm_reset = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Re-open the later matches this result decided, already played.",
    )
    overturn_result = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Overturn a result already decided by play: its games are set aside. "
        "Without it a forfeit of such a match is refused (409 decided_by_play).",
    )


class ConfirmResetSerializer(OnlyItsFields):
    end_game = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        help_text="The id of the game of a later match still being played, which the change "
        "re-opens: it is ended early and the change confirmed in one step. Without it such "
        "a game refuses the confirmation (409 game_in_progress, its message naming the "
        "game); a game that is not (or no longer) the one in the way is refused with 409 "
        "game_changed, and nothing changes.",
    )


# ------------------------------------------------------------------------------ brackets
# The bracket document (tournaments.algorithms.bracket.bracket_document, with each match's row
# added by tournaments.selectors.stage_bracket_document), described for the schema; the view
# answers the document as built, and a test holds its keys to these.
BRACKET_SIDES = [("winners", "winners"), ("losers", "losers"), ("final", "final")]
FEED_OUTCOMES = [("winner", "winner"), ("loser", "loser")]


class SlotSourceSerializer(serializers.Serializer[Any]):
    """Where a slot's entry comes from: a seed, the winner or loser of a match, or a bye."""

    kind = serializers.ChoiceField(choices=["seed", "winner", "loser", "bye"])
    seed = serializers.IntegerField(allow_null=True, help_text="The seed, for `seed`.")
    match = serializers.CharField(
        allow_null=True, help_text="The match's key (`W1-2`), for `winner` and `loser`."
    )


class BracketSlotSerializer(serializers.Serializer[Any]):
    """One of a match's two places: where its entry comes from, and who is there yet."""

    # The document's keys are "source" and "label", names a Field also has.
    source = SlotSourceSerializer()  # type: ignore[assignment]
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="The source in words: `Seed 3`, `Winner W1-2`."
    )
    entry = serializers.IntegerField(allow_null=True, help_text="The entry there, once known.")
    name = serializers.CharField(allow_null=True, help_text="That entry's team.")


class BracketFeedSerializer(serializers.Serializer[Any]):
    """Where the winner or the loser of a match goes next."""

    outcome = serializers.ChoiceField(choices=FEED_OUTCOMES)
    match = serializers.CharField(help_text="The key of the match they go to.")
    slot = serializers.IntegerField(min_value=0, max_value=1)


class BracketMatchSerializer(serializers.Serializer[Any]):
    """A match of the bracket: its place in the drawing and its row's state and score."""

    key = serializers.CharField(help_text="Its name in the bracket: `W1-2`, `L3-1`, `GF1`.")
    side = serializers.ChoiceField(choices=BRACKET_SIDES)
    round = serializers.IntegerField()
    number = serializers.IntegerField()
    reset_of = serializers.CharField(
        allow_null=True, help_text="For a grand-final reset, the grand final it may replay."
    )
    status = serializers.ChoiceField(
        choices=["pending", "ready", "decided", "void"], help_text="Its state in the drawing."
    )
    slots = BracketSlotSerializer(many=True)
    winner_slot = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="The winning entry.")
    loser = serializers.IntegerField(allow_null=True, help_text="The losing entry.")
    feeds = BracketFeedSerializer(many=True)
    id = serializers.IntegerField(help_text="The match's id (`matches/{id}/`).")
    table = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=Match.State.choices)
    forfeit = serializers.BooleanField()
    score = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="Games won: [home, away].",
    )
    points = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="Points scored: [home, away].",
    )
    held_reason = serializers.CharField(allow_blank=True)


class BracketRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    name = serializers.CharField(help_text="`Semi-finals`, `Losers round 2`, `Grand final`...")
    matches = BracketMatchSerializer(many=True)


class BracketSideSerializer(serializers.Serializer[Any]):
    """The winners' bracket, the losers' (double elimination), or the final matches."""

    side = serializers.ChoiceField(choices=BRACKET_SIDES)
    rounds = BracketRoundSerializer(many=True)


class BracketSeedSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)


class BracketStageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Stage.Kind.choices)


class BracketSerializer(serializers.Serializer[Any]):
    """An elimination stage's bracket as a client draws it: sides of rounds of matches, each
    with its two slots, where its winner and loser go, and its state and score."""

    format = serializers.ChoiceField(choices=["single_elimination", "double_elimination"])
    size = serializers.IntegerField(help_text="Places in the first round (a power of two).")
    grand_final = serializers.ChoiceField(
        choices=Stage.GrandFinal.choices,
        allow_null=True,
        help_text="Double elimination's grand final; null in single elimination.",
    )
    third_place = serializers.BooleanField()
    entries = BracketSeedSerializer(many=True)
    sides = BracketSideSerializer(many=True)
    match_count = serializers.IntegerField()
    round_count = serializers.IntegerField()
    champion = serializers.IntegerField(allow_null=True, help_text="The winning entry, at the end.")
    champion_name = serializers.CharField(allow_null=True)
    finished = serializers.BooleanField()
    stage = BracketStageSerializer()


# ------------------------------------------------------------------------------ the day
class DayDisputeSerializer(serializers.Serializer[Any]):
    """A misplay dispute of one of the tournament's games, waiting for a director."""

    id = serializers.IntegerField(source="pk")
    status = serializers.ChoiceField(choices=MisplayDispute.Status.choices)
    ruling = serializers.ChoiceField(choices=MisplayDispute.Ruling.choices)
    game = serializers.IntegerField(source="hand.game_id")
    hand = serializers.IntegerField(source="hand.number")


class DaySerializer(serializers.Serializer[Any]):
    """The director's day at a glance (:func:`tournaments.selectors.director_day`)."""

    tournament = serializers.CharField(source="tournament.slug", help_text="Its slug.")
    entries = serializers.IntegerField(help_text="Entries registered.")
    checked_in = serializers.IntegerField()
    ready = MatchSerializer(many=True, help_text="Matches that can start now.")
    in_progress = MatchSerializer(many=True)
    waiting = serializers.SerializerMethodField(help_text="Matches waiting for their teams.")
    held = MatchSerializer(many=True, help_text="Matches whose changed result waits.")
    disputes = DayDisputeSerializer(many=True)

    def get_waiting(self, day: Any) -> int:
        return len(day.waiting)


# ------------------------------------------------------------------------------ standings
class StandingSerializer(serializers.ModelSerializer[Standing]):
    """One team's row of a stage's standings (a pool's, where the stage has pools): its
    place, and the figures the tie-breakers read."""

    entry = serializers.IntegerField(source="entry_id")
    team_name = serializers.CharField(source="entry.team.name")
    display_name = serializers.CharField(
        source="entry.display_name",
        help_text="The team's name as the tournament shows it (told apart from the same name).",
    )

    class Meta:
        model = Standing
        # The row's figures as the model names them (its pool is the table's, not the row's).
        fields = [
            "place",
            "entry",
            "team_name",
            "display_name",
            *(name for name in STANDING_FIELDS if name not in ("pool", "place")),
        ]
        read_only_fields = fields


class PoolStandingsSerializer(serializers.Serializer[Any]):
    pool = serializers.CharField(source="pool.name", default=None, allow_null=True)
    rows = StandingSerializer(many=True)


# ------------------------------------------------------------------------------ ratings
class RatingSerializer(serializers.ModelSerializer[PlayerRating]):
    player_name = serializers.CharField(source="player.display_name")
    ordinal = serializers.FloatField()

    class Meta:
        model = PlayerRating
        fields = ["player", "player_name", "mu", "sigma", "ordinal", "matches", "updated_at"]
        read_only_fields = fields


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    tournament = serializers.CharField(source="match.stage.tournament.slug")
    ordinal_after = serializers.FloatField()

    class Meta:
        model = RatingChange
        fields = [
            "match",
            "tournament",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "ordinal_after",
            "created_at",
        ]
        read_only_fields = fields


class RatingHistorySerializer(serializers.Serializer[Any]):
    current = RatingSerializer()
    history = RatingChangeSerializer(many=True)
