"""The API's JSON parser: DRF's, refusing a body nested too deep to read.

Python's JSON decoder recurses once per level of nesting, so a small body of a few thousand
``[`` exhausts the interpreter's stack; anything that walks the parsed body later (the
idempotency fingerprint, a serializer) would do the same at a smaller depth. A body nested
deeper than :data:`MAX_DEPTH` is refused with 400 ``parse_error`` in the one error shape, as
any other body that is not JSON. No request of this API needs more than a handful of levels.
"""

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

#: The deepest nesting of arrays and objects a body may have.
MAX_DEPTH = 32

_TOO_DEEP = f"JSON parse error - the body is nested more than {MAX_DEPTH} levels deep"


def depth_within(data: Any, limit: int) -> bool:
    """Whether ``data`` (parsed JSON) nests arrays and objects no deeper than ``limit``,
    found without recursion."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth >= limit:
            return False
        pending.extend((child, depth + 1) for child in children)
    return True


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; a body nested too deep is a parse error, never a crash."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_TOO_DEEP) from None
        if not depth_within(data, MAX_DEPTH):
            raise ParseError(_TOO_DEEP)
        return data
