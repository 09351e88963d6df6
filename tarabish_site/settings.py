"""Settings for the Tarabish service.

Everything comes from the environment (see ``.env.example``). With nothing set, a checkout runs
on embedded defaults: SQLite in ``var/``, Celery tasks executed in-process, a local-memory cache.
``DATABASE_URL``, ``CELERY_BROKER_URL`` and ``REDIS_URL`` switch to PostgreSQL, real Celery
workers and Redis. ``TARABISH_ENV=production`` fails closed: no default secret key or allowed
hosts, secure cookies, no debug.
"""

from datetime import timedelta
from pathlib import Path

import django_stubs_ext
import environ
from redis.exceptions import ConnectionError as RedisConnectionError

# Lets generic classes such as ModelAdmin[Model] be subscripted at run time, as the stubs allow.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

TARABISH_ENV = env.str("TARABISH_ENV", default="development")
if TARABISH_ENV not in {"development", "production", "test"}:
    raise environ.ImproperlyConfigured(
        f"TARABISH_ENV must be development, production or test, not {TARABISH_ENV!r}"
    )
PRODUCTION = TARABISH_ENV == "production"

# ------------------------------------------------------------------------------------------ core
if PRODUCTION:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY")
    # What Django's own deployment check (security.W009) asks of a key, refused at start, not
    # left to a warning nobody reads: a short key lets sessions and tokens be forged.
    from django.core.checks.security.base import (
        SECRET_KEY_INSECURE_PREFIX,
        SECRET_KEY_MIN_LENGTH,
        SECRET_KEY_MIN_UNIQUE_CHARACTERS,
    )

    if (
        len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
        or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)
    ):
        raise environ.ImproperlyConfigured(
            f"DJANGO_SECRET_KEY must be at least {SECRET_KEY_MIN_LENGTH} characters, with at "
            f"least {SECRET_KEY_MIN_UNIQUE_CHARACTERS} different ones, and not start with "
            f"{SECRET_KEY_INSECURE_PREFIX!r}: make one with "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
    DEBUG = False
else:
    SECRET_KEY = env.str(
        "DJANGO_SECRET_KEY", default="development-only-key-never-used-in-production-0123456789"
    )
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
    DEBUG = env.bool("DJANGO_DEBUG", default=TARABISH_ENV == "development")

CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First: its runserver serves HTTP and WebSockets (ASGI) in one process.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "corsheaders",
    "rest_framework",
    # Only for the migration that turns its keys into device tokens (core 0004); no view or
    # authentication reads its table any more.
    "rest_framework.authtoken",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "tarabish_site.core",
    "scoring",
    "tournaments",
    "play",
    "webhooks",
]

MIDDLEWARE = [
    "tarabish_site.middleware.ObservedRequests",  # first: times and logs the whole request
    # Pages compressed for clients that accept gzip (static files are whitenoise's).
    "tarabish_site.compression.PageGZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tarabish_site.csp.SiteCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything that may answer (CommonMiddleware), so every API answer has its headers.
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # After CommonMiddleware, so the tag is of the body as sent; before the views.
    "tarabish_site.api.conditional.ApiConditionalGet",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tarabish_site.urls"
WSGI_APPLICATION = "tarabish_site.wsgi.application"
ASGI_APPLICATION = "tarabish_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ------------------------------------------------------------------------------------- database
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'tarabish.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Parameters travel apart from the SQL, and a statement run this many times on one
    # connection is prepared there: PostgreSQL parses and plans it once, not on every request.
    # Empty turns preparing off (needed behind a pooler in transaction mode).
    prepare_threshold = env.str("DATABASE_PREPARE_THRESHOLD", default="5")
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "server_side_binding": True,
            "prepare_threshold": int(prepare_threshold) if prepare_threshold else None,
        }
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A busy timeout lets the development server and an in-process task share the file, and
    # every transaction takes the write lock when it begins: one begun as a reader that then
    # writes can deadlock with another, and SQLite answers "database is locked" at once
    # instead of waiting (two undos on two games at the same moment did).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------------------------------- cache
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # Short timeouts: a Redis that does not answer costs a request a fraction of a second,
    # and what uses the cache on a write (the rate limit, the standings' debounce flag) goes
    # on without it.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": env.float("REDIS_CONNECT_TIMEOUT", default=0.5),
                "socket_timeout": env.float("REDIS_TIMEOUT", default=1.0),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# -------------------------------------------------------------------------------- channel layer
