"""The hand envelope's quick path gives what the serializer gives, for any body."""

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from scoring.api.serializers import HandEnvelopeSerializer

MISSING = object()
kinds = st.sampled_from(["summary", "tricks", "Summary", "", 1, None, MISSING])
numbers = st.one_of(
    st.sampled_from([MISSING, None, True, False, "3", "x", 2.0, 2.5]),
    st.integers(min_value=-3, max_value=10**12),
)


def _by_serializer(data: Any) -> Any:
    envelope = HandEnvelopeSerializer(data=data)
    if envelope.is_valid():
        return dict(envelope.validated_data)
    return ("refused", envelope.errors)


def _quick(data: Any) -> Any:
    try:
        return HandEnvelopeSerializer.validated(data)
    except ValidationError as refused:
        return ("refused", refused.detail)


@given(kind=kinds, number=numbers, other=st.booleans())
def test_the_quick_path_agrees_with_the_serializer(kind: Any, number: Any, other: bool) -> None:
    data: dict[str, Any] = {"caller": 0} if other else {}
    if kind is not MISSING:
        data["entry_kind"] = kind
    if number is not MISSING:
        data["number"] = number
    assert _quick(data) == _by_serializer(data)


def test_a_body_that_is_not_an_object_goes_to_the_serializer() -> None:
    assert _quick([1, 2]) == _by_serializer([1, 2])
