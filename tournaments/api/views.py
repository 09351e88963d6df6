"""Views of the tournaments API: read the request, call a service or a selector, answer.

Reads are open for public tournaments (and for the directors of private ones); every write
needs an account, and the services decide whether that account directs the tournament. Every
POST honours ``Idempotency-Key``; changing a tournament or a match result needs ``If-Match``.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from tarabish_site.api.errors import NotAllowed, NotFound
from tarabish_site.api.idempotency import idempotent
from tarabish_site.api.routes import ID
from tarabish_site.api.schema import LOCATION_HEADER, error_responses
from tarabish_site.api.versioning import (
    ETAG_RESPONSE_HEADER,
    IF_MATCH_PARAMETER,
    expected_version,
    not_modified,
    not_modified_response,
    with_etag,
)
from tarabish_site.api.viewsets import ApiViewSet
from tournaments import exports, selectors, services
from tournaments.api.serializers import (
    BracketSerializer,
    BulkEntrySerializer,
    CheckInSerializer,
    ConfirmResetSerializer,
    CsvImportSerializer,
    DaySerializer,
    DirectorSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    ForfeitSerializer,
    GameStartSerializer,
    ImportReportSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    PoolStandingsSerializer,
    QuickResultSerializer,
    RatingHistorySerializer,
    RatingSerializer,
    ReopenSerializer,
    ResultReportCreateSerializer,
    ResultReportDisputeSerializer,
    ResultReportSerializer,
    RoundSerializer,
    SeedSerializer,
    StageCreateSerializer,
    StageSerializer,
    SubstituteSerializer,
    TeamRegistrationCreateSerializer,
    TeamRegistrationSerializer,
    TotalsCorrectionSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
    WithdrawSerializer,
)
from tournaments.models import (
    Entry,
    Match,
    PlayerRating,
    ResultReport,
    Stage,
    TeamRegistration,
    Tournament,
)
from tournaments.services import transfer

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SLUG = OpenApiParameter(
    "tournament_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The tournament."
)
TAG_T, TAG_E, TAG_S, TAG_M, TAG_R = "tournaments", "entries", "stages", "matches", "ratings"
TAG_REG = "registrations"
TAG_REP = "reports"
ViewMethod = TypeVar("ViewMethod", bound=Callable[..., Response])


def _actor(request: Request) -> "User | None":
    return request.user if request.user.is_authenticated else None


def _tournament(request: Request, slug: str) -> Tournament:
    tournament = selectors.tournaments_visible(request.user).filter(slug=slug).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {slug!r}.")
    return tournament


def _tournament_response(tournament_id: int, status: int = 200) -> Response:
    found = selectors.with_counts(Tournament.objects.filter(pk=tournament_id))
    tournament = selectors.with_directors(found).get()
    response = Response(TournamentSerializer(tournament).data, status=status)
    if status == 201:
        response["Location"] = reverse("api:tournament-detail", kwargs={"slug": tournament.slug})
    return with_etag(response, tournament.version)


def _registration_response(registration_id: int, request: Request, status: int = 200) -> Response:
    registration = selectors.team_registrations_of(request.user).get(pk=registration_id)
    response = Response(TeamRegistrationSerializer(registration).data, status=status)
    if status == 201:
        response["Location"] = reverse("api:registration-detail", kwargs={"pk": registration.pk})
    return response


class JsonApiViewSet(ApiViewSet):
    # Reads for anyone (what they may see is the selectors' business); writes signed in.
    permission_classes = [IsAuthenticatedOrReadOnly]


_VERSIONED = (TournamentSerializer, EntrySerializer)


def _action_schema(
    summary: str, tag: str, response: Any, request: Any = None, *, operation_id: str
) -> Callable[[ViewMethod], ViewMethod]:
    """The schema of a step that answers 200: ``operation_id`` says what it does (not
    drf-spectacular's ``..._create``, which a POST gets whatever it does)."""
    return extend_schema(
        summary=summary,
        operation_id=operation_id,
        tags=[tag],
        parameters=[
            *([SLUG] if tag in (TAG_E, TAG_S) else []),
            # A tournament's or an entry's answer carries its version (with_etag).
            *([ETAG_RESPONSE_HEADER] if response in _VERSIONED else []),
        ],
        request=request,
        responses={200: response, **error_responses(400, 401, 403, 404, 409, 422, 429)},
    )


# ------------------------------------------------------------------------------ tournaments
@extend_schema_view(list=extend_schema(summary="List tournaments", tags=[TAG_T]))
class TournamentViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """Tournaments and the director's steps through the day."""

    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_fields = ["status", "public"]
    ordering_fields = ["starts_on", "name"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.with_directors(selectors.tournament_list(self.request.user))

    @extend_schema(
        summary="A tournament",
        tags=[TAG_T],
        parameters=[ETAG_RESPONSE_HEADER],
        responses={200: TournamentSerializer, **error_responses(404)},
    )
    def retrieve(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        if not_modified(request, tournament.version):
            return not_modified_response(tournament.version)
        return _tournament_response(tournament.pk)

    @extend_schema(
        summary="Create a tournament",
        tags=[TAG_T],
        request=TournamentCreateSerializer,
        description="Only a director of every game creates one (403 for anyone else); they "
        "become its organiser and first director.",
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={201: TournamentSerializer, **error_responses(400, 401, 403, 409, 422, 429)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_create(actor=_actor(request), **serializer.validated_data)
        return _tournament_response(tournament.pk, status=201)

    @extend_schema(
        summary="Change a tournament",
        tags=[TAG_T],
        request=TournamentUpdateSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={200: TournamentSerializer, **error_responses(400, 401, 403, 404, 409, 412, 428)},
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        serializer = TournamentUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.tournament_update(
            tournament_id=tournament.pk,
            actor=_actor(request),
            expected_version=expected_version(request),
            changes=dict(serializer.validated_data),
        )
        return _tournament_response(tournament.pk)

    @extend_schema(
        summary="The whole tournament as one document (to keep, read, or import elsewhere)",
        tags=[TAG_T],
        description="Format `tarabish-tournament`, version 1: the tournament, its players, "
        "teams, entries, stages (pools, rounds, matches, standings) and every game with its "
        "hands and their revisions; rows refer to each other by `key`. "
        "`POST /api/v1/tournaments/import/` reads it back.",
        responses={200: OpenApiTypes.OBJECT, **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        response = Response(exports.tournament_document(tournament))
        response["Content-Disposition"] = f'inline; filename="{tournament.slug}.json"'
        return response

    @extend_schema(
        summary="Make a tournament from an exported document",
        tags=[TAG_T],
        description="The document of `GET .../export/`, from this installation or another: "
        "the tournament is made with its entries, stages, matches, games, hands and "
        "revisions, all or nothing. Players are matched by name and community, or created. "
        "`slug` and `name` (query) replace the document's. A document that cannot be read "
        "is refused naming the field by its path (`stages.0.matches.3.home`).",
        parameters=[
            OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False),
            ETAG_RESPONSE_HEADER,
            LOCATION_HEADER,
        ],
        request=OpenApiTypes.OBJECT,
        responses={201: TournamentSerializer, **error_responses(400, 401, 403, 409, 429)},
    )
    @idempotent
    @action(detail=False, methods=["post"], url_path="import")
    def import_document(self, request: Request) -> Response:
        tournament = transfer.tournament_import(
            document=request.data,
            actor=_actor(request),
            slug=request.query_params.get("slug", ""),
            name=request.query_params.get("name", ""),
        )
        return _tournament_response(tournament.pk, status=201)

    def _step(self, request: Request, slug: str, service: Any) -> Response:
        tournament = _tournament(request, slug)
        service(tournament_id=tournament.pk, actor=_actor(request))
        return _tournament_response(tournament.pk)

    @_action_schema(
        "Open registration",
        TAG_T,
        TournamentSerializer,
        operation_id="tournaments_open_registration",
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request: Request, slug: str) -> Response:
        return self._step(request, slug, services.tournament_open_registration)

    @_action_schema(
        "Open check-in", TAG_T, TournamentSerializer, operation_id="tournaments_open_check_in"
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="open-check-in")
    def open_check_in(self, request: Request, slug: str) -> Response:
        return self._step(request, slug, services.tournament_open_check_in)

    @_action_schema(
        "Process check-in: no-shows inactive, seeds closed up",
        TAG_T,
        TournamentSerializer,
        operation_id="tournaments_process_check_in",
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="process-check-in")
    def process_check_in(self, request: Request, slug: str) -> Response:
        return self._step(request, slug, services.checkin_process)

    @_action_schema(
        "Advance to the next stage (pools to knockout)",
        TAG_T,
        StageSerializer,
        operation_id="tournaments_advance",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def advance(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        stage = services.stage_advance(tournament_id=tournament.pk, actor=_actor(request))
        return Response(StageSerializer(stage).data)

    @_action_schema(
        "Name a director (who then directs its match games: disputes, reopening)",
        TAG_T,
        TournamentSerializer,
        DirectorSerializer,
        operation_id="tournaments_directors_add",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def directors(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        serializer = DirectorSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.tournament_director_add(
            tournament_id=tournament.pk,
            actor=_actor(request),
            user_id=serializer.validated_data["user"],
        )
        return _tournament_response(tournament.pk)

    @extend_schema(
        summary="Take a director off (they direct neither it nor its match games any more)",
        operation_id="tournaments_directors_remove",
        tags=[TAG_T],
        parameters=[
            OpenApiParameter(
                "user_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The account."
            ),
            ETAG_RESPONSE_HEADER,
        ],
        request=None,
        responses={200: TournamentSerializer, **error_responses(400, 401, 403, 404, 429)},
    )
    @action(detail=True, methods=["delete"], url_path=rf"directors/(?P<user_id>{ID})")
    def director_remove(self, request: Request, slug: str, user_id: str) -> Response:
        tournament = _tournament(request, slug)
        services.tournament_director_remove(
            tournament_id=tournament.pk, actor=_actor(request), user_id=int(user_id)
        )
        return _tournament_response(tournament.pk)

    @_action_schema(
        "Finish: final placements", TAG_T, TournamentSerializer, operation_id="tournaments_finish"
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, slug: str) -> Response:
        return self._step(request, slug, services.tournament_finish)

    @_action_schema(
        "Reopen a finished tournament (the reason is kept in its history)",
        TAG_T,
        TournamentSerializer,
        ReopenSerializer,
        operation_id="tournaments_reopen",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        serializer = ReopenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.tournament_reopen(
            tournament_id=tournament.pk,
            actor=_actor(request),
            reason=serializer.validated_data["reason"],
        )
        return _tournament_response(tournament.pk)

    @extend_schema(
        summary="Register a team of your own: name your partner, who confirms",
        operation_id="tournaments_registrations_create",
        tags=[TAG_REG],
        description="While the tournament takes teams that register themselves "
        "(`self_registration`, inside `registration_opens_at` to `registration_closes_at`), a "
        "signed-in player names a partner by username. The registration waits for the "
        "partner to confirm it (`POST /api/v1/registrations/{id}/confirm/`); either may "
        "withdraw it. Refused: outside the window (409 `registration_closed`), the partner "
        "unknown (`partner_unknown`) or oneself (`partner_self`), a player already entered "
        "(409 `player_entered`), a registration already waiting for either (409 "
        "`registration_pending`).",
        parameters=[LOCATION_HEADER],
        request=TeamRegistrationCreateSerializer,
        responses={
            201: TeamRegistrationSerializer,
            **error_responses(400, 401, 403, 404, 409, 422, 429),
        },
    )
    @idempotent
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def registrations(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        serializer = TeamRegistrationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.team_registration_create(
            tournament_id=tournament.pk, actor=_actor(request), **serializer.validated_data
        )
        return _registration_response(registration.pk, request, status=201)

    @extend_schema(
        summary="The day's schedule: matches with rounds and table numbers",
        tags=[TAG_T],
        responses={200: MatchSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def schedule(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        matches = selectors.tournament_schedule(tournament)
        return Response(MatchSerializer(matches, many=True).data)


# ------------------------------------------------------------------------------ registrations
@extend_schema_view(
    list=extend_schema(
        summary="My team registrations: those I made and those naming me partner",
        tags=[TAG_REG],
    ),
    retrieve=extend_schema(
        summary="A team registration of mine",
        tags=[TAG_REG],
        responses={200: TeamRegistrationSerializer, **error_responses(401, 404)},
    ),
)
class TeamRegistrationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Teams registering themselves, as their two players see them (no one else does)."""

    permission_classes = [IsAuthenticated]
    serializer_class = TeamRegistrationSerializer
    filterset_fields = ["status"]
    ordering_fields = ["created_at"]

    def get_queryset(self) -> QuerySet[TeamRegistration]:
        return selectors.team_registrations_of(self.request.user)

    @_action_schema(
        "Confirm, as the partner named: the team is entered (or waits, when full)",
        TAG_REG,
        TeamRegistrationSerializer,
        operation_id="registrations_confirm",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        services.team_registration_confirm(registration_id=int(pk), actor=_actor(request))
        return _registration_response(int(pk), request)

    @_action_schema(
        "Withdraw a waiting registration (the partner withdrawing it declines it)",
        TAG_REG,
        TeamRegistrationSerializer,
        operation_id="registrations_withdraw",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        services.team_registration_withdraw(registration_id=int(pk), actor=_actor(request))
        return _registration_response(int(pk), request)


# ------------------------------------------------------------------------------ result reports
def _report_response(report_id: int, status: int = 200) -> Response:
    report = selectors.result_reports().get(pk=report_id)
    response = Response(ResultReportSerializer(report).data, status=status)
    if status == 201:
        response["Location"] = reverse("api:report-detail", kwargs={"pk": report.pk})
    return response


@extend_schema_view(
    list=extend_schema(summary="List results reported by players", tags=[TAG_REP]),
    retrieve=extend_schema(
        summary="A result reported by a player",
        tags=[TAG_REP],
        responses={200: ResultReportSerializer, **error_responses(404)},
    ),
)
class ResultReportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, JsonApiViewSet):
    """Results reported by a player of one of a match's teams, waiting for the other team or
    a director to confirm them (two-party confirmation)."""

    serializer_class = ResultReportSerializer
    filterset_fields = ["status", "match"]
    ordering_fields = ["created_at"]

    def get_queryset(self) -> QuerySet[ResultReport]:
        visible = selectors.tournaments_visible(self.request.user)
        return selectors.result_reports().filter(match__stage__tournament__in=visible)

    def _act(self, request: Request, pk: str, act: Callable[[int], object]) -> Response:
        report = self.get_object()
        act(report.pk)
        return _report_response(report.pk)

    @_action_schema(
        "Confirm, as a player of the other team or a director: the result counts",
        TAG_REP,
        ResultReportSerializer,
        operation_id="reports_confirm",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        actor = _actor(request)
        return self._act(
            request, pk, lambda rid: services.result_report_confirm(report_id=rid, actor=actor)
        )

    @_action_schema(
        "Dispute, as a player of the other team, saying why: a director decides",
        TAG_REP,
        ResultReportSerializer,
        ResultReportDisputeSerializer,
        operation_id="reports_dispute",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str) -> Response:
        serializer = ResultReportDisputeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        actor, reason = _actor(request), serializer.validated_data["reason"]
        return self._act(
            request,
            pk,
            lambda rid: services.result_report_dispute(report_id=rid, actor=actor, reason=reason),
        )

    @_action_schema(
        "Withdraw a waiting report, as a player of the team that made it",
        TAG_REP,
        ResultReportSerializer,
        operation_id="reports_withdraw",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        actor = _actor(request)
        return self._act(
            request, pk, lambda rid: services.result_report_withdraw(report_id=rid, actor=actor)
        )


# ------------------------------------------------------------------------------ entries
@extend_schema_view(
    list=extend_schema(summary="List entries", tags=[TAG_E], parameters=[SLUG]),
    retrieve=extend_schema(
        summary="An entry",
        tags=[TAG_E],
        parameters=[SLUG],
        responses={200: EntrySerializer, **error_responses(404)},
    ),
)
class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, JsonApiViewSet):
    """The teams registered in a tournament."""

    serializer_class = EntrySerializer
    filterset_fields = ["status", "checked_in"]
    ordering_fields = ["seed", "registered_at"]

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return Entry.objects.none()
        tournament = _tournament(self.request, self.kwargs["tournament_slug"])
        entries = tournament.entries.select_related("team__player_one", "team__player_two")
        return selectors.with_substitutes(selectors.entries_in_seed_order(entries))

    def get_serializer(self, *args: Any, **kwargs: Any) -> serializers.BaseSerializer[Any]:
        """The serializer, its entries told apart by name (one query for all of them)."""
        if args and isinstance(args[0], Entry):
            selectors.name_entries(args[0].tournament_id, [args[0]])
        elif args and args[0] is not None:
            entries = list(args[0])
            if entries:
                selectors.name_entries(entries[0].tournament_id, entries)
            args = (entries, *args[1:])
        return super().get_serializer(*args, **kwargs)

    def _entry_response(self, entry_id: int, status: int = 200) -> Response:
        entry = self.get_queryset().get(pk=entry_id)
        selectors.name_entries(entry.tournament_id, [entry])
        response = Response(EntrySerializer(entry).data, status=status)
        if status == 201:
            response["Location"] = reverse(
                "api:tournament-entry-detail",
                kwargs={"tournament_slug": self.kwargs["tournament_slug"], "pk": entry.pk},
            )
        return with_etag(response, entry.version)

    def _import_report_response(self, report: services.ImportReport) -> Response:
        """201 with the rows read and the entries made, as the entry list shows them."""
        created = list(self.get_queryset().filter(pk__in=[e.pk for e in report.created]))
        if created:
            selectors.name_entries(created[0].tournament_id, created)
        body = {"rows": report.rows, "created": EntrySerializer(created, many=True).data}
        return Response(body, status=201)

    def _entry_act(
        self,
        request: Request,
        body: type[serializers.Serializer[Any]],
        act: Callable[[int, "User | None", dict[str, Any]], object],
    ) -> Response:
        """A director's act on this entry with the body ``body`` validates; the answer is the
        entry after it."""
        entry = self.get_object()
        serializer = body(data=request.data)
        serializer.is_valid(raise_exception=True)
        act(entry.pk, _actor(request), dict(serializer.validated_data))
        return self._entry_response(entry.pk)

    @extend_schema(
        summary="Register a team",
        tags=[TAG_E],
        parameters=[SLUG, ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        request=EntryCreateSerializer,
        responses={201: EntrySerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    def create(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        serializer = EntryCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = services.entry_register(
            tournament_id=tournament.pk,
            actor=_actor(request),
            team_id=serializer.validated_data["team"],
            seed=serializer.validated_data["seed"],
        )
        return self._entry_response(entry.pk, status=201)

    @extend_schema(
        summary="Import teams from CSV (all or nothing)",
        tags=[TAG_E],
        parameters=[SLUG],
        request=CsvImportSerializer,
        responses={201: ImportReportSerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        serializer = CsvImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = services.entries_import_csv(
            tournament_id=tournament.pk,
            actor=_actor(request),
            text=serializer.validated_data["csv"],
        )
        return self._import_report_response(report)

    @extend_schema(
        summary="Register many teams at once (all or nothing)",
        tags=[TAG_E],
        parameters=[SLUG],
        request=BulkEntrySerializer,
        responses={201: ImportReportSerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    @action(detail=False, methods=["post"], url_path="bulk")
    def bulk_add(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        serializer = BulkEntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = services.entries_bulk_add(
            tournament_id=tournament.pk,
            actor=_actor(request),
            entries=serializer.validated_data["entries"],
        )
        return self._import_report_response(report)

    @extend_schema(
        summary="Seed the teams before play: as entered, by rating, at random, or in an order",
        operation_id="tournaments_entries_seed",
        tags=[TAG_E],
        parameters=[SLUG],
        request=SeedSerializer,
        responses={200: EntrySerializer(many=True), **error_responses(400, 401, 403, 404, 409)},
    )
    @idempotent
    # The answer is every seeded entry, whole: not a page, and not filtered.
    @action(
        detail=False,
        methods=["post"],
        url_path="seeds",
        pagination_class=None,
        filter_backends=[],
    )
    def seeds(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        serializer = SeedSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.entries_seed(
            tournament_id=tournament.pk, actor=_actor(request), **serializer.validated_data
        )
        entries = self.get_queryset().filter(seed__isnull=False).order_by("seed")
        return Response(EntrySerializer(entries, many=True).data)

    @_action_schema(
        "Check a team in (or out)",
        TAG_E,
        EntrySerializer,
        CheckInSerializer,
        operation_id="tournaments_entries_check_in",
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, tournament_slug: str, pk: str) -> Response:
        return self._entry_act(
            request,
            CheckInSerializer,
            lambda entry_id, actor, data: services.entry_check_in(
                entry_id=entry_id, actor=actor, **data
            ),
        )

    @_action_schema(
        "Withdraw a team mid-event",
        TAG_E,
        EntrySerializer,
        WithdrawSerializer,
        operation_id="tournaments_entries_withdraw",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, tournament_slug: str, pk: str) -> Response:
        return self._entry_act(
            request,
            WithdrawSerializer,
            lambda entry_id, actor, data: services.entry_withdraw(
                entry_id=entry_id, actor=actor, **data
            ),
        )

    @_action_schema(
        "Allow a substitute player",
        TAG_E,
        EntrySerializer,
        SubstituteSerializer,
        operation_id="tournaments_entries_substitute_add",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def substitutes(self, request: Request, tournament_slug: str, pk: str) -> Response:
        return self._entry_act(
            request,
            SubstituteSerializer,
            lambda entry_id, actor, data: services.entry_substitute_add(
                entry_id=entry_id, actor=actor, player_id=data["player"]
            ),
        )


# ------------------------------------------------------------------------------ stages
@extend_schema_view(
    list=extend_schema(summary="List stages", tags=[TAG_S], parameters=[SLUG]),
    retrieve=extend_schema(
        summary="A stage",
        tags=[TAG_S],
        parameters=[SLUG],
        responses={200: StageSerializer, **error_responses(404)},
    ),
)
class StageViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, JsonApiViewSet):
    """Stages played one after another: pools, Swiss, single or double elimination."""

    serializer_class = StageSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Stage]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return Stage.objects.none()
        tournament = _tournament(self.request, self.kwargs["tournament_slug"])
        return tournament.stages.order_by("order")

    @extend_schema(
        summary="Add a stage",
        tags=[TAG_S],
        parameters=[SLUG, LOCATION_HEADER],
        request=StageCreateSerializer,
        responses={201: StageSerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    def create(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        serializer = StageCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        stage = services.stage_create(
            tournament_id=tournament.pk, actor=_actor(request), **serializer.validated_data
        )
        response = Response(StageSerializer(stage).data, status=201)
        response["Location"] = reverse(
            "api:tournament-stage-detail",
            kwargs={"tournament_slug": tournament.slug, "pk": stage.pk},
        )
        return response

    @_action_schema(
        "Start the stage: pools, rounds and matches",
        TAG_S,
        StageSerializer,
        operation_id="tournaments_stages_start",
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def start(self, request: Request, tournament_slug: str, pk: str) -> Response:
        stage = services.stage_start(stage_id=self.get_object().pk, actor=_actor(request))
        return Response(StageSerializer(stage).data)

    @_action_schema(
        "Pair the next Swiss round",
        TAG_S,
        RoundSerializer,
        operation_id="tournaments_stages_pair_next_round",
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="pair-next-round")
    def pair_next_round(self, request: Request, tournament_slug: str, pk: str) -> Response:
        rnd = services.swiss_round_pair(stage_id=self.get_object().pk, actor=_actor(request))
        return Response(RoundSerializer(rnd).data)

    @extend_schema(
        summary="Standings, pool by pool",
        tags=[TAG_S],
        parameters=[SLUG],
        responses={200: PoolStandingsSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, tournament_slug: str, pk: str) -> Response:
        tables = selectors.stage_standings(self.get_object())
        return Response(PoolStandingsSerializer(tables, many=True).data)

    @extend_schema(
        summary="The bracket document (rounds, matches, slot sources) of an elimination stage",
        tags=[TAG_S],
        parameters=[SLUG],
        responses={200: BracketSerializer, **error_responses(404, 409)},
    )
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, tournament_slug: str, pk: str) -> Response:
        stage = self.get_object()
        if not stage.is_bracket or stage.status == Stage.Status.PENDING:
            raise NotFound(f"{stage.name} has no bracket (yet).")
        return Response(selectors.stage_bracket_document(stage))

    @extend_schema(
        summary="Rounds of the stage",
        tags=[TAG_S],
        parameters=[SLUG],
        responses={200: RoundSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, tournament_slug: str, pk: str) -> Response:
        rounds = self.get_object().rounds.order_by("id")
        return Response(RoundSerializer(rounds, many=True).data)


# ------------------------------------------------------------------------------ matches
@extend_schema_view(list=extend_schema(summary="List matches", tags=[TAG_M]))
class MatchViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """Matches: two entries, a table, the games played in them and the result."""

    serializer_class = MatchSerializer
    filterset_fields = ["stage", "state", "table", "stage__tournament__slug"]
    ordering_fields = ["table", "finished_at"]

    def get_queryset(self) -> QuerySet[Match]:
        visible = selectors.tournaments_visible(self.request.user)
        return (
            Match.objects.filter(stage__tournament__in=visible)
            .select_related("stage", "round", "pool", "home__team", "away__team")
            .order_by("stage_id", "round_id", "number")
        )

    def _match_response(self, request: Request, match_id: int, status: int = 200) -> Response:
        match = selectors.match_detail(match_id)
        if (
            match is None
            or not selectors.tournaments_visible(request.user)
            .filter(pk=match.stage.tournament_id)
            .exists()
        ):
            raise NotFound(f"There is no match {match_id}.")
        if status == 200 and not_modified(request, match.version):
            return not_modified_response(match.version)
        return with_etag(Response(MatchDetailSerializer(match).data, status=status), match.version)

    @extend_schema(
        summary="A match with its games",
        tags=[TAG_M],
        parameters=[ETAG_RESPONSE_HEADER],
        responses={200: MatchDetailSerializer, **error_responses(404)},
    )
    def retrieve(self, request: Request, pk: str) -> Response:
        return self._match_response(request, int(pk))

    @extend_schema(
        summary="Start the next game of the match (a scoring game)",
        description="The answer is the match with its new game; `Location` is the game's "
        "address, where its hands are entered.",
        tags=[TAG_M],
        request=GameStartSerializer,
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={201: MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def games(self, request: Request, pk: str) -> Response:
        serializer = GameStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        link = services.match_game_start(
            match_id=int(pk), actor=_actor(request), **serializer.validated_data
        )
        response = self._match_response(request, int(pk), status=201)
        response["Location"] = reverse("api:game-detail", kwargs={"pk": link.game_id})
        return response

    @extend_schema(
        summary="Record the next game, played on paper, by its final totals (a quick result)",
        description=(
            "The game is stored finished, without hands, marked `totals_only`; the match "
            "takes its result at once, and standings and ratings follow as for any game; "
            "`Location` is the game's address. "
            "A director may; the scorekeeper of the match's table only when the tournament's "
            "`quick_results_by_scorekeepers` is on."
        ),
        operation_id="matches_quick_result_create",
        tags=[TAG_M],
        request=QuickResultSerializer,
        parameters=[ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        responses={201: MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="quick-result")
    def quick_result(self, request: Request, pk: str) -> Response:
        serializer = QuickResultSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        data = serializer.validated_data
        link = services.match_game_record_totals(
            match_id=int(pk),
            actor=_actor(request),
            home_points=data["home_points"],
            away_points=data["away_points"],
            winner_id=data["winner"],
            seats=data["seats"],
        )
        response = self._match_response(request, int(pk), status=201)
        response["Location"] = reverse("api:game-detail", kwargs={"pk": link.game_id})
        return response

    @extend_schema(
        summary="Report the match's result, as a player of one of its teams",
        description=(
            "Where the tournament's `results_confirmed_by_both` is on, a player of either team "
            "reports every game of the match by its final totals. The report waits, counting "
            "for nothing, until a player of the other team or a director confirms it "
            "(`/reports/{id}/confirm/`); the other team may dispute it instead. `Location` is "
            "the report's address."
        ),
        operation_id="matches_report_create",
        tags=[TAG_M],
        request=ResultReportCreateSerializer,
        parameters=[LOCATION_HEADER],
        responses={201: ResultReportSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def report(self, request: Request, pk: str) -> Response:
        serializer = ResultReportCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        report = services.result_report_create(
            match_id=int(pk),
            actor=_actor(request),
            games=[services.ReportedGame(**game) for game in serializer.validated_data["games"]],
        )
        return _report_response(report.pk, status=201)

    @extend_schema(
        summary="The results reported for the match, the latest first",
        operation_id="matches_reports_list",
        tags=[TAG_M],
        responses={200: ResultReportSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def reports(self, request: Request, pk: str) -> Response:
        self._match_response(request, int(pk))
        reports = selectors.match_result_reports(int(pk))
        return Response(ResultReportSerializer(reports, many=True).data)

    @extend_schema(
        summary="Correct a game recorded by its final totals (a quick result)",
        description=(
            "A director's act: the game's totals (and, when they cannot say, its winner) are "
            "replaced, the totals before kept with the reason. The match follows as it follows "
            "a corrected hand: a new winner whose later bracket matches were already played "
            "is held (`held_reason` names them) until `confirm-reset`."
        ),
        operation_id="matches_game_totals_correct",
        tags=[TAG_M],
        request=TotalsCorrectionSerializer,
        parameters=[
            OpenApiParameter(
                "number",
                OpenApiTypes.INT,
                OpenApiParameter.PATH,
                description="The game's number in its match.",
            ),
            IF_MATCH_PARAMETER,
            ETAG_RESPONSE_HEADER,
        ],
        responses={
            200: MatchDetailSerializer,
            **error_responses(400, 401, 403, 404, 409, 412, 428),
        },
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path=rf"games/(?P<number>{ID})/totals")
    def game_totals(self, request: Request, pk: str, number: str) -> Response:
        serializer = TotalsCorrectionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        data = serializer.validated_data
        services.match_game_correct_totals(
            match_id=int(pk),
            number=int(number),
            actor=_actor(request),
            home_points=data["home_points"],
            away_points=data["away_points"],
            winner_id=data["winner"],
            reason=data["reason"],
            expected_version=expected_version(request),
        )
        return self._match_response(request, int(pk))

    @extend_schema(
        summary="Award the match to the other entry (forfeit)",
        operation_id="matches_forfeit",
        tags=[TAG_M],
        request=ForfeitSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: MatchDetailSerializer,
            **error_responses(400, 401, 403, 404, 409, 412, 428),
        },
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str) -> Response:
        serializer = ForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        services.match_forfeit(
            match_id=int(pk),
            actor=_actor(request),
            loser_id=serializer.validated_data["loser"],
            confirm_reset=serializer.validated_data["confirm_reset"],
            overturn_result=serializer.validated_data["overturn_result"],
            expected_version=expected_version(request),
        )
        return self._match_response(request, int(pk))

    @extend_schema(
        summary="Confirm a held result change: later matches re-open",
        description=(
            "The match takes the result its games now give; later matches that depended on "
            "it re-open and their games no longer count. While a game of one of them is "
            "still being played the confirmation is refused (409 `game_in_progress`) unless "
            "`end_game` names that game: it is then ended early and the change confirmed in "
            "one transaction. 409 `game_changed` when the game named is not the one in the "
            "way (another, or none, by then), and 409 `nothing_held` when the match holds no "
            "change; a refused confirmation changes nothing."
        ),
        operation_id="matches_confirm_reset",
        tags=[TAG_M],
        request=ConfirmResetSerializer,
        parameters=[IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        responses={
            200: MatchDetailSerializer,
            **error_responses(400, 401, 403, 404, 409, 412, 428),
        },
    )
    @idempotent
    @action(detail=True, methods=["post"], url_path="confirm-reset")
    def confirm_reset(self, request: Request, pk: str) -> Response:
        serializer = ConfirmResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self._match_response(request, int(pk))
        services.match_reset_confirm(
            match_id=int(pk),
            actor=_actor(request),
            expected_version=expected_version(request),
            end_game_id=serializer.validated_data.get("end_game"),
        )
        return self._match_response(request, int(pk))


# ------------------------------------------------------------------------------ ratings
@extend_schema_view(
    list=extend_schema(
        summary="Players by rating",
        description=(
            "Ranked as the ratings page ranks them: the highest ordinal (mu - 3 sigma, the "
            "cautious rating) first, ties by the player's name. `?ordering=` may sort by "
            "`mu` or `matches` instead."
        ),
        tags=[TAG_R],
    )
)
class RatingViewSet(mixins.ListModelMixin, JsonApiViewSet):
    """OpenSkill ratings of players (mu, sigma; ordinal = mu - 3 sigma), ranked as the ratings
    page ranks them: the highest ordinal (the cautious rating, which rises as a player's
    record grows) first, then by name."""

    serializer_class = RatingSerializer
    ordering_fields = ["mu", "matches"]

    def get_queryset(self) -> QuerySet[PlayerRating]:
        return selectors.rating_table()

    @extend_schema(
        operation_id="ratings_history",
        summary="A player's rating history",
        tags=[TAG_R],
        responses={200: RatingHistorySerializer, **error_responses(404)},
    )
    def retrieve(self, request: Request, pk: str) -> Response:
        history = selectors.player_rating_history(int(pk), request.user)
        if history.current is None:
            raise NotFound(f"Player {pk} has no rating yet.")
        body = {"current": history.current, "history": history.changes}
        return Response(RatingHistorySerializer(body).data)


@extend_schema(
    summary="The director's day at a glance",
    tags=[TAG_T],
    responses={200: DaySerializer, **error_responses(401, 403, 404)},
)
class DayView(JsonApiViewSet):
    """Matches ready, in progress, waiting and held; disputes to rule on (directors only: 401
    signed out, as everywhere, and 403 for anyone else)."""

    permission_classes = [IsAuthenticated]

    def retrieve(self, request: Request, tournament_slug: str) -> Response:
        tournament = _tournament(request, tournament_slug)
        if not selectors.tournament_directed_by(tournament, request.user):
            raise NotAllowed("Only a director of this tournament sees the day at a glance.")
        return Response(DaySerializer(selectors.director_day(tournament)).data)
