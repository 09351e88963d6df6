"""The shell that lets the score-pad work offline: the web app manifest, the service worker
and the offline page."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

STATIC_DIR = Path(settings.BASE_DIR) / "static"


@cache
def shell_version() -> str:
    """A fingerprint of the shell's files: a new one makes phones fetch the shell again."""
    digest = hashlib.sha256()
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file() and path.suffix in {".css", ".js", ".svg"}:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    template = Path(settings.BASE_DIR) / "templates" / "pages" / "sw.js"
    digest.update(template.read_bytes())
    return digest.hexdigest()[:12]


@cache
def shell_files() -> list[str]:
    """What the service worker keeps on the phone: the stylesheet, every script module (one the
    score-pad imports and the phone lacks would leave it blank with no signal) and the icon."""
    modules = sorted(
        path.relative_to(STATIC_DIR).as_posix() for path in (STATIC_DIR / "js").rglob("*.js")
    )
    return [static(name) for name in ["css/site.css", *modules, "img/icon.svg"]]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the score-pad installs like an app and opens full screen."""
    data = {
        "name": _("Tarabish score-pad"),
        "short_name": _("Tarabish"),
        "description": _("Score Tarabish hands at the table, with or without signal."),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fffdf7",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {
                "src": static("img/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = render(
        request,
        "pages/sw.js",
        {
            "version": shell_version(),
            "static_prefix": settings.STATIC_URL,
            "shell_files": shell_files(),
        },
        content_type="text/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/offline.html")
