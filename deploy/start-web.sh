#!/usr/bin/env bash
# The web process: apply migrations (safe to run from several processes: Django takes a lock on
# PostgreSQL), collect static files, then become gunicorn.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/dotenv.sh
load_dotenv .env  # what Django reads too; the environment wins
. deploy/metrics.sh
metrics_dir web
PYTHON="${PYTHON:-.venv/bin/python}"
if [ "${SKIP_MIGRATE:-0}" != "1" ]; then
    "$PYTHON" manage.py migrate --no-input
fi
if [ "${SKIP_COLLECTSTATIC:-0}" != "1" ]; then
    "$PYTHON" manage.py collectstatic --no-input --verbosity 0
fi
exec "$PYTHON" -m gunicorn tarabish_site.wsgi:application --config deploy/gunicorn.conf.py "$@"
