"""Idempotent POSTs: a phone with bad signal may send the same request again and again.

A client names each logical request with an ``Idempotency-Key`` header (any visible ASCII, at most
255 characters; a UUID is a good choice). For one user and one key:

* the first request runs; its response (status, body, ``Location`` and ``ETag``) is stored in an
  :class:`~tarabish_site.core.models.IdempotencyRecord` **in the same transaction** as the write
  it made, so either both are committed or neither is;
* a later request with the same body gets the stored response again, with the header
  ``Idempotent-Replayed: true``, and nothing new is written;
* a later request with a different body, method or path gets 422 ``idempotency_key_reused``;
* a request sent while the first is still running gets 409 ``idempotency_key_in_flight``; the
  client retries a moment later and gets the stored response. On PostgreSQL this is detected with
  a transaction-scoped advisory lock on (user, key), released when the first request commits or
  rolls back; the unique constraint on (user, key) backs it on every database.

An answer may hold what must not be kept in the store, such as the secret of a webhook shown
once: :func:`idempotent_kept_out` names those keys of the body, left out of the stored copy,
and how a replay reads them again from where they live (:class:`KeptOut`), so the replay
answers the same body and the store never held the secret.

Only successful (2xx) responses are stored. A request that fails leaves nothing behind (its
transaction is rolled back), so correcting the body and retrying with the same key is allowed.

Use it on any DRF view method or viewset action, above ``@action`` when there is one::

    class HandViewSet(viewsets.GenericViewSet):
        @idempotent
        def create(self, request: Request, *args: Any, **kwargs: Any) -> Response: ...

        @idempotent
        @action(detail=False, methods=["post"])
        def undo(self, request: Request, *args: Any, **kwargs: Any) -> Response: ...

or call :func:`run_idempotent` with a function that produces the response. The decorator also
documents the header in the OpenAPI schema.

A view whose write is a single statement (entering a hand) can store the record in that same
statement instead, with no transaction around it: :func:`idempotent_in_write` hands the view a
:class:`PendingRecord`, which makes the record from the response the view is about to give,
and looks the key up only if the view fails (see :func:`run_idempotent_in_write`). A retry
racing the first request then waits for the first write and gets its stored response, never
409 ``idempotency_key_in_flight``.
"""

import functools
import hashlib
import json
import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from tarabish_site.api.errors import Conflict, IdempotencyMismatch, ValidationFailed
from tarabish_site.core.models import IdempotencyRecord

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT_HEADERS = ("Location", "ETag")
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,255}")
# First half of the two-part PostgreSQL advisory lock key: this lock's own namespace.
_LOCK_NAMESPACE = 0x1DE5  # "idempotency"

IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name=IDEMPOTENCY_HEADER,
    type={"type": "string", "pattern": f"^{KEY_PATTERN.pattern}$", "maxLength": 255},
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "A key of your choosing (a UUID is best; visible ASCII, at most 255 characters) that "
        "names this request. Send the same key when you retry: with the same body you get the "
        "first response again (header `Idempotent-Replayed: true`) and nothing is written twice; "
        "with a different body you get 422; while the first request is still running, 409. Keys "
        f"are kept for {settings.IDEMPOTENCY_KEY_TTL_HOURS} hours."
    ),
)
REPLAYED_RESPONSE_HEADER = OpenApiParameter(
    name=REPLAYED_HEADER,
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200, 201],
    description="`true` when this is the stored response of an earlier request with the same key.",
)

ViewMethod = TypeVar("ViewMethod", bound=Callable[..., Response])


