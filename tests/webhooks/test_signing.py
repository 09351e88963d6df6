"""The signature a receiver checks: HMAC-SHA256 over "<timestamp>.<body>", in a replay window."""

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webhooks import signing

SECRET = "whsec_" + "ab" * 28


def test_the_header_is_the_documented_hmac_of_timestamp_and_body() -> None:
    body = b'{"id":"1","event":"match.result"}'
    value = signing.header(SECRET, body, timestamp=1_790_000_000)
    expected = hmac.new(SECRET.encode(), b"1790000000." + body, hashlib.sha256).hexdigest()
    assert value == f"t=1790000000,v1={expected}"
    assert signing.verify(SECRET, value, body, now=1_790_000_100) == 1_790_000_000


@given(body=st.binary(max_size=200), other=st.binary(max_size=200))
def test_another_body_never_verifies(body: bytes, other: bytes) -> None:
    value = signing.header(SECRET, body, timestamp=1_790_000_000)
    if other != body:
        with pytest.raises(signing.SignatureInvalid, match="does not match"):
            signing.verify(SECRET, value, other, now=1_790_000_000)


def test_a_signature_outside_the_replay_window_is_refused() -> None:
    value = signing.header(SECRET, b"{}", timestamp=1_790_000_000)
    with pytest.raises(signing.SignatureInvalid, match="replay window"):
        signing.verify(SECRET, value, b"{}", now=1_790_000_000 + signing.TOLERANCE + 1)
    with pytest.raises(signing.SignatureInvalid, match="replay window"):
        signing.verify(SECRET, value, b"{}", now=1_790_000_000 - signing.TOLERANCE - 1)


@pytest.mark.parametrize("value", ["", "v1=abc", "t=soon,v1=abc", "garbage"])
def test_a_malformed_header_is_refused(value: str) -> None:
    with pytest.raises(signing.SignatureInvalid):
        signing.verify(SECRET, value, b"{}", now=1_790_000_000)


def test_another_secret_does_not_verify() -> None:
    value = signing.header(signing.new_secret(), b"{}", timestamp=1_790_000_000)
    with pytest.raises(signing.SignatureInvalid):
        signing.verify(SECRET, value, b"{}", now=1_790_000_000)


def test_secrets_are_new_each_time_and_long() -> None:
    first, second = signing.new_secret(), signing.new_secret()
    assert first != second
    assert len(first) == len("whsec_") + 56
