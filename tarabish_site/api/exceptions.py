"""The one exception handler: every API failure leaves in the same shape."""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.engine.errors import EngineError
from tarabish_site.api.errors import ApplicationError


def error_body(
    message: str, code: str, fields: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    return {"message": message, "code": code, "fields": fields or {}}


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Turn DRF's nested error detail into ``{"dotted.path": ["reason", ...]}``."""
    fields: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key in {"non_field_errors", "__all__"} else str(key)
            path = f"{prefix}.{name}" if prefix and name else (prefix or name)
            for sub_key, reasons in _flatten(value, path).items():
                fields.setdefault(sub_key, []).extend(reasons)
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            fields.setdefault(prefix or "non_field_errors", []).extend(str(item) for item in detail)
        else:
            for index, item in enumerate(detail):
                if item:
                    path = f"{prefix}.{index}" if prefix else str(index)
                    for sub_key, reasons in _flatten(item, path).items():
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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF ``EXCEPTION_HANDLER``: map any known error to the one JSON error shape."""
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
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, drf_exceptions.APIException):
        return response
    if isinstance(exc, drf_exceptions.ValidationError):
        fields = _flatten(exc.detail)
        response.data = error_body(_summary(fields), "invalid", fields)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = error_body(str(exc.detail), code)
    return response


def json_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: API paths answer in the error shape, pages with the HTML page."""
    if request.path.startswith("/api/"):
        body = error_body(f"There is nothing at {request.path}.", "not_found")
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)
