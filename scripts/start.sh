#!/usr/bin/env bash
# Start Stumper on this machine: web server (daphne), a Celery worker and Celery beat, with a demo course.
#
#   bash scripts/start.sh            # http://127.0.0.1:8000/
#   PORT=8777 bash scripts/start.sh
#
# Needs only Python 3.11: creates .venv, installs requirements.txt, writes .env (random
# SECRET_KEY), migrates the SQLite database in var/, seeds the demo, then runs the three processes
# until Ctrl+C. Logs: var/log/web.log, var/log/worker.log and var/log/beat.log.
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

ensure_venv
install_requirements
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

log "Starting the web server on port $PORT (log: $LOGS/web.log)"
"$VENV/bin/daphne" -b 127.0.0.1 -p "$PORT" config.asgi:application >>"$LOG_DIR/web.log" 2>&1 &
WEB_PID=$!
log "Starting the Celery worker (log: $LOGS/worker.log)"
# One worker serves every queue here; scaled out, each queue gets workers of its own (docs/production.md).
"$VENV/bin/celery" -A config worker -l info --pool=threads --concurrency=2 -Q default,training,inference \
    >>"$LOG_DIR/worker.log" 2>&1 &
WORKER_PID=$!
log "Starting Celery beat (log: $LOGS/beat.log)"
# Beat sends the periodic tasks of CELERY_BEAT_SCHEDULE (the LMS roster sync) to the worker; one beat per site.
# Its schedule file (when each task last ran) lives in var/.
"$VENV/bin/celery" -A config beat -l info --schedule "$STUMPER_VAR_DIR/celerybeat-schedule" \
    >>"$LOG_DIR/beat.log" 2>&1 &
BEAT_PID=$!

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

# Run until Ctrl+C or until one of the three processes dies (then stop the others too).
while kill -0 "$WEB_PID" 2>/dev/null && kill -0 "$WORKER_PID" 2>/dev/null && kill -0 "$BEAT_PID" 2>/dev/null; do
    sleep 1
done
for process in "the web server:$WEB_PID:web" "the worker:$WORKER_PID:worker" "Celery beat:$BEAT_PID:beat"; do
    IFS=: read -r name pid file <<<"$process"
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "${name^} stopped; last lines of $LOGS/$file.log:" >&2
        tail -n 20 "$LOG_DIR/$file.log" >&2 || true
    fi
done
exit 1
