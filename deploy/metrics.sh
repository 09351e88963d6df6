# Sourced by the web and worker start scripts: with METRICS_DIR set, this kind of process
# (web or worker) counts in a directory of its own under it, emptied as the service starts, and
# every process it starts (gunicorn's workers, Celery's children) writes its counters there
# (prometheus_client's multiprocess mode); /metrics adds up every directory under METRICS_DIR.
metrics_dir() {
    local kind="$1"
    [ -n "${METRICS_DIR:-}" ] || return 0
    export PROMETHEUS_MULTIPROC_DIR="$METRICS_DIR/$kind"
    rm -rf "$PROMETHEUS_MULTIPROC_DIR"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
}
