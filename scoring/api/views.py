"""Views of the scoring API: read the request, call a service or a selector, answer.

Nothing here scores anything: hands are entered, corrected and undone by
:mod:`scoring.services` (which run the engine under a lock on the game) and games are shown
from :func:`scoring.selectors.game_state`. Every POST honours ``Idempotency-Key``; a hand
correction needs ``If-Match`` with the hand's ``ETag``, and an act on a game that already exists
(first dealer, undo, end early, reopen) the game's.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api import examples as ex
from scoring.api.filters import DisputeFilter, GameFilter, PlayerFilter, TeamFilter
from scoring.api.permissions import Director, GameScorekeeper, ReadAnyoneWriteSignedIn
from scoring.api.serializers import (
    DisputeCreateSerializer,
    DisputeRulingSerializer,
    DisputeSerializer,
    FirstDealerSerializer,
    GameCreateSerializer,
    GameListSerializer,
    GamePublicSerializer,
    GameSerializer,
    HandCorrectEnvelopeSerializer,
    HandDetailSerializer,
    HandEnvelopeSerializer,
    HandSerializer,
    HandWithGameSerializer,
    OptionalReasonSerializer,
    PlayerSerializer,
    ReasonSerializer,
    SummaryCorrectionSerializer,
    SummaryEntrySerializer,
    TeamSerializer,
    TricksCorrectionSerializer,
    TricksEntrySerializer,
    hand_with_game,
    refuse_keys_of_no_entry,
)
from scoring.engine import RulesetError
from scoring.models import Game, Hand, MisplayDispute
from tarabish_site.api.errors import NotFound
from tarabish_site.api.idempotency import PendingRecord, idempotent, idempotent_in_write
from tarabish_site.api.schema import LOCATION_HEADER, error_response, error_responses
from tarabish_site.api.versioning import (
    ETAG_RESPONSE_HEADER,
    IF_MATCH,
    IF_MATCH_PARAMETER,
    IF_MATCH_SCHEMA,
    IF_NONE_MATCH_PARAMETER,
    OPTIONAL_IF_MATCH_PARAMETER,
    expected_version,
    not_modified,
    not_modified_response,
    with_etag,
)
from tarabish_site.api.viewsets import ApiViewSet
from tarabish_site.core.models import IdempotencyRecord

if TYPE_CHECKING:
    from django.contrib.auth.models import User

HAND_ENVELOPE_KEYS = frozenset({"entry_kind", "number"})
CORRECTION_ENVELOPE_KEYS = frozenset({"entry_kind", "reason"})
GAME_ID = OpenApiParameter(
    "game_pk", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game's id."
)
#: Undo acts on the game: it needs the game's ETag (from reading the game, or from the last
#: hand's answer, whose ``game.version`` it is), not a hand's.
GAME_IF_MATCH = OpenApiParameter(
    name="If-Match",
    type=IF_MATCH_SCHEMA,
    location=OpenApiParameter.HEADER,
    required=True,
    description='The game\'s `ETag` (or `"<game.version>"` from the last answer), for example '
    '`"7"`. Missing: 428; a hand entered or undone since by another score-pad: 412.',
)
HAND_BODY = PolymorphicProxySerializer(
    component_name="HandEntry",
    serializers={"summary": SummaryEntrySerializer, "tricks": TricksEntrySerializer},
    resource_type_field_name="entry_kind",
)
# A correction's entry_kind may be left out (the hand keeps its way of entry): no discriminator.
HAND_CORRECTION_BODY = PolymorphicProxySerializer(
    component_name="HandCorrection",
    serializers=[SummaryCorrectionSerializer, TricksCorrectionSerializer],
    resource_type_field_name=None,
)


def _by(request: Request) -> "User | None":
    """The signed-in account, for the services' ``by`` (who did it)."""
    return request.user if request.user.is_authenticated else None


def _entry(data: Any, envelope: frozenset[str]) -> dict[str, Any]:
    """The hand entry: the body without its envelope keys, exactly as sent."""
    return {key: value for key, value in dict(data).items() if key not in envelope}