# How WebSocket consumers in different processes reach each other (tarabish_site.live, online
# tables): in memory within one process by default, through Redis when REDIS_URL is set, by
# Redis' publish/subscribe (channels_redis' pubsub layer): a message published to a group is
# pushed by Redis on each process's one subscribed connection, which hands it to that process's
# members of the group, rather than stored in a list per member that each process drains one
# round trip at a time (the core layer; with a hundred tables playing, its messages waited
# 120-150 ms at the median and 460-520 ms at the 99th percentile to be received).
#: A Redis that stops answering fails a publish (logged and skipped, tarabish_site.live) or a
#: socket's subscription instead of holding a request or a consumer for ever. The subscribed
#: connection reads with its own 0.1 s wait, so an idle socket never meets the read timeout.
CHANNEL_LAYER_TIMEOUTS = {
    "socket_connect_timeout": env.float("CHANNEL_LAYER_CONNECT_TIMEOUT", default=1.0),
    "socket_timeout": env.float("CHANNEL_LAYER_TIMEOUT", default=10.0),
}
#: How the layer connects to Redis: those timeouts, and a connection Redis has closed (it
#: restarted) opened again by the command that finds it closed, once, rather than that command
#: failing: the first live update after a restart was lost, and its table waited for a reload.
CHANNEL_LAYER_CONNECTION = {**CHANNEL_LAYER_TIMEOUTS, "retry_on_error": [RedisConnectionError]}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, **CHANNEL_LAYER_CONNECTION}],
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default="tarabish"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

#: Online play: a computer player waits this many seconds (at random between the two) before
#: each move, as a person would.
PLAY_COMPUTER_DELAY = (
    env.float("PLAY_COMPUTER_DELAY_MIN", default=0.6),
    env.float("PLAY_COMPUTER_DELAY_MAX", default=1.4),
)
#: Seconds the computer players hold their next move while a person may call bella (it is
#: called right after the card, before anyone else acts).
PLAY_BELLA_WAIT = env.float("PLAY_BELLA_WAIT", default=4.0)
#: Seconds between two looks at a table's state by a page that cannot hold its WebSocket open
#: (it polls instead, and each look also lets the computer players move).
PLAY_POLL_SECONDS = env.float("PLAY_POLL_SECONDS", default=0.7)

# --------------------------------------------------------------------------------------- celery
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    # in-process, never used to send (tasks run eagerly); its host named, so that kombu has
    # nothing to warn about on a machine with no broker
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
# A task taken by a worker that dies (acks_late) goes back to the queue once this long has
# passed without its acknowledgement: longer than any task may run (its time limit), or a task
# still running would be given to a second worker, and not kombu's hour, or a killed worker's
# tasks wait that long. Short connect timeouts: a web request that sends a task to an
# unreachable broker is told so in a second, and what it sends is left to a periodic repair.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=CELERY_TASK_TIME_LIMIT + 60),
    "socket_connect_timeout": 1.0,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="tarabish")
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "worker-heartbeat": {"task": "tarabish_site.core.tasks.worker_heartbeat", "schedule": 60.0},
    # Changes to games' results that could not be announced when they committed.
    "scoring-result-changes-deliver": {
        "task": "scoring.tasks.result_changes_deliver",
        "schedule": 30.0,
    },
    # Safety net behind the on-commit updates: every match whose games say otherwise set
    # right, then every running stage's standings, in full.
    "tournament-standings-recompute": {
        "task": "tournaments.tasks.standings_recompute_all",
        "schedule": 300.0,
    },
    "device-tokens-expire": {
        "task": "tarabish_site.core.tasks.device_tokens_expire_task",
        "schedule": 3600.0,
    },
    # Disputes whose verdict task was lost (their worker died): judged after a minute.
    "scoring-disputes-adjudicate-pending": {
        "task": "scoring.tasks.disputes_adjudicate_pending",
        "schedule": 60.0,
    },
    # Ratings whose task was lost: every running or recently played tournament in line.
    "tournament-ratings-repair": {
        "task": "tournaments.tasks.ratings_repair",
        "schedule": 300.0,
    },
    # Webhook deliveries due: a task never sent (the broker was out of reach) or a retry whose
    # backoff has run.
    "webhooks-deliveries-send-due": {
        "task": "webhooks.tasks.deliveries_send_due",
        "schedule": 15.0,
    },
    "idempotency-records-expire": {
        "task": "tarabish_site.core.tasks.idempotency_records_expire_task",
        "schedule": 3600.0,
    },
}

