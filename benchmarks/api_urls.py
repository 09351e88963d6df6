"""The service's URLs plus two benchmark-only endpoints, loaded only by
``benchmarks.api_settings``:

* ``POST /bench/token-insert/``: the bare endpoint, the baseline the hand endpoint is measured
  against: a write of the API's own stack (Django middleware, DRF, token authentication, JSON in
  and out, the write rate limit every API view has) doing nothing but inserting one row, so the
  ratio shows what entering a hand costs beyond it;
* ``POST /bench/token-insert-unlimited/``: the same without the write rate limit, a reference
  for what the limit costs;
* ``POST /bench/bare/``: a plain Django view that reads the JSON body and inserts the same
  row, with no DRF and no authentication: a reference for what the framework itself costs;
* ``GET /bench/memory/``: what the worker that answers holds (``benchmarks/memory_curve.py``):
  its resident set, the C allocator's heap, the objects the garbage collector tracks, and,
  once ``?trace=FRAMES`` has started tracemalloc, what Python allocated since and still holds,
  by traceback (``?top=N``).
"""

import ctypes
import gc
import json
import sys
import threading
import tracemalloc
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tarabish_site.urls import urlpatterns as site_urlpatterns

BARE_TABLE = getattr(settings, "BENCH_BARE_TABLE", "bench_bare_row")


def _insert(body: object) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id",  # noqa: S608 - constant
            [json.dumps(body)],
        )
        (row_id,) = cursor.fetchone()
    return int(row_id)


@csrf_exempt
@require_POST
def bare_insert(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"id": _insert(json.loads(request.body))}, status=201)


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _malloc() -> dict[str, int] | None:
    """glibc's heap: bytes in use, free but kept, and mapped for big blocks."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError):
        return None  # not glibc, or older than 2.33
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return {"in_use": info.uordblks + info.hblkhd, "free": info.fordblks, "mapped": info.hblkhd}


def _status() -> dict[str, int]:
    wanted = {"VmRSS", "RssAnon", "RssFile", "Threads"}
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in wanted:
            out[key] = int(value.split()[0])
    return out


#: The objects by type when tracing started.
_types_at_start: list[dict[str, int]] = []


def _types() -> dict[str, int]:
    """The objects the garbage collector tracks, counted by type (a plain loop: a ``Counter``
    would fill the ABCs' caches, which tracing would then report)."""
    counts: dict[str, int] = {}
    for thing in gc.get_objects():
        name = type(thing).__qualname__
        counts[name] = counts.get(name, 0) + 1
    return counts


def _growth(top: int) -> dict[str, object]:
    """What Python allocated since tracing started and still holds, by traceback (tracing
    started with nothing traced, so every trace is growth), and the types with more objects."""
    before, now = _types_at_start[0], _types()  # counted before the snapshot adds its own
    grown = sorted(
        ((name, count - before.get(name, 0)) for name, count in now.items()),
        key=lambda item: -item[1],
    )[:top]
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    return {
        "traced": tracemalloc.get_traced_memory()[0],
        "top": [
            {
                "size": stat.size,
                "count": stat.count,
                "traceback": stat.traceback.format(most_recent_first=True),
            }
            for stat in snapshot.statistics("traceback")[:top]
        ],
        "types": grown,
    }


def memory(request: HttpRequest) -> HttpResponse:
    """This worker's memory. ``?trace=FRAMES`` starts tracemalloc (and counts the objects by
    type) the first time; later, ``?top=N`` lists the N tracebacks whose memory grew most
    since, and the N types whose objects did. Answered by whichever worker takes the
    request, so one worker is what this describes."""
    gc.collect()
    answer: dict[str, object] = {
        **_status(),
        "threads_python": threading.active_count(),
        "gc_objects": len(gc.get_objects()),
        "gc_frozen": gc.get_freeze_count(),
        "blocks": sys.getallocatedblocks(),
        "malloc": _malloc(),
    }
    frames = request.GET.get("trace")
    if frames and not tracemalloc.is_tracing():
        _types_at_start.append(_types())
        tracemalloc.start(int(frames))
    elif tracemalloc.is_tracing() and request.GET.get("top"):
        answer["growth"] = _growth(int(request.GET["top"]))
    return JsonResponse(answer)


class TokenInsertView(APIView):
    """An API write with the API's defaults (the write rate limit among them)."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        return Response({"id": _insert(request.data)}, status=201)


class UnlimitedTokenInsertView(TokenInsertView):
    throttle_classes = []


urlpatterns = [
    path("bench/bare/", bare_insert),
    path("bench/token-insert/", TokenInsertView.as_view()),
    path("bench/token-insert-unlimited/", UnlimitedTokenInsertView.as_view()),
    path("bench/memory/", memory),
    *site_urlpatterns,
]