def _visible_game(request: Request, game_id: int, writer: Any = None) -> Game:
    """The game, if the requester may follow it (a private game is not found by anyone else);
    with ``writer`` (the view), also checked against its write permission."""
    game = selectors.game_row(game_id)
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    _check_visible(request, game, writer)
    return game


def _check_visible(request: Request, game: Game, writer: Any = None) -> None:
    """Refuse a game the requester may not follow (as not found), or with ``writer`` (the
    view) may not change."""
    if not services.user_can_see(request.user, game):
        raise NotFound(f"game {game.pk} does not exist")
    if writer is not None:
        writer.check_object_permissions(request, game)


def _game_response(request: Request, game_id: int, status: int = 200) -> Response:
    game = selectors.game_detail(game_id)
    response = Response(GameSerializer((game, selectors.game_state(game))).data, status=status)
    if status == 201:
        response["Location"] = reverse("api:game-detail", kwargs={"pk": game.pk})
    return with_etag(response, game.version)


class JsonApiViewSet(ApiViewSet):
    """JSON in, JSON out (writes are throttled, as in every API view); rows by id."""

    def _create(self, request: Request, make: Callable[[dict[str, Any]], Any]) -> Response:
        """201 with what ``make`` (a service) made of the body the view's serializer reads,
        shown by that serializer, and its address (``api:<basename>-detail``) in
        ``Location``."""
        shape = self.get_serializer_class()
        serializer = shape(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = make(dict(serializer.validated_data))
        response = Response(shape(made).data, status=201)
        response["Location"] = reverse(f"api:{self.basename}-detail", kwargs={"pk": made.pk})
        return response


# ------------------------------------------------------------------------------ players, teams


@extend_schema_view(
    list=extend_schema(summary="List players", tags=["players"]),
    retrieve=extend_schema(
        summary="A player",
        tags=["players"],
        responses={200: PlayerSerializer, **error_responses(404)},
    ),
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, JsonApiViewSet):
    """People who play; a player may be linked to an account."""

    serializer_class = PlayerSerializer
    permission_classes = [ReadAnyoneWriteSignedIn]
    filterset_class = PlayerFilter
    ordering_fields = ["display_name", "created_at"]

    def get_queryset(self) -> Any:
        return selectors.player_list()

    @extend_schema(
        summary="Add a player",
        tags=["players"],
        request=PlayerSerializer,
        parameters=[LOCATION_HEADER],
        responses={201: PlayerSerializer, **error_responses(400, 401, 409, 422, 429)},
        examples=ex.PLAYER,
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._create(
            request,
            lambda data: services.player_create(
                display_name=data["display_name"], community=data.get("community", "")
            ),
        )


@extend_schema_view(
    list=extend_schema(summary="List teams", tags=["teams"]),
    retrieve=extend_schema(
        summary="A team", tags=["teams"], responses={200: TeamSerializer, **error_responses(404)}
    ),
)
class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, JsonApiViewSet):
    """Partnerships of two players; the same pair is always the same team."""

    serializer_class = TeamSerializer
    permission_classes = [ReadAnyoneWriteSignedIn]
    filterset_class = TeamFilter
    ordering_fields = ["name", "created_at"]

    def get_queryset(self) -> Any:
        return selectors.team_list()

    @extend_schema(
        summary="Add a team",
        tags=["teams"],
        request=TeamSerializer,
        parameters=[LOCATION_HEADER],
        responses={201: TeamSerializer, **error_responses(400, 401, 409, 422, 429)},
        examples=ex.TEAM,
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._create(
            request,
            lambda data: services.team_create(
                player_one=data["player_one"],
                player_two=data["player_two"],
                name=data.get("name", ""),
            ),
        )


# ------------------------------------------------------------------------------ games


@extend_schema_view(
    list=extend_schema(summary="List games", tags=["games"], examples=ex.GAME_LIST),
)
class GameViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """Games at the tables: the running score and everything a score-pad shows."""

    serializer_class = GameListSerializer
    permission_classes = [GameScorekeeper]
    filterset_class = GameFilter
    ordering_fields = ["created_at", "status"]

    def get_queryset(self) -> Any:
        return selectors.visible_to(selectors.game_list(), self.request.user)

    def _game_for_write(self, request: Request, pk: str) -> Game:
        return _visible_game(request, int(pk), self)

    def _act(
        self,
        request: Request,
        pk: str,
        act: Callable[[Game, "User | None", int, dict[str, Any]], object],
        body: type[serializers.Serializer[Any]] | None = None,
    ) -> Response:
        """An act on a game the requester may write to, made on the version it read
        (``If-Match``), with the body ``body`` validates; the answer is the game after it."""
        game = self._game_for_write(request, pk)
        version = expected_version(request)
        data: dict[str, Any] = {}
        if body is not None:
            serializer = body(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
        act(game, _by(request), version, data)
        return _game_response(request, game.pk)

    @extend_schema(
        summary="A game as the score-pad shows it",
        tags=["games"],
        parameters=[IF_NONE_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: GameSerializer, 304: None, **error_responses(404)},
        examples=ex.GAME,
    )
    def retrieve(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        game = selectors.game_detail(int(pk))
        if not services.user_can_see(request.user, game):
            raise NotFound(f"game {pk} does not exist")
        if not_modified(request, game.version):
            return not_modified_response(game.version)
        data = GameSerializer((game, selectors.game_state(game))).data
        return with_etag(Response(data), game.version)

    @extend_schema(
        summary="Start a game",
        tags=["games"],
        request=GameCreateSerializer,
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={201: GameSerializer, **error_responses(400, 401, 422, 429)},
        examples=ex.GAME_CREATE,
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            game = services.game_create(
                team_a=data["team_a"],
                team_b=data["team_b"],
                seats=data.get("seats"),
                ruleset=data.get("ruleset"),
                ruleset_preset=data.get("ruleset_preset"),
                first_dealer=data.get("first_dealer"),
                table=data.get("table", ""),
                created_by=_by(request),
                scorekeepers=data.get("scorekeepers", ()),
                public=data["public"],
            )
        except RulesetError as exc:
            raise exc.nested("ruleset") from None
        return _game_response(request, game.pk, status=201)

    @extend_schema(
        summary="Flip for the first dealer",
        operation_id="games_first_dealer_flip",
        description="The engine turns cards by the game's rule (flip for jacks or high card); "
        "the cards turned are in `first_dealer_flips`. Refused once a first dealer is chosen.",
        tags=["games"],
        request=None,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: GameSerializer,
            **error_responses(400, 401, 403, 404, 409, 412, 422, 428, 429),
        },
        examples=ex.GAME_FLIP,
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="flip-first-dealer")
    def flip_first_dealer(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        return self._act(
            request,
            pk,
            lambda game, by, version, _: services.game_first_dealer_flip(
                game=game, by=by, expected_version=version
            ),
        )

    @extend_schema(
        summary="Enter the first dealer chosen at the table",
        operation_id="games_first_dealer_set",
        tags=["games"],
        request=FirstDealerSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 412, 422, 428, 429)},
        examples=ex.FIRST_DEALER,
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="first-dealer")
    def first_dealer(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        return self._act(
            request,
            pk,
            lambda game, by, version, data: services.game_first_dealer_set(
                game=game, seat=data["seat"], by=by, expected_version=version
            ),
            FirstDealerSerializer,
        )

    @extend_schema(
        summary="End the game early",
        operation_id="games_end_early",
        description="Stops a running game before anyone reaches the target; it has no winner.",
        tags=["games"],
        request=ReasonSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 412, 422, 428, 429)},
        examples=ex.END_EARLY,
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="end-early")
    def end_early(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        return self._act(
            request,
            pk,
            lambda game, by, version, data: services.game_end_early(
                game=game, by=by, reason=data["reason"], expected_version=version
            ),
            ReasonSerializer,
        )

    @extend_schema(
        summary="Reopen a finished game (directors)",
        operation_id="games_reopen",
        tags=["games"],
        request=None,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 412, 422, 428, 429)},
        examples=ex.REOPEN,
    )
    @idempotent
    @action(detail=True, methods=["post"], permission_classes=[Director])
    def reopen(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        return self._act(
            request,
            pk,
            lambda game, by, version, _: services.game_reopen(
                game=game, by=by, expected_version=version
            ),
        )

    @extend_schema(
        summary="Make a game public or private",
        description="A private game is seen only by its scorekeepers and directors (anyone "
        "else gets 404); a public one by anyone. Needs `If-Match` with the game's ETag. A "
        "match game is as public as its tournament: 409 `game_owned`.",
        tags=["games"],
        request=GamePublicSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: GameSerializer,
            **error_responses(400, 401, 403, 404, 409, 412, 428, 429),
        },
        examples=ex.GAME_PUBLIC,
    )
    def partial_update(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        return self._act(
            request,
            pk,
            lambda game, by, version, data: services.game_public_set(
                game=game, public=data["public"], by=by, expected_version=version
            ),
            GamePublicSerializer,
        )


# ------------------------------------------------------------------------------ hands


@extend_schema(parameters=[GAME_ID])
@extend_schema_view(
    list=extend_schema(
        summary="The hands of a game",
        tags=["hands"],
        responses={200: HandSerializer(many=True), **error_responses(404)},
    ),
)
class HandViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """The hands of one game, by number (the hands that count; undone ones are left out)."""

    serializer_class = HandSerializer
    permission_classes = [GameScorekeeper]
    lookup_field = "number"
    filter_backends: list[Any] = []

    def _game(self) -> Game:
        return _visible_game(self.request, int(self.kwargs["game_pk"]))

    def _game_for_write(self, request: Request) -> Game:
        return _visible_game(request, int(self.kwargs["game_pk"]), self)

    def _hand(self, number: str) -> Hand:
        hand = selectors.hand_list(game=self._game()).filter(number=number).first()
        if hand is None:
            raise NotFound(f"game {self.kwargs['game_pk']} has no hand {number}")
        return hand

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Hand.objects.none()
        return selectors.hand_list(game=self._game())

    @extend_schema(
        summary="Enter a hand",
        description=(
            "Enter the next hand as the score-sheet line (`entry_kind: summary`) or the full "
            "record of its tricks (`entry_kind: tricks`); the other keys are the entry, kept "
            "as sent, and the engine scores it. Send `number` (the hand you are entering): if "
            "another score-pad entered it first you get 409 naming that hand, not a second "
            "hand. The answer carries the game's score line after the hand."
        ),
        tags=["hands"],
        request=HAND_BODY,
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={
            201: HandWithGameSerializer,
            **error_responses(400, 401, 403, 404, 409, 422, 429),
        },
        examples=ex.HAND_CREATE,
    )
    @idempotent_in_write
    def create(
        self,
        request: Request,
        *args: Any,
        idempotency: PendingRecord | None = None,
        **kwargs: Any,
    ) -> Response:
        # The game is read once: for the permission check and as the row the hand is scored
        # against (written only if no other write moved the game on since).
        game = _visible_game(request, int(self.kwargs["game_pk"]), self)

        def check(read: Game) -> None:  # the game as read again, when it changed since
            _check_visible(request, read, self)

        envelope = HandEnvelopeSerializer.validated(request.data)
        refuse_keys_of_no_entry(request.data, envelope["entry_kind"])
        answers: list[Response] = []

        def answer(hand: Hand, game: Game) -> Response:
            response = Response(hand_with_game(hand, game), status=201)
            # The new hand lives under the collection posted to (/api/v1/games/7/hands/3/).
            response["Location"] = f"{request.path}{hand.number}/"
            return with_etag(response, hand.version)

        def record(hand: Hand, game: Game) -> IdempotencyRecord | None:
            # Called with every write: the answer is known before it, so the answer a retry
            # gets is stored with the hand.
            answers.append(answer(hand, game))
            return None if idempotency is None else idempotency.record(answers[-1])

        services.hand_record(
            game=game,
            entry_kind=envelope["entry_kind"],
            entry=_entry(request.data, HAND_ENVELOPE_KEYS),
            by=_by(request),
            number=envelope.get("number"),
            kept_response=record,
            check=check,
        )
        return answers[-1]  # the answer of the write that was kept

    @extend_schema(
        summary="Preview a hand",
        operation_id="games_hands_preview",
        description=(
            "What entering this hand would give, with nothing stored: the same body as "
            "entering it (`number` may be left out: the next hand), the same refusals, and the "
            "answer entering it would get (the hand and the game's score line after it), "
            "scored by the same code. A score-pad asks for it as the hand is typed. Nothing "
            "is stored, so no `Idempotency-Key` is needed; a hand entered meanwhile by "
            "another score-pad is found out only when this one is entered."
        ),
        tags=["hands"],
        request=HAND_BODY,
        responses={
            200: HandWithGameSerializer,
            **error_responses(400, 401, 403, 404, 409, 429),
        },
        examples=ex.HAND_PREVIEW,
    )
    @action(detail=False, methods=["post"])
    def preview(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self._game_for_write(request)
        envelope = HandEnvelopeSerializer.validated(request.data)
        refuse_keys_of_no_entry(request.data, envelope["entry_kind"])
        hand = services.hand_preview(
            game=game,
            entry_kind=envelope["entry_kind"],
            entry=_entry(request.data, HAND_ENVELOPE_KEYS),
            by=_by(request),
            number=envelope.get("number"),
        )
        return Response(hand_with_game(hand, game))

    @extend_schema(
        summary="A hand with its versions and disputes",
        tags=["hands"],
        parameters=[IF_NONE_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: HandDetailSerializer, 304: None, **error_responses(404)},
        examples=ex.HAND_DETAIL,
    )
    def retrieve(self, request: Request, number: str, *args: Any, **kwargs: Any) -> Response:
        hand = selectors.hand_detail(self._hand(number).pk)
        if not_modified(request, hand.version):
            return not_modified_response(hand.version)
        return with_etag(Response(HandDetailSerializer(hand).data), hand.version)

    @extend_schema(
        summary="Correct a hand",
        description=(
            "Replace the hand's entry (the keys of entering it but `number`, plus `reason`; "
            "`entry_kind` may be left out to keep the way the hand was entered). The old "
            "entry is kept as a version; every later running total and the game's end are "
            "recomputed. Needs `If-Match` with the hand's ETag: 428 without it, 412 when "
            "someone changed the hand since you read it."
        ),
        tags=["hands"],
        request=HAND_CORRECTION_BODY,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: HandWithGameSerializer,
            **error_responses(400, 401, 403, 404, 412, 428, 429),
            409: error_response(
                409,
                "The game's results are final (its tournament is finished, or a later stage "
                "started from them): `result_final`.",
            ),
        },
        examples=ex.HAND_CORRECT,
    )
    def update(self, request: Request, number: str, *args: Any, **kwargs: Any) -> Response:
        game = self._game_for_write(request)
        version = expected_version(request)
        envelope = HandCorrectEnvelopeSerializer(data=request.data)
        envelope.is_valid(raise_exception=True)
        hand = self._hand(number)
        entry_kind = envelope.validated_data.get("entry_kind")
        refuse_keys_of_no_entry(request.data, entry_kind or hand.entry_kind, correction=True)
        hand = services.hand_correct(
            hand=hand,
            entry=_entry(request.data, CORRECTION_ENVELOPE_KEYS),
            reason=envelope.validated_data["reason"],
            by=_by(request),
            expected_version=version,
            entry_kind=envelope.validated_data.get("entry_kind"),
        )
        game.refresh_from_db()
        data = HandWithGameSerializer(hand, context={"game": game}).data
        return with_etag(Response(data), hand.version)

    @extend_schema(
        summary="Undo the last hand",
        operation_id="games_hands_undo_last",
        description="The last hand stops counting (it and its history are kept) and its number "
        "can be entered again. The answer is the undone hand and the game's score line.",
        tags=["hands"],
        request=OptionalReasonSerializer,
        parameters=[GAME_IF_MATCH],
        responses={
            200: HandWithGameSerializer,
            **error_responses(400, 401, 403, 404, 412, 422, 428, 429),
        },
        examples=ex.UNDO,
    )
    @idempotent
    @action(detail=False, methods=["post"], url_path="undo-last")
    def undo_last(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self._game_for_write(request)
        version = expected_version(request)
        serializer = OptionalReasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        hand = services.hand_undo_last(
            game=game,
            by=_by(request),
            reason=serializer.validated_data["reason"],
            expected_version=version,
        )
        return Response(HandWithGameSerializer(hand, context={"game": game}).data)

    @extend_schema(
        summary="Call a misplay on a hand",
        description="Opens a dispute; the engine judges it from the trick record in the "
        "background. Read the dispute (its `Location`) for the verdict.",
        tags=["disputes"],
        request=DisputeCreateSerializer,
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={201: DisputeSerializer, **error_responses(400, 401, 403, 404, 409, 422, 429)},
        examples=ex.DISPUTE_CREATE,
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def disputes(self, request: Request, number: str, *args: Any, **kwargs: Any) -> Response:
        self._game_for_write(request)
        serializer = DisputeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        dispute = services.dispute_open(
            hand=self._hand(number),
            called_by=data["called_by"],
            accused=data["accused"],
            trick=data["trick"],
            proof_card=data.get("proof_card") or None,
            evidence=data.get("evidence"),
            by=_by(request),
        )
        dispute = selectors.dispute_detail(dispute.pk)
        response = Response(DisputeSerializer(dispute).data, status=201)
        response["Location"] = reverse("api:dispute-detail", kwargs={"pk": dispute.pk})
        return with_etag(response, dispute.version)


# ------------------------------------------------------------------------------ disputes


@extend_schema_view(
    list=extend_schema(summary="List misplay disputes", tags=["disputes"]),
)
class DisputeViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """Misplay disputes: the engine's verdict and the director's ruling, side by side."""

    serializer_class = DisputeSerializer
    permission_classes = [ReadAnyoneWriteSignedIn]
    filterset_class = DisputeFilter
    ordering_fields = ["created_at", "status"]

    def get_queryset(self) -> Any:
        visible = selectors.visible_to(Game.objects.all(), self.request.user)
        return selectors.dispute_list().filter(hand__game__in=visible)

    @extend_schema(
        summary="A dispute: its status, the engine's verdict and any ruling",
        tags=["disputes"],
        parameters=[IF_NONE_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: DisputeSerializer, 304: None, **error_responses(404)},
        examples=ex.DISPUTE,
    )
    def retrieve(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        dispute = selectors.dispute_detail(int(pk))
        if not services.user_can_see(request.user, dispute.hand.game):
            raise NotFound(f"misplay dispute {pk} does not exist")
        if not_modified(request, dispute.version):
            return not_modified_response(dispute.version)
        return with_etag(Response(DisputeSerializer(dispute).data), dispute.version)

    @extend_schema(
        summary="Rule on a dispute (directors)",
        operation_id="disputes_rule",
        description="`upheld` lets the engine's verdict stand, `overruled` decides the "
        "opposite (say why in `note`). Both stay visible; the hand and the game follow.",
        tags=["disputes"],
        request=DisputeRulingSerializer,
        parameters=[OPTIONAL_IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: DisputeSerializer,
            **error_responses(400, 401, 403, 404, 412, 422, 429),
            409: error_response(
                409,
                "A later dispute on the same hand decides it (rule on that one), or a request "
                "with the same Idempotency-Key is still running.",
            ),
        },
        examples=ex.RULING,
    )
    @idempotent
    @action(detail=True, methods=["post"], permission_classes=[Director])
    def ruling(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        dispute = MisplayDispute.objects.select_related("hand__game").filter(pk=int(pk)).first()
        if dispute is None or not services.user_can_see(request.user, dispute.hand.game):
            raise NotFound(f"misplay dispute {pk} does not exist")
        self.check_object_permissions(request, dispute)
        serializer = DisputeRulingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.dispute_rule(
            dispute=dispute,
            ruling=serializer.validated_data["ruling"],
            note=serializer.validated_data.get("note", ""),
            by=_by(request),
            # Sent, it is read as everywhere (an empty one is 428, not the header left out).
            expected_version=expected_version(request) if IF_MATCH in request.headers else None,
        )
        dispute = selectors.dispute_detail(dispute.pk)
        return with_etag(Response(DisputeSerializer(dispute).data), dispute.version)
