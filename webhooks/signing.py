"""The signature of a delivery, and its check (what a receiver does, in Python).

Every delivery carries ``Tarabish-Signature: t=<unix seconds>,v1=<hex>``, where ``<hex>`` is
HMAC-SHA256, keyed with the subscription's secret, of ``"<t>.<body>"`` (the timestamp, a period
and the request body exactly as received, as UTF-8). A receiver recomputes it, compares in
constant time, and refuses a timestamp further than its tolerance from its clock (five minutes
here), so a request recorded on the way cannot be replayed later.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

HEADER = "Tarabish-Signature"
SCHEME = "v1"
#: Seconds a receiver accepts between the signature's timestamp and its own clock.
TOLERANCE = 300


class SignatureInvalid(ValueError):
    """The signature header is missing, malformed, wrong or outside the replay window."""


def new_secret() -> str:
    """A subscription's signing secret: 256 random bits, as text."""
    return "whsec_" + secrets.token_hex(28)


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The hex HMAC-SHA256 of ``"<timestamp>.<body>"``."""
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def header(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The ``Tarabish-Signature`` value for ``body``, signed now (or at ``timestamp``)."""
    when = int(time.time()) if timestamp is None else timestamp
    return f"t={when},{SCHEME}={sign(secret, body, when)}"


def verify(
    secret: str,
    signature: str,
    body: bytes,
    *,
    tolerance: int = TOLERANCE,
    now: float | None = None,
) -> int:
    """Check a ``Tarabish-Signature`` value against ``body``; the signed timestamp, or
    :class:`SignatureInvalid`."""
    parts: dict[str, list[str]] = {}
    for item in (signature or "").split(","):
        key, _, value = item.strip().partition("=")
        parts.setdefault(key, []).append(value)
    try:
        timestamp = int(parts["t"][0])
    except (KeyError, ValueError):
        raise SignatureInvalid("no timestamp in the signature") from None
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > tolerance:
        raise SignatureInvalid("the signature's timestamp is outside the replay window")
    expected = sign(secret, body, timestamp)
    if not any(hmac.compare_digest(expected, given) for given in parts.get(SCHEME, [])):
        raise SignatureInvalid("the signature does not match the body")
    return timestamp
