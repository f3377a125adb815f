"""The one way a benchmark hands over its result: the stable JSON file, and with ``--json`` the same
document as the only thing on stdout (tables, progress and this note go to stderr)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def emit_result(result: dict[str, Any], out: Path, *, as_json: bool) -> None:
    """Write ``result`` to ``out`` (its folder made if needed); print it on stdout when ``as_json``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written {out}", file=sys.stderr)
    if as_json:
        print(json.dumps(result))
