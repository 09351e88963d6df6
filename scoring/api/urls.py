"""Routes of the scoring API, mounted under ``/api/v1/`` by ``tarabish_site.urls``.

``router``'s registry joins the project router (listed at the API root); ``urlpatterns`` are
the routes nested under a game (``/api/v1/games/{game_pk}/hands/...``).
"""

from rest_framework.routers import SimpleRouter

from scoring.api.views import DisputeViewSet, GameViewSet, HandViewSet, PlayerViewSet, TeamViewSet
from tarabish_site.api.routes import ID

router = SimpleRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("teams", TeamViewSet, basename="team")
router.register("games", GameViewSet, basename="game")
router.register("disputes", DisputeViewSet, basename="dispute")

nested_router = SimpleRouter()
nested_router.register(rf"games/(?P<game_pk>{ID})/hands", HandViewSet, basename="game-hand")

urlpatterns = nested_router.urls
