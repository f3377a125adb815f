"""Run compiled (GIL-releasing) kernels on several cores from plain threads.

numba functions compiled with ``nogil=True`` run in parallel from a thread pool without numba's
own threading layer, whose OpenMP/TBB back ends are not safe in forked Celery workers. The pool
lives for one call only, so nothing survives a fork.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

__all__ = ["MAX_THREADS", "map_in_threads", "split_points"]

T = TypeVar("T")

#: Upper bound on threads per call; more parts only add merging work on small machines.
MAX_THREADS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def split_points(n_items: int, min_part: int) -> np.ndarray:
    """Boundaries ``[0, ..., n_items]`` of at most ``MAX_THREADS`` near-equal parts of ``min_part``+ items.

    Examples
    --------
    >>> split_points(10, min_part=100).tolist()
    [0, 10]
    """
    parts = max(1, min(MAX_THREADS, n_items // max(min_part, 1)))
    return np.linspace(0, n_items, parts + 1).round().astype(np.int64)


def map_in_threads(function: Callable[..., T], argument_lists: Sequence[tuple]) -> list[T]:
    """``[function(*arguments) for arguments in argument_lists]``, one thread per item when several."""
    if len(argument_lists) <= 1:
        return [function(*arguments) for arguments in argument_lists]
    with ThreadPoolExecutor(max_workers=len(argument_lists)) as pool:
        return list(pool.map(lambda arguments: function(*arguments), argument_lists))
