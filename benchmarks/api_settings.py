"""Settings for ``benchmarks/api_bench.py`` only: the project's settings, plus the benchmark's
bare endpoint (``benchmarks.api_urls``) and throttles too high to interfere. Never used by
the service itself, so production has no bare endpoint."""

from tarabish_site.settings import *  # noqa: F403
from tarabish_site.settings import REST_FRAMEWORK

ROOT_URLCONF = "benchmarks.api_urls"
# The table of the bare endpoint, made by the benchmark in its own database.
BENCH_BARE_TABLE = "bench_bare_row"
DEBUG = False
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"writes": "10000000/minute", "login": "10000000/minute"},
}
# One line a request in the log would measure the terminal, not the API.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "ERROR"},
}
