"""The application's error hierarchy.

Services raise these; the API's one exception handler turns every one of them (and DRF's and
Django's own errors) into the same JSON body::

    {"message": "...", "code": "...", "fields": {"field": ["reason", ...]}}
"""

from collections.abc import Mapping, Sequence


class ApplicationError(Exception):
    """An error a client can act on. ``status`` is the HTTP status the API answers with."""

    status = 400
    default_code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        fields: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.fields = {key: list(reasons) for key, reasons in (fields or {}).items()}


class ValidationFailed(ApplicationError):
    status = 400
    default_code = "invalid"


class NotAllowed(ApplicationError):
    status = 403
    default_code = "permission_denied"


class NotFound(ApplicationError):
    status = 404
    default_code = "not_found"


class Conflict(ApplicationError):
    status = 409
    default_code = "conflict"


class PreconditionFailed(ApplicationError):
    status = 412
    default_code = "stale_version"


class IdempotencyMismatch(ApplicationError):
    status = 422
    default_code = "idempotency_key_reused"


class PreconditionRequired(ApplicationError):
    status = 428
    default_code = "version_required"
