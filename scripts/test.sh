#!/usr/bin/env bash
# Run the whole test suite twice: on the embedded default (SQLite, in-memory channel layer,
# filesystem broker) and on PostgreSQL + Redis when they are reachable.
#
#   bash scripts/test.sh                # both passes
#   bash scripts/test.sh -k import      # extra arguments go to pytest
#
# Set PG_DATABASE_URL / PG_REDIS_URL to test against other servers. With CI=true an unreachable
# PostgreSQL or Redis fails the run instead of skipping the second pass.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
set -e
ensure_venv
install_requirements
compile_messages
set +e

export HF_HUB_OFFLINE=1
export DJANGO_SETTINGS_MODULE=config.settings.test
# Tests never read the developer's .env (it may point at other databases).
export STUMPER_ENV_FILE=/dev/null
PG_DATABASE_URL="${PG_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/stumper}"
PG_REDIS_URL="${PG_REDIS_URL:-redis://127.0.0.1:6379/0}"

PASS_LOG="$(mktemp)"
trap 'rm -f "$PASS_LOG"' EXIT
declare -A TOTAL=([passed]=0 [failed]=0 [skipped]=0 [errors]=0)

# Adds the counts of pytest's closing line ("3 failed, 1500 passed, 2 skipped in 9.1s") to TOTAL.
count_pass() {
    local line kind number
    line="$(grep -E '^=*[ ]*[0-9]+ (passed|failed|skipped|errors?|deselected)' "$PASS_LOG" | tail -n 1)"
    for kind in passed failed skipped errors; do
        number="$(printf '%s' "$line" | grep -oE "[0-9]+ ${kind%s}s?" | grep -oE '^[0-9]+' || true)"
        TOTAL[$kind]=$(( TOTAL[$kind] + ${number:-0} ))
    done
}

run_pass() {
    local title="$1" status
    shift
    printf '\n==> pytest pass: %s\n' "$title"
    env "$@" "$PY" -m pytest -q "${PYTEST_ARGS[@]}" 2>&1 | tee "$PASS_LOG"
    status="${PIPESTATUS[0]}"
    count_pass
    return "$status"
}

# Prints why PostgreSQL or Redis cannot be used, or nothing when both answer.
services_problem() {
    "$PY" - "$PG_DATABASE_URL" "$PG_REDIS_URL" <<'PYEOF'
import sys

import environ
import psycopg
import redis

database_url, redis_url = sys.argv[1], sys.argv[2]
db = environ.Env.db_url_config(database_url)
try:
    psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], password=db["PASSWORD"] or None,
                    dbname="postgres", connect_timeout=3).close()
except Exception as error:
    print(f"PostgreSQL at {db['HOST']}:{db['PORT']} is not reachable ({str(error).strip().splitlines()[0]})")
try:
    redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
except Exception as error:
    print(f"Redis at {redis_url} is not reachable ({error})")
PYEOF
}

PYTEST_ARGS=("$@")
declare -A RESULT
STATUS=0

# Static checks before the tests; any failure fails the run (the tests still run, so one
# report shows everything). Each is one command a developer can run alone.
CHECKS=()
run_check() {
    local title="$1"
    shift
    printf '\n==> check: %s\n' "$title"
    if "$@"; then
        CHECKS+=("$title passed")
    else
        CHECKS+=("$title FAILED")
        STATUS=1
    fi
}
run_check "ruff (style)" "$PY" -m ruff check .
run_check "mypy --strict on mlcore (mypy.ini)" "$PY" -m mypy
run_check "lint-imports (the layers of docs/architecture.md, .importlinter)" "$(dirname "$PY")/lint-imports" --no-cache
# The docs site (mkdocs.yml): --strict turns a broken link between pages into a failure;
# tests/test_docs_links.py checks the README's links.
DOCS_SITE="$(mktemp -d)"
run_check "docs (mkdocs build --strict)" env NO_MKDOCS_2_WARNING=1 "$PY" -m mkdocs build --strict --quiet --site-dir "$DOCS_SITE"
rm -rf "$DOCS_SITE"

# ESLint on static/js (eslint.config.js), with the versions of package-lock.json: a fresh clone gets
# them with `npm ci`. Without npm the check is skipped, except under CI=true where that fails the run.
eslint_check() {
    if [ ! -x node_modules/.bin/eslint ]; then
        npm ci --no-audit --no-fund --loglevel=error || return 1
    fi
    node_modules/.bin/eslint --max-warnings=0 static/js scripts eslint.config.js
}
if command -v npm >/dev/null 2>&1 || [ "${CI:-}" = "true" ]; then
    run_check "ESLint (static/js)" eslint_check
else
    printf '\n==> check: ESLint (static/js) SKIPPED: npm is not installed (install Node.js to lint the JavaScript)\n'
    CHECKS+=("ESLint SKIPPED (no npm)")
fi

if run_pass "embedded (SQLite + in-memory channel layer + filesystem broker)" \
        -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL; then
    RESULT[embedded]="passed"
else
    RESULT[embedded]="FAILED"
    STATUS=1
fi

PROBLEM="$(services_problem)"
if [ -z "$PROBLEM" ]; then
    if run_pass "PostgreSQL + Redis ($PG_DATABASE_URL, $PG_REDIS_URL)" \
            -u CELERY_BROKER_URL DATABASE_URL="$PG_DATABASE_URL" REDIS_URL="$PG_REDIS_URL"; then
        RESULT[services]="passed"
    else
        RESULT[services]="FAILED"
        STATUS=1
    fi
elif [ "${CI:-}" = "true" ]; then
    printf '\nERROR: CI=true but the PostgreSQL/Redis pass cannot run:\n%s\n' "$PROBLEM" >&2
    RESULT[services]="FAILED (services unreachable)"
    STATUS=1
else
    printf '\nSKIPPED the PostgreSQL/Redis pass: %s\n' "$(printf '%s' "$PROBLEM" | paste -sd ';' -)"
    RESULT[services]="SKIPPED"
fi

printf '\n==> Summary: embedded %s; PostgreSQL/Redis %s\n' "${RESULT[embedded]}" "${RESULT[services]}"
printf '    checks: %s\n' "$(IFS=';'; printf '%s' "${CHECKS[*]}")"
# Both passes together, as one plain closing line for CI.
printf 'total: %d passed, %d failed, %d skipped\n' "${TOTAL[passed]}" "$(( TOTAL[failed] + TOTAL[errors] ))" \
    "${TOTAL[skipped]}"
exit "$STATUS"
