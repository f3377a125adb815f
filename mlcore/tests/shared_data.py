"""The shared data sets some mlcore tests read: ``shared/data`` beside the repository.

The data is never copied into the repository; a test that needs a file of it skips when the file is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: ``shared/data`` in the folder that holds the checkout (``/work/shared/data`` for ``/work/<checkout>``).
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
#: Absolute tolerance of the SPEC's reference values, which it gives to 6 decimals.
TOL = 1e-6


def shared_data(*parts: str) -> Path:
    """``SHARED_DATA`` joined with ``parts``; skips the calling test when that path is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data {path} is absent")
    return path
