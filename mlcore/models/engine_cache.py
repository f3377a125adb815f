"""Exported inference engines kept on disk, so a restarted process skips the ONNX export.

Each web process used to export its live model to ONNX at every start (issue 28 §5: "loading" for
16-29 s before the first prediction). The graph depends only on the weights, the model's
configuration and class, the engine (float32 or int8), the output, the input names and the
library versions that wrote it; :func:`engine_key` hashes exactly those, so a graph is found
again only when it would be the same graph, and a fine-tuned model overwritten in place gets a
new key because its weights changed. Writes are atomic (a temporary file renamed into place), so
processes starting together may export twice but never read half a file.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

__all__ = ["CACHE_DIR_VARIABLE", "EngineCache", "engine_key"]

#: The environment variable naming the cache folder (set by the Django settings; unset: no cache).
CACHE_DIR_VARIABLE = "STUMPER_ENGINE_CACHE_DIR"
#: Raised when the way graphs are exported changes, so old files are never read again.
FORMAT_VERSION = 1


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def engine_key(model: Any, *, engine: str, output: str, input_names: Sequence[str]) -> str:
    """A hex digest that changes whenever the exported graph could differ.

    Hashes every parameter and buffer (names, dtypes, shapes, bytes), the configuration, the
    model's class, the engine, output and input names, and the versions of torch, onnx and
    onnxruntime. Hashing MiniLM's 90 MB takes a fraction of the export's time.
    """
    digest = hashlib.blake2b(digest_size=20)
    header = {
        "format": FORMAT_VERSION,
        "class": f"{type(model).__module__}.{type(model).__qualname__}",
        "config": model.config.to_json_string(use_diff=False) if hasattr(model, "config") else "",
        "engine": engine,
        "output": output,
        "inputs": list(input_names),
        "versions": [torch.__version__, _version("onnx"), _version("onnxruntime")],
    }
    digest.update(json.dumps(header, sort_keys=True).encode())
    for name, tensor in model.state_dict().items():
        digest.update(f"{name}:{tensor.dtype}:{tuple(tensor.shape)}".encode())
        digest.update(tensor.detach().contiguous().cpu().reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class EngineCache:
    """A folder of exported graphs, one file per :func:`engine_key`."""

    folder: Path

    @classmethod
    def at(cls, folder: Path | None) -> EngineCache | None:
        """The cache in ``folder``, else in ``$STUMPER_ENGINE_CACHE_DIR``; None when neither is set."""
        chosen = folder or (Path(os.environ[CACHE_DIR_VARIABLE]) if os.environ.get(CACHE_DIR_VARIABLE) else None)
        return cls(chosen) if chosen is not None else None

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.onnx"

    def find(self, key: str) -> Path | None:
        """The kept graph of ``key``, or None."""
        path = self.path(key)
        return path if path.is_file() and path.stat().st_size > 0 else None

    def keep(self, key: str, exported: Path) -> Path:
        """Copy ``exported`` into the cache under ``key`` (atomically) and return the kept file.

        A folder that cannot be written is not an error: the export is used from where it is.
        """
        temporary = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".incoming-", suffix=".onnx")
            with os.fdopen(handle, "wb") as target, exported.open("rb") as source:
                while chunk := source.read(1 << 20):
                    target.write(chunk)
            os.replace(temporary, self.path(key))
        except OSError:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)
            return exported
        return self.path(key)
