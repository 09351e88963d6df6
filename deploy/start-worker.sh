#!/usr/bin/env bash
# A Celery worker: runs dispute adjudication, standings and rating updates. Start as many as
# the load needs, on any machine that reaches PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/dotenv.sh
load_dotenv .env  # what Django reads too; the environment wins
. deploy/metrics.sh
metrics_dir worker
PYTHON="${PYTHON:-.venv/bin/python}"
exec "$PYTHON" -m celery -A tarabish_site worker \
    --loglevel "${CELERY_LOG_LEVEL:-INFO}" \
    --queues "${CELERY_TASK_DEFAULT_QUEUE:-tarabish}" \
    --concurrency "${CELERY_CONCURRENCY:-2}" "$@"
