"""Routes of the tournaments API, mounted under ``/api/v1/`` by ``tarabish_site.urls``.

``router``'s registry joins the project router (listed at the API root); ``urlpatterns`` are
the routes nested under a tournament (``/api/v1/tournaments/{slug}/entries/...``).
"""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.api.views import (
    DayView,
    EntryViewSet,
    MatchViewSet,
    RatingViewSet,
    ResultReportViewSet,
    StageViewSet,
    TeamRegistrationViewSet,
    TournamentViewSet,
)

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("matches", MatchViewSet, basename="match")
router.register("ratings", RatingViewSet, basename="rating")
router.register("registrations", TeamRegistrationViewSet, basename="registration")
router.register("reports", ResultReportViewSet, basename="report")

TOURNAMENT = r"tournaments/(?P<tournament_slug>[-a-zA-Z0-9_]+)"
nested_router = SimpleRouter()
nested_router.register(f"{TOURNAMENT}/entries", EntryViewSet, basename="tournament-entry")
nested_router.register(f"{TOURNAMENT}/stages", StageViewSet, basename="tournament-stage")

urlpatterns = [
    *nested_router.urls,
    path(
        "tournaments/<slug:tournament_slug>/day/",
        DayView.as_view({"get": "retrieve"}),
        name="tournament-day",
    ),
]
