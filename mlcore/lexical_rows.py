"""Compiled assembly of the instance x feature matrix of :func:`mlcore.lexical.lexical_features`.

Tokens arrive as ``(segment, feature)`` pairs in segment order. :func:`segment_rows` turns them
into one sorted row per distinct segment (repeats counted), and :func:`instance_rows` joins the
rows of each instance's segments (premise and hypothesis), summing a feature present in both or
setting it to 1 when instances are counted. Both are single passes in numba: for SNLI-sized data
(11 M non-zeros) they replace a global sort and a scipy sparse sum that took three times longer.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp

from mlcore.threads import map_in_threads, split_points

__all__ = ["instance_rows", "segment_rows"]

_MIN_PART = 50_000  # segments or instances per thread
_INSERTION_LIMIT = 48  # longer segments are sorted with np.sort; insertion sort beats it below


@numba.njit(nogil=True, cache=True)
def _sorted_counts(values, out_index, out_count):  # pragma: no cover - compiled
    """Sorted distinct ``values`` and their counts into ``out_*``; returns how many."""
    m = values.size
    if m > _INSERTION_LIMIT:
        ordered = np.sort(values)
        filled = 0
        for k in range(m):
            if filled and out_index[filled - 1] == ordered[k]:
                out_count[filled - 1] += 1
            else:
                out_index[filled], out_count[filled] = ordered[k], 1
                filled += 1
        return filled
    filled = 0
    for k in range(m):  # insertion into a short sorted list, merging repeats
        v = values[k]
        j = filled - 1
        while j >= 0 and out_index[j] > v:
            j -= 1
        if j >= 0 and out_index[j] == v:
            out_count[j] += 1
            continue
        for r in range(filled, j + 1, -1):
            out_index[r], out_count[r] = out_index[r - 1], out_count[r - 1]
        out_index[j + 1], out_count[j + 1] = v, 1
        filled += 1
    return filled


@numba.njit(nogil=True, cache=True)
def _segment_rows(rows, cols, n_segments):  # pragma: no cover - compiled
    indptr = np.zeros(n_segments + 1, np.int64)
    indices, counts = np.empty(cols.size, np.int32), np.empty(cols.size, np.int32)
    out, i = 0, 0
    for s in range(n_segments):
        lo = i
        while i < rows.size and rows[i] == s:
            i += 1
        out += _sorted_counts(cols[lo:i], indices[out:], counts[out:])
        indptr[s + 1] = out
    # Rows out of order or out of range stop the walk early: report it instead of a wrong matrix.
    return indptr, indices[:out], counts[:out], i == rows.size


def segment_rows(rows: np.ndarray, cols: np.ndarray, n_segments: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR arrays ``(indptr, indices, counts)`` of the ``(row, col)`` pairs, one row per segment.

    ``rows`` must be non-decreasing and below ``n_segments``; every row's columns come out sorted
    and distinct, with ``counts`` the number of times each pair occurred.

    Examples
    --------
    >>> indptr, indices, counts = segment_rows(np.array([0, 0, 0, 2]), np.array([5, 1, 5, 3]), 3)
    >>> indptr.tolist(), indices.tolist(), counts.tolist()
    ([0, 2, 2, 3], [1, 5, 3], [1, 2, 1])
    """
    rows, cols = np.asarray(rows), np.asarray(cols)
    # Segment ranges in threads (the kernel releases the GIL), cut where their pairs start.
    bounds = split_points(n_segments, min_part=_MIN_PART)
    cuts = np.searchsorted(rows, bounds) if len(bounds) > 2 else np.array([0, len(rows)])
    parts = map_in_threads(_segment_rows, [
        (rows[c0:c1] - rows.dtype.type(s0) if s0 else rows[c0:c1], cols[c0:c1], int(s1 - s0))
        for s0, s1, c0, c1 in zip(bounds[:-1], bounds[1:], cuts[:-1], cuts[1:])])
    if not all(complete for *_, complete in parts) or (len(parts) > 1 and cuts[-1] != len(rows)):
        raise ValueError("rows must be sorted and inside [0, n_segments)")
    if len(parts) == 1:
        return parts[0][:3]
    offsets = np.cumsum([0] + [len(indices) for _, indices, _, _ in parts[:-1]])
    indptr = np.concatenate([parts[0][0][:1]] + [ptr[1:] + offset for (ptr, *_), offset in zip(parts, offsets)])
    return indptr, np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])


@numba.njit(nogil=True, cache=True)
def _instance_rows(indptr, indices, counts, runs, binary):  # pragma: no cover - compiled
    n_slots, n = runs.shape
    total = 0
    for i in range(n):
        for j in range(n_slots):
            total += indptr[runs[j, i] + 1] - indptr[runs[j, i]]
    out_ptr = np.zeros(n + 1, np.int64)
    out_index, out_data = np.empty(total, np.int32), np.empty(total, np.int32)
    o = 0
    for i in range(n):
        a, a_end = indptr[runs[0, i]], indptr[runs[0, i] + 1]
        b = b_end = 0
        if n_slots == 2:
            b, b_end = indptr[runs[1, i]], indptr[runs[1, i] + 1]
        while a < a_end or b < b_end:  # merge two sorted rows
            if b == b_end or (a < a_end and indices[a] < indices[b]):
                out_index[o], out_data[o] = indices[a], counts[a]
                a += 1
            elif a == a_end or indices[b] < indices[a]:
                out_index[o], out_data[o] = indices[b], counts[b]
                b += 1
            else:
                out_index[o], out_data[o] = indices[a], counts[a] + counts[b]
                a += 1
                b += 1
            if binary:
                out_data[o] = 1
            o += 1
        out_ptr[i + 1] = o
    return out_ptr, out_index[:o], out_data[:o]


def instance_rows(
    indptr: np.ndarray, indices: np.ndarray, counts: np.ndarray, runs: list[np.ndarray], n_features: int,
    *, binary: bool,
) -> sp.csr_matrix:
    """Instance ``i`` = the union of segment rows ``runs[0][i]`` and (optionally) ``runs[1][i]``.

    With ``binary`` every stored value is 1 (instance counting); otherwise counts add up.

    Examples
    --------
    >>> indptr, indices, counts = segment_rows(np.array([0, 0, 1]), np.array([2, 0, 2]), 2)
    >>> m = instance_rows(indptr, indices, counts, [np.array([0, 1]), np.array([1, 1])], 3, binary=False)
    >>> m.toarray().tolist()
    [[1, 0, 2], [0, 0, 2]]
    """
    if not 1 <= len(runs) <= 2:
        raise ValueError(f"an instance has one or two segments, got {len(runs)}")
    stacked = np.ascontiguousarray(np.stack(runs), dtype=np.int64)
    bounds = split_points(stacked.shape[1], min_part=_MIN_PART)
    parts = map_in_threads(_instance_rows, [(indptr, indices, counts, np.ascontiguousarray(stacked[:, a:b]), binary)
                                            for a, b in zip(bounds[:-1], bounds[1:])])
    out_ptr, out_index, out_data = parts[0]
    if len(parts) > 1:
        offsets = np.cumsum([0] + [len(index) for _, index, _ in parts[:-1]])
        out_ptr = np.concatenate([out_ptr[:1]] + [ptr[1:] + offset for (ptr, _, _), offset in zip(parts, offsets)])
        out_index, out_data = np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])
    matrix = sp.csr_matrix((out_data, out_index, out_ptr), shape=(stacked.shape[1], n_features))
    matrix.has_sorted_indices = True  # merged from sorted rows
    return matrix
