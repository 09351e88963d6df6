"""The Content-Security-Policy every page is sent (settings.CONTENT_SECURITY_POLICY, by
django-csp): scripts, styles, images, fonts and connections from this site alone, no inline
script or style, no plugins, forms posted here only, and no framing by another site.

Connections (``connect-src``) also allow the site's own WebSocket, ``wss://`` (and, over plain
HTTP, ``ws://``) of the host the page was asked from: browsers differ on whether ``'self'``
covers them.

A view that needs another policy changes it for itself with django-csp's decorators, for
instance a bracket meant to be embedded in other sites::

    from csp.decorators import csp_replace
    from django.views.decorators.clickjacking import xframe_options_exempt

    @xframe_options_exempt
    @csp_replace({"frame-ancestors": ["*"]})
    def bracket_embed(request, slug): ...
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with the WebSocket of the host the request came to."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        sockets = [f"wss://{host}"] if request.is_secure() else [f"ws://{host}", f"wss://{host}"]
        update = dict(parts.update or {})
        given = update.get("connect-src") or []
        update["connect-src"] = [*([given] if isinstance(given, str) else given), *sockets]
        parts.update = update
        return parts
