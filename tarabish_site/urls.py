"""URL map. The API lives under ``/api/v1/``; each app contributes its router's registry (listed at
the API root) and any nested routes of its own."""

from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.urls import include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.permissions import AllowAny
from rest_framework.routers import APIRootView, DefaultRouter

from scoring.api import urls as scoring_api
from tarabish_site import pages
from tarabish_site.accounts import SignInView
from tarabish_site.api.auth import TokenListView, TokenRevokeView, TokenView
from tarabish_site.api.exceptions import (
    api_not_found,
    json_bad_request,
    json_not_found,
    json_permission_denied,
    json_server_error,
)
from tarabish_site.health import healthz
from tarabish_site.metrics import metrics_view
from tournaments.api import urls as tournaments_api
from webhooks.api import urls as webhooks_api


class ApiRootView(APIRootView):
    """Tarabish API, version 1: the collections below, each documented at /api/docs/."""

    permission_classes = [AllowAny]


router = DefaultRouter()
router.APIRootView = ApiRootView

router.registry.extend(scoring_api.router.registry)
router.registry.extend(tournaments_api.router.registry)

# Patterns are tried in order: the hands of a game, which score-pads post to all evening, first.
api_urlpatterns = [
    *scoring_api.urlpatterns,
    *router.urls,
    *tournaments_api.urlpatterns,
    *webhooks_api.urlpatterns,
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("auth/tokens/", TokenListView.as_view(), name="auth-tokens"),
    path("auth/tokens/<uuid:id>/", TokenRevokeView.as_view(), name="auth-token-revoke"),
]

urlpatterns = [
    path("api/v1/", include((api_urlpatterns, "api"))),
    path("", pages.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("accounts/sign-in/", SignInView.as_view(), name="login"),
    path("accounts/sign-out/", LogoutView.as_view(), name="logout"),  # a POST, from every header
    # The language switch at the foot of every page posts here (Django's set_language).
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("webhooks.urls")),
    path("play/", include("play.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's page and its start-up script apart, so neither needs an inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    # ReDoc writes its styles into the page as it draws it, and reads the schema in a worker
    # it makes from a blob: allowed on this page alone.
    path(
        "api/redoc/",
        csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})(
            SpectacularRedocView.as_view(url_name="schema")
        ),
        name="redoc",
    ),
    # Last: any other address under /api/ is the API's JSON 404, never a page.
    re_path(r"^api/(?P<path>.*)$", api_not_found),
]

handler400 = json_bad_request
handler403 = json_permission_denied
handler404 = json_not_found
handler500 = json_server_error