def request_fingerprint(data: object) -> str:
    """SHA-256 of the request body as canonical JSON (sorted keys, no spaces)."""
    if hasattr(data, "lists"):  # a QueryDict from a form body: keep every value of every key
        data = dict(data.lists())
    canonical = json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _request_key(request: Request) -> str | None:
    raw = request.headers.get(IDEMPOTENCY_HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if not KEY_PATTERN.fullmatch(key):
        reason = (
            "An Idempotency-Key must be 1 to 255 visible ASCII characters with no spaces, "
            "for example a UUID."
        )
        raise ValidationFailed(
            reason, code="idempotency_key_invalid", fields={IDEMPOTENCY_HEADER: [reason]}
        )
    return key


_IN_FLIGHT = (
    "A request with this Idempotency-Key is still being processed. "
    "Retry in a moment to get its response."
)
_RECORD_COLUMNS = ("id", "method", "path", "fingerprint", "status_code", "response_body")


def _lock_and_find(user_id: int | None, key: str, *, lock: bool = True) -> IdempotencyRecord | None:
    """Take the (user, key) lock for this transaction and return the stored record, if any;
    refuse with 409 when another transaction holds the lock (the key is being used now).

    On PostgreSQL both happen in one round trip: a transaction-scoped advisory lock, released
    at commit or rollback, and the look-up beside it. Other databases serialize writers, so
    the look-up alone is enough there and the unique constraint catches the rest.
    Without ``lock``, only the look-up (from the same SQL).
    """
    if connection.vendor != "postgresql":
        return _find(user_id, key)
    digest = hashlib.blake2b(f"{user_id}:{key}".encode(), digest_size=4).digest()
    lock_id = int.from_bytes(digest, "big", signed=True)
    acquire = "pg_try_advisory_xact_lock(%s, %s)" if lock else "TRUE"
    table = IdempotencyRecord._meta.db_table
    columns = ", ".join(f"record.{name}" for name in _RECORD_COLUMNS)
    owner = "record.user_id IS NULL" if user_id is None else "record.user_id = %s"
    sql = (
        f"SELECT {acquire}, {columns}, record.response_headers "  # noqa: S608
        f"FROM (SELECT 1) AS one LEFT JOIN {table} AS record "
        f"ON record.key = %s AND {owner}"
    )
    params: list[int | str] = [_LOCK_NAMESPACE, lock_id, key] if lock else [key]
    if user_id is not None:
        params.append(user_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        acquired, *values, headers = cursor.fetchone()
    if not acquired:
        raise Conflict(
            _IN_FLIGHT, code="idempotency_key_in_flight", fields={IDEMPOTENCY_HEADER: [_IN_FLIGHT]}
        )
    if values[0] is None:
        return None
    record = IdempotencyRecord(user_id=user_id, key=key)
    for name, value in [*zip(_RECORD_COLUMNS, values, strict=True), ("response_headers", headers)]:
        model_field = IdempotencyRecord._meta.get_field(name)
        from_db = getattr(model_field, "from_db_value", None)  # JSON columns arrive as text
        setattr(record, name, value if from_db is None else from_db(value, None, connection))
    return record


def _find(user_id: int | None, key: str) -> IdempotencyRecord | None:
    records = IdempotencyRecord.objects.filter(key=key)
    if user_id is None:
        return records.filter(user__isnull=True).first()
    return records.filter(user_id=user_id).first()


@dataclass(frozen=True)
class KeptOut:
    """Keys of an answer's body left out of its stored copy, and ``restore``, which gives the
    stored body back whole on a replay (reading them from where they are kept; raising an
    :class:`~tarabish_site.api.errors.ApiError` when they are gone)."""

    keys: frozenset[str]
    restore: Callable[[dict[str, Any]], dict[str, Any]]

    def stored(self, body: Any) -> Any:
        if not isinstance(body, dict):
            return body
        return {key: value for key, value in body.items() if key not in self.keys}


def _replay(
    record: IdempotencyRecord,
    request: Request,
    fingerprint: str,
    kept_out: KeptOut | None = None,
) -> Response:
    if (
        record.method != request.method
        or record.path != request.path
        or record.fingerprint != fingerprint
    ):
        message = (
            f"This Idempotency-Key was already used for a different request "
            f"({record.method} {record.path} with another body). Use a new key for a new request."
        )
        raise IdempotencyMismatch(message, fields={IDEMPOTENCY_HEADER: [message]})
    headers = {**record.response_headers, REPLAYED_HEADER: "true"}
    body = record.response_body
    if kept_out is not None and isinstance(body, dict):
        body = kept_out.restore(body)
    return Response(body, status=record.status_code, headers=headers)


@dataclass(frozen=True)
class PendingRecord:
    """An ``Idempotency-Key`` not used yet: what its record will hold besides the response."""

    user_id: int | None
    key: str
    method: str
    path: str
    fingerprint: str

    @classmethod
    def of(cls, request: Request, key: str) -> "PendingRecord":
        return cls(
            user_id=request.user.pk if request.user.is_authenticated else None,
            key=key,
            method=request.method or "",
            path=request.path,
            fingerprint=request_fingerprint(request.data),
        )

    def record(self, response: Response, kept_out: KeptOut | None = None) -> IdempotencyRecord:
        """The record (not saved) that answers a retry with ``response`` (its body without the
        keys ``kept_out`` names)."""
        return IdempotencyRecord(
            user_id=self.user_id,
            key=self.key,
            method=self.method,
            path=self.path,
            fingerprint=self.fingerprint,
            status_code=response.status_code,
            response_body=response.data if kept_out is None else kept_out.stored(response.data),
            response_headers={
                name: response[name] for name in KEPT_HEADERS if response.has_header(name)
            },
        )


def _store(record: IdempotencyRecord) -> None:
    """Insert the record (one INSERT)."""
    record.save(force_insert=True)


def run_idempotent(
    request: Request, handler: Callable[[], Response], kept_out: KeptOut | None = None
) -> Response:
    """Answer ``request`` with ``handler()`` at most once per ``Idempotency-Key`` (the stored
    answer without the keys ``kept_out`` names, put back on a replay).

    Without the header the handler simply runs. With it, the handler runs inside a transaction
    that also stores its response; services the handler calls nest inside it (their
    ``transaction.atomic`` becomes a savepoint and their ``delay_on_commit`` tasks are sent when
    this transaction commits), so they must not ask for a durable transaction.
    """
    key = _request_key(request)
    if key is None:
        return handler()
    pending = PendingRecord.of(request, key)
    try:
        with transaction.atomic():
            existing = _lock_and_find(pending.user_id, key)
            if existing is not None:
                return _replay(existing, request, pending.fingerprint, kept_out)
            response = handler()
            if not 200 <= response.status_code < 300:
                # Nothing is remembered for a failure, so nothing it did may stay either.
                transaction.set_rollback(True)
                return response
            _store(pending.record(response, kept_out))
            return response
    except IntegrityError:
        # Without the PostgreSQL lock, a request with the same key can commit between our
        # look-up and our insert; everything we did is rolled back and its response answers.
        existing = _find(pending.user_id, key)
        if existing is None:
            raise
        return _replay(existing, request, pending.fingerprint, kept_out)


def run_idempotent_in_write(
    request: Request, handler: Callable[[PendingRecord | None], Response]
) -> Response:
    """Answer ``request`` with ``handler(pending)`` at most once per ``Idempotency-Key``, where
    the handler writes ``pending.record(response)`` itself, in the same statement or
    transaction as its own write (``pending`` is None without the header).

    The handler runs first and the key is looked up only when it fails: a key used before
    makes it fail, either at the unique constraint on the record (``IntegrityError``, nothing
    written) or earlier, because its first request changed what this one would write (the
    hand it entered now exists: a :class:`Conflict` or another refusal). Then the stored
    response answers, or 422 for a different request; with no record, the failure stands. So
    a first request, the usual case, pays no look-up, and a retry racing the first request
    waits for its write and gets its response.
    """
    key = _request_key(request)
    if key is None:
        return handler(None)
    pending = PendingRecord.of(request, key)
    # Inside a transaction already (a test's), a failed statement must not end it.
    outer = transaction.atomic() if connection.in_atomic_block else nullcontext()
    try:
        with outer:
            return handler(pending)
    except Exception:
        existing = _lock_and_find(pending.user_id, key, lock=False)
        if existing is None:
            raise
        return _replay(existing, request, pending.fingerprint)


def idempotent(view_method: ViewMethod) -> ViewMethod:
    """Make a DRF view method or viewset action honour ``Idempotency-Key`` (see module doc)."""

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        return run_idempotent(request, lambda: view_method(self, request, *args, **kwargs))

    return cast(ViewMethod, _documented(wrapper))


def idempotent_kept_out(kept_out: KeptOut) -> Callable[[ViewMethod], ViewMethod]:
    """Like :func:`idempotent`, for a view whose answer holds keys that must not be stored
    (a secret shown once): the stored copy leaves ``kept_out.keys`` out, and a replay puts
    them back with ``kept_out.restore``."""

    def decorate(view_method: ViewMethod) -> ViewMethod:
        @functools.wraps(view_method)
        def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
            return run_idempotent(
                request, lambda: view_method(self, request, *args, **kwargs), kept_out
            )

        return cast(ViewMethod, _documented(wrapper))

    return decorate


def idempotent_in_write(view_method: ViewMethod) -> ViewMethod:
    """Like :func:`idempotent`, for a view method that writes the record itself: it is given
    the keyword argument ``idempotency`` (a :class:`PendingRecord`, or None without the
    header) and writes ``idempotency.record(response)`` with its own write."""

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        return run_idempotent_in_write(
            request,
            lambda pending: view_method(self, request, *args, idempotency=pending, **kwargs),
        )

    return cast(ViewMethod, _documented(wrapper))


_documented = extend_schema(parameters=[IDEMPOTENCY_KEY_PARAMETER, REPLAYED_RESPONSE_HEADER])
