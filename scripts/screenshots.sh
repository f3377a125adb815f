#!/usr/bin/env bash
# Re-take the screenshots of the docs in docs/img/: the browser tests, once, on the embedded
# default, with STUMPER_SCREENSHOTS=1. Any other test run writes them to a temporary folder
# instead (tests/browser.py), so running the tests never changes the tracked images.
#
#   bash scripts/screenshots.sh                                # every browser test
#   bash scripts/screenshots.sh tests/test_e2e_reports.py      # only these (extra arguments go to pytest)
#
# Look at the pictures that changed (listed at the end) before committing them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_venv
install_requirements dev
compile_messages

export STUMPER_SCREENSHOTS=1 HF_HUB_OFFLINE=1 DJANGO_SETTINGS_MODULE=config.settings.test STUMPER_ENV_FILE=/dev/null
env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL "$PY" -m pytest -q -m browser "$@"
if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    log "Screenshots in docs/img/ that differ from the last commit:"
    git status --short -- docs/img
fi
