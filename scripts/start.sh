#!/usr/bin/env bash
# Start Stumper on this machine: web server (daphne), a Celery worker and Celery beat, with a demo course.
#
#   bash scripts/start.sh            # http://127.0.0.1:8000/
#   PORT=8777 bash scripts/start.sh
#
# Needs only Python 3.11: creates .venv, installs requirements/runtime.lock, writes .env (random
# SECRET_KEY, DEBUG=false), migrates the SQLite database in var/, seeds the demo, then runs the three
# processes until Ctrl+C, starting again any that exits (with a line here). Logs: var/log/web.log,
# var/log/worker.log and var/log/beat.log.
#
# Environment (all optional; tests/test_start_script.py runs it with all three):
#   PORT                the web server's port (8000)
#   STUMPER_VAR_DIR     the folder of the run-time files instead of var/: SQLite database, broker
#                       folder, models, static files, logs and beat's schedule (an absolute path)
#   STUMPER_ENV_FILE    the settings file instead of .env; written with a fresh SECRET_KEY when absent
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

PORT="${PORT:-8000}"
# The settings read both variables too (config/settings/base.py), so every process uses the same ones.
export STUMPER_VAR_DIR="${STUMPER_VAR_DIR:-$ROOT/var}"
export STUMPER_ENV_FILE="${STUMPER_ENV_FILE:-$ROOT/.env}"
LOG_DIR="$STUMPER_VAR_DIR/log"
LOGS="${LOG_DIR#"$ROOT"/}"  # as the messages show it: var/log when it is the checkout's
export HF_HUB_OFFLINE=1  # models come from installed packages and var/models, never from the network
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.local}"
# The worker's job progress reaches the pages through the web server's internal endpoint
# (core.job_relay): the in-memory channel layer does not cross processes.
export STUMPER_JOB_PUSH_URL="http://127.0.0.1:$PORT/internal/jobs/push/"

ensure_venv
install_requirements runtime
compile_messages
ensure_env_file "$STUMPER_ENV_FILE"
mkdir -p "$LOG_DIR"

if ! "$PY" -c 'import socket, sys; s = socket.socket(); sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0)' "$PORT"; then
    die "Port $PORT is already in use. Stop what runs there or pick another: PORT=8001 bash scripts/start.sh"
fi

log "Migrating the database"
"$PY" manage.py migrate --noinput
log "Collecting static files"
"$PY" manage.py collectstatic --noinput -v 0
log "Seeding the demo course"
SEED_OUTPUT="$("$PY" manage.py seed_demo)"
printf '%s\n' "$SEED_OUTPUT" | head -n 1  # the logins are printed once the server answers
# Once: the worker fine-tunes MiniLM on CODAH in the background; version 0 serves meanwhile (docs/models.md).
# No page is open before the web server starts: nothing to relay the queued job's push to.
env -u STUMPER_JOB_PUSH_URL "$PY" manage.py starter_model

