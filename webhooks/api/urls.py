"""Routes of the webhooks API, under a tournament: ``/api/v1/tournaments/{slug}/webhooks/``."""

from rest_framework.routers import SimpleRouter

from webhooks.api.views import WebhookViewSet

TOURNAMENT = r"tournaments/(?P<tournament_slug>[-a-zA-Z0-9_]+)"
router = SimpleRouter()
router.register(f"{TOURNAMENT}/webhooks", WebhookViewSet, basename="tournament-webhook")

urlpatterns = router.urls
