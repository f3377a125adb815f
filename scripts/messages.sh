#!/usr/bin/env bash
# Translations of the crowdworker pages (locale/<lang>/LC_MESSAGES/django.po and djangojs.po).
#
#   bash scripts/messages.sh          # after changing a translatable string: update the .po files
#   bash scripts/messages.sh compile  # .po -> .mo (scripts/start.sh and scripts/test.sh do this)
#
# Needs GNU gettext (apt-get install gettext). The compiled .mo files are committed too, so a
# clone without gettext still serves the translations.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
export SECRET_KEY="${SECRET_KEY:-messages-only}" STUMPER_ENV_FILE=/dev/null HF_HUB_OFFLINE=1
IGNORE=(--ignore ".venv/*" --ignore "var/*" --ignore "node_modules/*" --ignore "static/vendor/*" --ignore "docs/*"
        --ignore "site/*" --ignore "tests/*" --ignore "*/tests/*")
if [ "${1:-}" = "compile" ]; then
    "$PY" manage.py compilemessages "${IGNORE[@]}" -v 0
else
    "$PY" manage.py makemessages -l fa --no-obsolete --add-location file "${IGNORE[@]}"
    "$PY" manage.py makemessages -d djangojs -l fa --no-obsolete --add-location file "${IGNORE[@]}"
fi
