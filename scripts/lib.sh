# shellcheck shell=bash
# Shared by scripts/start.sh and scripts/test.sh: paths, logging, the venv and its dependencies.
# Source it; it does not change the caller's shell options.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

log() { printf '==> %s\n' "$*"; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# The interpreter that creates the venv: Python 3.11 or newer (the pinned torch wheel is 3.11's).
find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    die "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)."
}

ensure_venv() {
    if [ ! -x "$PY" ]; then
        local python
        python="$(find_python)"
        log "Creating the virtual environment in .venv ($("$python" --version))"
        "$python" -m venv "$VENV" || die "Could not create .venv (on Debian/Ubuntu: apt-get install python3-venv)."
    fi
}

# pip install -r requirements/$1.lock: "runtime" (the product: start.sh) or "dev" (the product plus
# the test, lint and docs tools: the test command), skipped when that lock has not changed since it
# was last installed here. dev.lock pins everything runtime.lock pins, at the same versions
# (tests/test_packaging.py), so installing it marks runtime.lock as installed too.
install_requirements() {
    local set="${1:-runtime}" lock
    lock="requirements/$set.lock"
    [ -f "$ROOT/$lock" ] || die "No $lock (install_requirements runtime|dev)."
    local stamp="$VENV/.$set.lock.sha256" wanted
    wanted="$(lock_digest "$lock")"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
        log "Python packages are up to date ($lock)"
        return 0
    fi
    local args=(install --disable-pip-version-check -q -r "$ROOT/$lock")
    if [ -d /opt/wheels ]; then
        args+=(--find-links /opt/wheels)  # this machine keeps the CPU torch wheel on disk
    else
        # Without it, PyPI's torch is a CUDA build of several GB; the CPU index has the small one.
        args+=(--extra-index-url "${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}")
    fi
    log "Installing Python packages from $lock (the first time takes a few minutes)"
    "$PY" -m pip "${args[@]}" || die "pip install failed; see the messages above."
    printf '%s\n' "$wanted" >"$stamp"
    if [ "$set" = dev ]; then
        lock_digest requirements/runtime.lock >"$VENV/.runtime.lock.sha256"
    fi
}

# The SHA-256 of the file $1 (relative to the checkout): what install_requirements' stamps hold.
lock_digest() {
    (cd "$ROOT" && "$PY" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1")
}

# The env file $1 (default .env) with a fresh random SECRET_KEY, unless it exists; settings refuse
# to start without a key. DEBUG=false: an error shows a friendly page, its traceback goes to the
# log; DEBUG=true is the developer's switch (docs/configuration.md).
ensure_env_file() {
    local file="${1:-$ROOT/.env}"
    if [ ! -f "$file" ]; then
        log "Writing ${file#"$ROOT"/} with a new random SECRET_KEY"
        local key
        key="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')"
        (umask 077 && printf '# Written by scripts/start.sh; see docs/configuration.md.\nSECRET_KEY=%s\n# true shows tracebacks in the browser: for development only, never where others connect.\nDEBUG=false\n' "$key" >"$file")
    fi
}

# Wait until an HTTP server answers at $1 (any status counts), for at most $2 seconds.
wait_for_http() {
    "$PY" - "$1" "${2:-60}" <<'PYEOF'
import sys, time, urllib.error, urllib.request

url, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(url, timeout=2)
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)  # a 404 or 500 still means the server is up
    except OSError:
        time.sleep(0.5)
sys.exit(1)
PYEOF
}

# locale/*.po -> .mo with Django's compilemessages when GNU gettext is installed; without it the
# committed .mo files are used as they are.
compile_messages() {
    if command -v msgfmt >/dev/null 2>&1; then
        log "Compiling translations (locale/)"
        bash "$ROOT/scripts/messages.sh" compile || die "compilemessages failed; see the messages above."
    else
        log "GNU gettext (msgfmt) not found: using the committed translations in locale/"
    fi
}
