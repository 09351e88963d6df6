"""Pages sent compressed to clients that accept gzip.

A 1,024-team bracket page is about a megabyte of markup and a tenth of that compressed; the app
compresses it itself, so it goes out small behind any proxy or none. The API is left as it is:
compressing a response makes its ``ETag`` weak, and the API's ``If-Match`` needs the strong tag
it sent (a weak one never matches).
"""

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class PageGZipMiddleware(GZipMiddleware):
    """Django's gzip middleware (with its protection against BREACH), for pages only."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)
