"""Run compiled (GIL-releasing) kernels on several cores from plain threads.

numba functions compiled with ``nogil=True`` run in parallel from a thread pool without numba's
own threading layer, whose OpenMP/TBB back ends are not safe in forked Celery workers. The pool
lives for one call only, so nothing survives a fork.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

__all__ = ["MAX_THREADS", "available_cpus", "map_in_threads", "set_max_threads", "split_points"]

T = TypeVar("T")

#: Threads per call (``set_max_threads``). One by default: on this project's 2-vCPU machines two
#: threads made the lexical kernels slower, not faster (``benchmarks/lexical_stats.py`` prints
#: both: 1.05 s wall / 1.05 s CPU with one thread, 1.24-1.32 s wall / 1.6 s CPU with two, for
#: SNLI-sized unigram features), as the cores share their caches and memory bandwidth. Raise it
#: on machines where the benchmark shows a gain.
MAX_THREADS = 1


def available_cpus() -> int:
    """CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def set_max_threads(n: int) -> None:
    """Let the lexical kernels split their work over up to ``n`` threads."""
    global MAX_THREADS
    if n < 1:
        raise ValueError(f"need at least one thread, got {n}")
    MAX_THREADS = int(n)


def split_points(n_items: int, min_part: int) -> np.ndarray:
    """Boundaries ``[0, ..., n_items]`` of at most ``MAX_THREADS`` near-equal parts of ``min_part``+ items.

    Examples
    --------
    >>> split_points(10, min_part=100).tolist()
    [0, 10]
    """
    parts = max(1, min(MAX_THREADS, n_items // max(min_part, 1)))
    return np.linspace(0, n_items, parts + 1).round().astype(np.int64)


def map_in_threads(function: Callable[..., T], argument_lists: Sequence[tuple[Any, ...]]) -> list[T]:
    """``[function(*arguments) for arguments in argument_lists]``, one thread per item when several."""
    if len(argument_lists) <= 1:
        return [function(*arguments) for arguments in argument_lists]
    with ThreadPoolExecutor(max_workers=len(argument_lists)) as pool:
        return list(pool.map(lambda arguments: function(*arguments), argument_lists))