# ------------------------------------------------------------------------------ auth, i18n, static
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Every account signs in here (the admin's own sign-in takes staff only).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# English and Canadian French (Cheticamp, Isle Madame). A visitor's language is the one they
# chose with the switch at the foot of every page (remembered in the language cookie), else the
# first of their browser's Accept-Language that is listed here (any French is "fr-ca"), else
# English. A language is listed only once its catalogue in LOCALE_PATHS is complete, which
# `make check` verifies (tools/i18n_check.py); Django's own messages and dates in French come
# from its "fr" catalogue, which "fr-ca" falls back to.
# Each named in its own language, as the switch shows it.
LANGUAGES = [("en", "English"), ("fr-ca", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The choice outlives the browser session: a phone at the table stays in French all season.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env.str("TIME_ZONE", default="America/Halifax")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "tarabish_site.staticfiles.HashedStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# ------------------------------------------------------------------------------------------ api
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tarabish_site.api.authentication.DeviceTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["tarabish_site.api.permissions.DenyAll"],
    # JSON nested deeper than any request needs is a 400, not a crash of the parser.
    "DEFAULT_PARSER_CLASSES": [
        "tarabish_site.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Every API view counts its writes; the token view has the login limit instead.
    "DEFAULT_THROTTLE_CLASSES": ["tarabish_site.api.throttles.WritesThrottle"],
    "DEFAULT_PAGINATION_CLASS": "tarabish_site.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "tarabish_site.api.filters.FilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "tarabish_site.api.schema.ApiAutoSchema",
    "EXCEPTION_HANDLER": "tarabish_site.api.exceptions.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "writes": env.str("THROTTLE_WRITES", default="600/minute"),
        "login": env.str("THROTTLE_LOGIN", default="10/minute"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # The proxies in front of gunicorn whose X-Forwarded-For the limits trust for the
    # client's address (deploy/nginx: 1, and it writes the header itself). 0: none, the
    # socket's address is the client's, so a header a client made up moves nothing.
    "NUM_PROXIES": env.int("DJANGO_NUM_PROXIES", default=0),
}

# Device tokens (django-rest-knox, tarabish_site.core.models.DeviceToken): stored hashed, one a
# device, sliding expiry: each use moves it DEVICE_TOKEN_TTL_DAYS on (at most once a minute).
KNOX_TOKEN_MODEL = "core.DeviceToken"  # noqa: S105 (a model, not a secret)
REST_KNOX = {
    "TOKEN_MODEL": KNOX_TOKEN_MODEL,
    "TOKEN_TTL": timedelta(days=env.int("DEVICE_TOKEN_TTL_DAYS", default=30)),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
    "AUTH_HEADER_PREFIX": "Token",
}
# knox's own token table is never made: DeviceToken takes its place.
MIGRATION_MODULES = {"knox": None}

# Web clients on other origins (django-cors-headers): the API only, to the origins listed (none
# by default), with token authentication (no cookies), reading the headers a client needs.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
]
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Idempotent-Replayed", "Retry-After"]
CORS_PREFLIGHT_MAX_AGE = 3600

# How long a response stays stored for its Idempotency-Key (tarabish_site.api.idempotency).
IDEMPOTENCY_KEY_TTL_HOURS = env.int("IDEMPOTENCY_KEY_TTL_HOURS", default=48)

# Outbound webhooks (webhooks/): networks a webhook URL may resolve into although they are not
# public (loopback, private, link-local are refused otherwise); outside production, loopback,
# so a receiver on the same machine works in development and tests.
WEBHOOK_ALLOWED_NETWORKS = env.list(
    "WEBHOOK_ALLOWED_NETWORKS", default=[] if PRODUCTION else ["127.0.0.0/8", "::1/128"]
)
WEBHOOK_CONNECT_TIMEOUT = env.float("WEBHOOK_CONNECT_TIMEOUT", default=3.0)
WEBHOOK_READ_TIMEOUT = env.float("WEBHOOK_READ_TIMEOUT", default=5.0)
# A PEM file of certificate authorities trusted for HTTPS receivers beside the system's.
WEBHOOK_CA_BUNDLE = env.str("WEBHOOK_CA_BUNDLE", default="")
WEBHOOK_BACKOFF_BASE = env.float("WEBHOOK_BACKOFF_BASE", default=30.0)
WEBHOOK_BACKOFF_MAX = env.float("WEBHOOK_BACKOFF_MAX", default=3600.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=8)
WEBHOOK_DISABLE_AFTER = env.int("WEBHOOK_DISABLE_AFTER", default=10)

SPECTACULAR_SETTINGS = {
    "TITLE": "Tarabish API",
    "DESCRIPTION": (
        "Scorekeeping and tournaments for the Cape Breton card game Tarabish. "
        "Device tokens (`Authorization: Token <token>`, from `auth/token/`), idempotent POSTs "
        "(`Idempotency-Key`), optimistic concurrency (`ETag` / `If-Match`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "GET_LIB_DOC_EXCLUDES": "tarabish_site.api.schema.lib_doc_excludes",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tarabish_site.api.schema.refuse_unknown_keys_hook",
        "tarabish_site.api.schema.path_parameters_hook",
        "tarabish_site.api.schema.json_shapes_hook",
        "tarabish_site.api.schema.response_headers_hook",
        "tarabish_site.api.schema.property_titles_hook",
    ],
    # One name for each set of choices that several fields share.
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "scoring.models.SEAT_CHOICES",
        "TrumpEnum": "scoring.models.TRUMP_CHOICES",
        "SideEnum": "scoring.models.Side",
        "GameStatusEnum": "scoring.models.Game.Status",
        "DisputeStatusEnum": "scoring.models.MisplayDispute.Status",
        "DisputeRulingEnum": "scoring.models.MisplayDispute.Ruling",
        "EntryKindEnum": "scoring.models.Hand.EntryKind",
        "RunKindEnum": "scoring.api.serializers.RUN_KIND_CHOICES",
        "StageKindEnum": "tournaments.models.Stage.Kind",
        # A match's state keeps its name beside a webhook delivery's.
        "StateEnum": "tournaments.models.Match.State",
        "WebhookEventEnum": "webhooks.api.serializers.EVENT_CHOICES",
        "DeliveryStateEnum": "webhooks.models.Delivery.State",
        "BracketSideEnum": "tournaments.api.serializers.BRACKET_SIDES",
        "FeedOutcomeEnum": "tournaments.api.serializers.FEED_OUTCOMES",
        "OutcomeEnum": "scoring.models.Hand.OUTCOME_CHOICES",
        "GrandFinalEnum": "tournaments.models.Stage.GrandFinal",
    },
}

# ------------------------------------------------------------------------------------- security
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # Health checks ask gunicorn itself, over plain HTTP: answered, not sent to https://.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=3600)
    SECURE_CONTENT_TYPE_NOSNIFF = True

# ------------------------------------------------------------------- content security policy
# Every page, the admin's included (tarabish_site/csp.py adds the site's own WebSocket to
# connect-src). A view that needs more says so itself with django-csp's decorators.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],  # as X-Frame-Options: DENY
    },
}