WEB_PID=""
WORKER_PID=""
BEAT_PID=""
stop_all() {
    trap - INT TERM EXIT
    local pids=($WEB_PID $WORKER_PID $BEAT_PID) pid alive
    [ ${#pids[@]} -gt 0 ] || return 0
    echo
    log "Stopping the web server, the worker and beat"
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    # Celery finishes its running task on TERM (warm shutdown); give it time, then insist.
    for _ in $(seq 1 30); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 1 ] || break
        sleep 0.5
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    log "Stopped"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The three processes, each (re)started by its function; supervise() restarts one that exits.
start_web() {
    "$VENV/bin/daphne" -b 127.0.0.1 -p "$PORT" config.asgi:application >>"$LOG_DIR/web.log" 2>&1 &
    WEB_PID=$!
}
start_worker() {
    # One worker serves every queue here; scaled out, each queue gets workers of its own (docs/production.md).
    "$VENV/bin/celery" -A config worker -l info --pool=threads --concurrency=2 -Q default,training,inference \
        >>"$LOG_DIR/worker.log" 2>&1 &
    WORKER_PID=$!
}
start_beat() {
    # Beat sends the periodic tasks of CELERY_BEAT_SCHEDULE (the LMS roster sync) to the worker; one beat per site.
    # Its schedule file (when each task last ran) lives in var/.
    "$VENV/bin/celery" -A config beat -l info --schedule "$STUMPER_VAR_DIR/celerybeat-schedule" \
        >>"$LOG_DIR/beat.log" 2>&1 &
    BEAT_PID=$!
}

log "Starting the web server on port $PORT (log: $LOGS/web.log)"
start_web
log "Starting the Celery worker (log: $LOGS/worker.log)"
start_worker
log "Starting Celery beat (log: $LOGS/beat.log)"
start_beat

if ! wait_for_http "http://127.0.0.1:$PORT/" 90 || ! kill -0 "$WEB_PID" 2>/dev/null; then
    tail -n 30 "$LOG_DIR/web.log" >&2 || true
    die "The web server did not answer on port $PORT (last lines of $LOGS/web.log above)."
fi

cat <<MSG

  Stumper is running at   http://127.0.0.1:$PORT/

  Demo logins (course join code DEMO2026, round demo-round-1):
$(printf '%s\n' "$SEED_OUTPUT" | sed -n '/^Demo logins:/,$p' | tail -n +2 | sed 's/^/  /')

  API tokens: each user creates their own at http://127.0.0.1:$PORT/accounts/settings/
  An admin account (for /admin/), in another terminal:
      .venv/bin/python manage.py createsuperuser

  Logs: $LOGS/web.log, $LOGS/worker.log, $LOGS/beat.log.  Press Ctrl+C to stop all three.

MSG

# Run until Ctrl+C. A process that exits is started again, with a line here, so losing the worker
# (out of memory, a crash) does not stop the site: after a quick exit the next start waits longer
# (1, 2, 4 ... 30 s); one that exits RESTART_LIMIT times in a row within seconds of starting is
# a crash loop: then everything stops, with the end of its log.
RESTART_LIMIT=5
QUICK_EXIT_SECONDS=30
declare -A STARTED_AT=([web]=$SECONDS [worker]=$SECONDS [beat]=$SECONDS) QUICK_EXITS=([web]=0 [worker]=0 [beat]=0) \
    RESTART_AT=([web]=0 [worker]=0 [beat]=0)
supervise() {
    local name=$1 pid=$2 code=0
    if [ "${RESTART_AT[$name]}" -gt 0 ]; then  # exited earlier: start it once its wait is over
        [ "$SECONDS" -ge "${RESTART_AT[$name]}" ] || return 0
        RESTART_AT[$name]=0
        STARTED_AT[$name]=$SECONDS
        "start_$name"
        return 0
    fi
    kill -0 "$pid" 2>/dev/null && return 0
    wait "$pid" 2>/dev/null || code=$?
    if [ $((SECONDS - STARTED_AT[$name])) -lt "$QUICK_EXIT_SECONDS" ]; then
        QUICK_EXITS[$name]=$((QUICK_EXITS[$name] + 1))
    else
        QUICK_EXITS[$name]=1
    fi
    if [ "${QUICK_EXITS[$name]}" -gt "$RESTART_LIMIT" ]; then
        echo "The $name process exited $RESTART_LIMIT times in a row (code $code); last lines of $LOGS/$name.log:" >&2
        tail -n 20 "$LOG_DIR/$name.log" >&2 || true
        exit 1
    fi
    local delay=$((1 << (QUICK_EXITS[$name] - 1)))
    [ "$delay" -le 30 ] || delay=30
    log "$name exited (code $code); restarting in ${delay} s (log: $LOGS/$name.log)"
    RESTART_AT[$name]=$((SECONDS + delay))
}
while true; do
    supervise web "$WEB_PID"
    supervise worker "$WORKER_PID"
    supervise beat "$BEAT_PID"
    sleep 1
done
