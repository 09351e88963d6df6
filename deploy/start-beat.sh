#!/usr/bin/env bash
# Celery beat: the periodic tasks (CELERY_BEAT_SCHEDULE in tarabish_site/settings.py): the worker
# heartbeat every minute, the full standings recompute every five minutes, and the expiry of
# stored idempotent responses every hour. Run exactly one.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/dotenv.sh
load_dotenv .env  # what Django reads too; the environment wins
PYTHON="${PYTHON:-.venv/bin/python}"
SCHEDULE="${CELERY_BEAT_SCHEDULE_FILE:-var/celerybeat-schedule}"
mkdir -p "$(dirname "$SCHEDULE")"
exec "$PYTHON" -m celery -A tarabish_site beat \
    --loglevel "${CELERY_LOG_LEVEL:-INFO}" --schedule "$SCHEDULE" "$@"
