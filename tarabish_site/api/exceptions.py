"""The one exception handler: every API failure leaves in the same shape."""

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.common import CommonMiddleware
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import bad_request, permission_denied, server_error
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.engine.errors import EngineError
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.messages import CODE_MESSAGES


def error_body(
    message: str,
    code: str,
    fields: dict[str, list[str]] | None = None,
    *,
    in_code_words: bool = True,
) -> dict[str, Any]:
    """The one error shape. ``message`` and ``fields`` are worded in English with the
    particulars; in any other language of the request they are the code's wording
    (``CODE_MESSAGES``), translated, and the code stays as it is. ``in_code_words=False`` keeps
    reasons that come translated already (DRF's own validation messages)."""
    if in_code_words and code in CODE_MESSAGES and not _in_english():
        message = str(CODE_MESSAGES[code])
        fields = {name: [message] for name in fields or {}}
    return {"message": message, "code": code, "fields": fields or {}}


def refusal_said(exc: ApplicationError) -> str:
    """A service's refusal for a person reading a page (the admin's messages): its English
    words with the particulars, or in another language its code's wording, as the API says
    it."""
    return str(error_body(exc.message, exc.code)["message"])


def _in_english() -> bool:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0] == "en"


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Turn DRF's nested error detail into ``{"dotted.path": ["reason", ...]}``."""
    fields: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key in {"non_field_errors", "__all__"} else str(key)
            path = f"{prefix}.{name}" if prefix and name else (prefix or name)
            for sub_key, reasons in flatten_errors(value, path).items():
                fields.setdefault(sub_key, []).extend(reasons)
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            fields.setdefault(prefix or "non_field_errors", []).extend(str(item) for item in detail)
        else:
            for index, item in enumerate(detail):
                if item:
                    path = f"{prefix}.{index}" if prefix else str(index)
                    for sub_key, reasons in flatten_errors(item, path).items():
                        fields.setdefault(sub_key, []).extend(reasons)
    else:
        fields.setdefault(prefix or "non_field_errors", []).append(str(detail))
    return fields


def _summary(fields: dict[str, list[str]]) -> str:
    parts = [
        f"{name}: {reasons[0]}" if name != "non_field_errors" else reasons[0]
        for name, reasons in fields.items()
        if reasons
    ]
    return "; ".join(parts) if parts else "The request is not valid."


def _too_large_body() -> dict[str, Any]:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    reason = f"the body is larger than the {limit} bytes a request may send"
    return error_body(
        f"The request is too large: {reason}.", "request_too_large", {"body": [reason]}
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF ``EXCEPTION_HANDLER``: map any known error to the one JSON error shape."""
    if isinstance(exc, RequestDataTooBig):
        return Response(_too_large_body(), status=413)
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.message, exc.code, exc.fields), status=exc.status)
    if isinstance(exc, EngineError):
        field = exc.field or "non_field_errors"
        return Response(error_body(str(exc), exc.code, {field: [str(exc)]}), status=400)
    if isinstance(exc, DjangoValidationError):
        fields = (
            {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
            if hasattr(exc, "error_dict")
            else {"non_field_errors": [str(m) for m in exc.messages]}
        )
        return Response(error_body(_summary(fields), "invalid", fields), status=400)
    if isinstance(exc, Http404):
        request = context.get("request")
        path = request.path if request is not None else "this address"
        exc = drf_exceptions.NotFound(f"There is nothing at {path}.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, drf_exceptions.APIException):
        return response
    if isinstance(exc, drf_exceptions.ValidationError):
        fields = flatten_errors(exc.detail)
        response.data = error_body(_summary(fields), "invalid", fields, in_code_words=False)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = error_body(str(exc.detail), code)
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def json_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: API paths answer in the error shape, pages with the HTML page."""
    if _is_api(request):
        body = error_body(f"There is nothing at {request.path}.", "not_found")
        return JsonResponse(body, status=404)
    # A page's own reason ("There is no such tournament.") is said; an address that matched no
    # route has none (the resolver's is for developers).
    reason = None
    if not isinstance(exception, Resolver404) and exception.args:
        reason = exception.args[0] if isinstance(exception.args[0], str) else None
    return render(request, "404.html", {"reason": reason}, status=404)


def json_bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a request Django refused before any view (a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413) answers API clients in the error shape."""
    if not _is_api(request):
        return bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(_too_large_body(), status=413)
    body = error_body("The request could not be read.", "bad_request")
    return JsonResponse(body, status=400)


def json_permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: API paths answer in the error shape."""
    if not _is_api(request):
        return permission_denied(request, exception)
    body = error_body("You may not do this.", "permission_denied")
    return JsonResponse(body, status=403)


def json_server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an unexpected failure answers API clients in the error shape."""
    if not _is_api(request):
        return server_error(request)
    body = error_body(
        "Something went wrong on the server; nothing is known to have been saved. "
        "Try again in a moment.",
        "server_error",
    )
    return JsonResponse(body, status=500)


@csrf_exempt
def api_not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """The last API route: an address under ``/api/`` that no view answers gets the JSON 404
    (even with ``DEBUG`` on, when ``handler404`` is not used). As Django does for an
    address that resolves nowhere, one missing only its final slash is redirected to it."""
    if settings.APPEND_SLASH and not request.path_info.endswith("/"):
        try:
            match = resolve(f"{request.path_info}/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            middleware = CommonMiddleware(lambda _: HttpResponse())
            return middleware.response_redirect_class(middleware.get_full_path_with_slash(request))
    return json_not_found(request, Http404())