# ------------------------------------------------------------- operations: logs, errors, metrics
# Logs: JSON lines in production (one per request and per task, each with its request_id and
# the ids it knows: game_id, match_id...), text elsewhere; LOG_FORMAT chooses either.
LOG_FORMAT = env.str("LOG_FORMAT", default="json" if PRODUCTION else "text")
if LOG_FORMAT not in {"json", "text"}:
    raise environ.ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "context": {"()": "tarabish_site.logs.ContextFilter"},
        "repeats": {"()": "tarabish_site.logs.RepeatFilter"},
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Through the one handler above, whatever DEBUG says (Django's own sends its lines to
        # a handler of its own while DEBUG is on).
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # tarabish.task logs each run with its ids; Celery's own line would be a second one.
        "celery.app.trace": {"level": "WARNING"},
        # tarabish.request logs each request; runserver's line would be a second one.
        "django.server": {"level": "WARNING"},
        # While Redis is down, the channel layer's receiving task logs the same traceback every
        # second in each process holding sockets: once a minute is enough, with the count.
        "channels_redis.pubsub": {"filters": ["repeats"]},
    },
}
if not PRODUCTION:
    # runserver's start-up lines (the reloader watching files, daphne's endpoint): its banner
    # already names the address, and `make run` prints the sign-in last, once it listens
    LOGGING["loggers"].update(  # type: ignore[attr-defined]
        {"django.utils.autoreload": {"level": "WARNING"}, "daphne.server": {"level": "WARNING"}}
    )
# Workers log through LOGGING too, not through handlers Celery puts on the root logger.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Errors: reported to Sentry (or a server that speaks its protocol) when SENTRY_DSN is set.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from tarabish_site.errors import sentry_init

    sentry_init(
        dsn=SENTRY_DSN,
        environment=TARABISH_ENV,
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )

# Metrics at /metrics for staff, or for a scraper sending "Authorization: Bearer METRICS_TOKEN".
# METRICS_DIR: where every process (gunicorn's workers, Celery's) writes its counts, so that
# /metrics adds them up; the deploy/ start scripts give each kind of process its own directory
# under it. Empty: one process's own counts (development).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_DIR = env.str("METRICS_DIR", default="")
