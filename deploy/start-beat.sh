#!/usr/bin/env bash
# Celery beat: the periodic tasks (worker heartbeat, full standings recompute). Run exactly one.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
SCHEDULE="${CELERY_BEAT_SCHEDULE_FILE:-var/celerybeat-schedule}"
mkdir -p "$(dirname "$SCHEDULE")"
exec "$PYTHON" -m celery -A tarabish_site beat \
    --loglevel "${CELERY_LOG_LEVEL:-INFO}" --schedule "$SCHEDULE" "$@"
