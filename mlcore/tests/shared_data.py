"""The shared data sets tests read: ``shared/data`` beside the repository, the one way to reach it.

The data is never copied into the repository. A test that needs a file of it calls :func:`shared_data`
(every app's tests and tests/ import it from here): it skips when the file is absent, except under
``CI=true``, where CI puts the data beside its clone and a missing file fails the test, as an
unreachable PostgreSQL or Redis fails the run there (scripts/test.sh).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_REPOSITORY = Path(__file__).resolve().parents[2]
#: ``shared/data`` in the folder that holds the checkout (``/work/shared/data`` for ``/work/<checkout>``),
#: or in the folder above it for a worktree (``/work/wt/<name>``).
SHARED_DATA = next((base / "shared" / "data" for base in (_REPOSITORY.parent, _REPOSITORY.parent.parent)
                    if (base / "shared" / "data").is_dir()), _REPOSITORY.parent / "shared" / "data")
#: Absolute tolerance of the SPEC's reference values, which it gives to 6 decimals.
TOL = 1e-6


def shared_data(*parts: str) -> Path:
    """``SHARED_DATA`` joined with ``parts``; when that path is absent, skips the calling test, or
    fails it under ``CI=true``."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the shared data {path} is absent (CI puts shared/data beside its clone)")
        pytest.skip(f"shared data {path} is absent")
    return path
