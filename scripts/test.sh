#!/usr/bin/env bash
# Run the whole test suite twice: on the embedded default (SQLite, in-memory channel layer,
# filesystem broker) and on PostgreSQL + Redis when they are reachable.
#
#   bash scripts/test.sh                # both passes
#   bash scripts/test.sh -k import      # extra arguments go to pytest
#
# Set PG_DATABASE_URL / PG_REDIS_URL to test against other servers. With CI=true an unreachable
# PostgreSQL or Redis fails the run instead of skipping the second pass.
#
# In a git checkout the run must leave the checkout as it found it: a check at the end fails and
# names every file the checks or tests changed or added (tests write to temporary folders; the
# docs' screenshots are re-taken by scripts/screenshots.sh, whose STUMPER_SCREENSHOTS=1 lets
# docs/img/ change).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
set -e
ensure_venv
install_requirements dev
compile_messages
set +e

export HF_HUB_OFFLINE=1
export DJANGO_SETTINGS_MODULE=config.settings.test
# Tests never read the developer's .env (it may point at other databases).
export STUMPER_ENV_FILE=/dev/null
PG_DATABASE_URL="${PG_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/stumper}"
PG_REDIS_URL="${PG_REDIS_URL:-redis://127.0.0.1:6379/0}"

PASS_LOG="$(mktemp)"
TREE_BEFORE="$(mktemp)"
trap 'rm -f "$PASS_LOG" "$TREE_BEFORE"' EXIT
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
    local title="$1" status quiet=(-q) arg
    shift
    # One -q of ours: with a second (-q in the arguments) pytest prints no closing line to count.
    for arg in "${PYTEST_ARGS[@]}"; do
        if [ "$arg" = "-q" ] || [ "$arg" = "--quiet" ]; then quiet=(); fi
    done
    printf '\n==> pytest pass: %s\n' "$title"
    env "$@" "$PY" -m pytest "${quiet[@]}" "${PYTEST_ARGS[@]}" 2>&1 | tee "$PASS_LOG"
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

# One line per file of the checkout that differs from HEAD or is untracked (ignored files are not
# listed): a hash of its content and its path, so a file the run changes shows up even when it was
# already changed before. Paths under docs/img/ are left out with STUMPER_SCREENSHOTS=1.
tree_state() {
    "$PY" - <<'PYEOF'
import hashlib
import os
import subprocess

out = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
                     capture_output=True, check=True).stdout
fields = iter(out.split(b"\0"))
for field in fields:
    if not field:
        continue
    status, path = field[:2], os.fsdecode(field[3:])
    if status[:1] in (b"R", b"C"):
        next(fields)  # the path it was renamed or copied from
    if os.environ.get("STUMPER_SCREENSHOTS") == "1" and path.startswith("docs/img/"):
        continue
    try:
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()[:16]
    except OSError:
        digest = "deleted"
    print(f"{digest}\t{path!r}")
PYEOF
}

# Fails, naming the files, when the checkout differs from what tree_state saw before the run.
tree_unchanged() {
    local changed
    changed="$(tree_state | diff "$TREE_BEFORE" - | grep -E '^[<>] ' | cut -f 2- | sort -u)"
    if [ -n "$changed" ]; then
        printf 'The run changed or added these files of the checkout (tests must write to temporary folders):\n'
        printf '%s\n' "$changed" | sed 's/^/  /'
        return 1
    fi
}

TREE_CHECK=""
if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1 && tree_state >"$TREE_BEFORE"; then
    TREE_CHECK="yes"
fi

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

# ESLint on static/js and tests/js (eslint.config.js), with the versions of package-lock.json: a fresh clone gets
# them with `npm ci`. Without npm the check is skipped, except under CI=true where that fails the run.
eslint_check() {
    if [ ! -x node_modules/.bin/eslint ]; then
        npm ci --no-audit --no-fund --loglevel=error || return 1
    fi
    node_modules/.bin/eslint --max-warnings=0 static/js scripts eslint.config.js tests/js
}
if command -v npm >/dev/null 2>&1 || [ "${CI:-}" = "true" ]; then
    run_check "ESLint (static/js)" eslint_check
else
    printf '\n==> check: ESLint (static/js) SKIPPED: npm is not installed (install Node.js to lint the JavaScript)\n'
    CHECKS+=("ESLint SKIPPED (no npm)")
fi
# The unit tests of the pure JavaScript (tests/js/*.test.js) with node's own test runner: no
# package needed. Without node the check is skipped, except under CI=true where that fails the run.
if command -v node >/dev/null 2>&1 || [ "${CI:-}" = "true" ]; then
    run_check "JavaScript unit tests (node --test tests/js/*.test.js)" node --test tests/js/*.test.js
else
    printf '\n==> check: JavaScript unit tests SKIPPED: node is not installed (install Node.js to test the JavaScript)\n'
    CHECKS+=("JavaScript unit tests SKIPPED (no node)")
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

if [ -n "$TREE_CHECK" ]; then
    run_check "the checkout is unchanged (git status before and after)" tree_unchanged
else
    CHECKS+=("checkout-unchanged check SKIPPED (no git checkout)")
fi

printf '\n==> Summary: embedded %s; PostgreSQL/Redis %s\n' "${RESULT[embedded]}" "${RESULT[services]}"
printf '    checks: %s\n' "$(IFS=';'; printf '%s' "${CHECKS[*]}")"
# Both passes together, as one plain closing line for CI.
printf 'total: %d passed, %d failed, %d skipped\n' "${TOTAL[passed]}" "$(( TOTAL[failed] + TOTAL[errors] ))" \
    "${TOTAL[skipped]}"
exit "$STATUS"
