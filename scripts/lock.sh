#!/usr/bin/env bash
# Regenerate the pinned lock files from pyproject.toml with uv (https://docs.astral.sh/uv/):
#
#   bash scripts/lock.sh                 # after changing a dependency in pyproject.toml
#   UV=/path/to/uv bash scripts/lock.sh  # uv not on PATH (pip install uv, in any environment)
#
#   requirements/runtime.lock   [project] dependencies and everything they pull in: the product
#   requirements/dev.lock       the same plus the `dev` extra (tests, lint, docs): the test command
#
# A version already in a lock file is kept (uv prefers the output file's pins); pass --upgrade or
# --upgrade-package NAME to move. dev.lock is constrained by runtime.lock, so the two never
# disagree on a package both install. The locks are resolved for CPython 3.11.7 on x86_64 Linux
# with the CPU build of torch (its wheels need none of the CUDA packages); the torch line names
# the plain version, and pip takes the CPU build from where scripts/lib.sh and the Dockerfiles
# point it (/opt/wheels or the PyTorch CPU index), as it always did.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

UV="${UV:-uv}"
command -v "$UV" >/dev/null 2>&1 || die "uv not found: pip install uv (or set UV=/path/to/uv)."

CPU_TORCH="$(mktemp)"
trap 'rm -f "$CPU_TORCH"' EXIT
python3 - >"$CPU_TORCH" <<'PYEOF'
import re, tomllib
with open("pyproject.toml", "rb") as file:
    dependencies = tomllib.load(file)["project"]["dependencies"]
print(next(f"torch=={m[1]}+cpu" for d in dependencies if (m := re.fullmatch(r"torch==(\S+)", d))))
PYEOF

sources=(--find-links /opt/wheels)
if [ ! -d /opt/wheels ]; then
    sources=(--extra-index-url "${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}" --index-strategy unsafe-best-match)
fi
compile() {
    "$UV" pip compile pyproject.toml --quiet --python-version 3.11.7 --python-platform x86_64-manylinux_2_28 \
        --custom-compile-command "bash scripts/lock.sh" "${sources[@]}" -c "$CPU_TORCH" "$@"
    # The plain version: pip picks the CPU build from the sources above (see the header). The
    # temporary constraint file's name would change the annotations on every run.
    sed -i -E -e 's/^(torch==[^+ ]+)\+cpu$/\1/' -e "\\|^ *# *(via )?-c $CPU_TORCH\$|d" "${@: -1}"
}

mkdir -p requirements
log "Resolving requirements/runtime.lock"
compile -o requirements/runtime.lock
log "Resolving requirements/dev.lock"
compile --extra dev -c requirements/runtime.lock -o requirements/dev.lock
log "Done: check the difference (git diff requirements/) and run tests/test_packaging.py"
