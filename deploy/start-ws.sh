#!/usr/bin/env bash
# The WebSocket process: daphne serving the ASGI application, for the /ws/ addresses nginx sends
# it (live pages, online tables); it answers HTTP too (deploy/compose.yml uses that). HTTP stays on gunicorn (start-web.sh), which migrates; this
# process only serves. Several of them, on any machines, share one Redis channel layer
# (REDIS_URL), so the four seats of a table may be held by four processes.
# DAPHNE_CONNECT_TIMEOUT: seconds a new socket has to finish its handshake and be accepted by
# its consumer (which reads the table from the database first) before daphne drops it.
# daphne's own default is 5 s, which a busy process can overrun just as people arrive; 30 s
# lets a slow accept through while the page's fallback (polling) keeps the player playing.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/dotenv.sh
load_dotenv .env  # what Django reads too; the environment wins
PYTHON="${PYTHON:-.venv/bin/python}"
exec "$PYTHON" -m daphne \
    --bind "${DAPHNE_HOST:-127.0.0.1}" --port "${DAPHNE_PORT:-8001}" \
    --proxy-headers \
    --websocket_connect_timeout "${DAPHNE_CONNECT_TIMEOUT:-30}" \
    tarabish_site.asgi:application "$@"
