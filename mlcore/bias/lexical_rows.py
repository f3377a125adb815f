"""Compiled assembly of the instance x feature matrix of :func:`mlcore.bias.lexical.lexical_features`.

Tokens arrive as ``(segment, feature)`` pairs in segment order; an instance is one or two
segments (premise and hypothesis), named by ``runs``. :func:`instance_matrix` builds each
instance's row in one pass over its segments' pairs: a per-feature stamp drops (instance
counting) or adds up (token counting) a feature seen before in the same instance. Columns stay
in order of first appearance: for SNLI-sized data (10 M non-zeros) this takes 0.16 s, against
0.29 s for the previous design (sort every distinct segment's row, then merge two sorted rows per
instance) and 0.48 s for sorting the rows afterwards; scipy handles rows with unsorted columns
(``has_sorted_indices`` is False) and sorts them itself where an operation needs it.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp

from mlcore.threads import map_in_threads, split_points

__all__ = ["feature_label_sums", "instance_matrix"]

_MIN_PART = 50_000  # instances per thread


@numba.njit(nogil=True, cache=True)
def _segment_starts(rows: np.ndarray, n_segments: int) -> np.ndarray:  # pragma: no cover - compiled
    """Where each segment's pairs start (``n_segments + 1`` offsets); -1 if rows are unsorted or out of range."""
    starts = np.zeros(n_segments + 1, np.int64)
    previous = 0
    for k in range(rows.size):
        r = rows[k]
        if r < previous or r >= n_segments:
            starts[0] = -1
            return starts
        starts[r + 1] += 1
        previous = r
    for s in range(n_segments):
        starts[s + 1] += starts[s]
    return starts


@numba.njit(nogil=True, cache=True)
def _instance_rows(starts: np.ndarray, cols: np.ndarray, runs: np.ndarray, n_features: int,
                   binary: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    n_slots, n = runs.shape
    total = 0
    for i in range(n):
        for j in range(n_slots):
            total += starts[runs[j, i] + 1] - starts[runs[j, i]]
    out_ptr = np.zeros(n + 1, np.int64)
    out_index, out_data = np.empty(total, np.int32), np.empty(total, np.int32)
    # stamp[f] = 1 + the last instance that had feature f; where[f] = its position in out_*.
    stamp, where = np.zeros(n_features, np.int64), np.empty(n_features, np.int64)
    o = 0
    for i in range(n):
        for j in range(n_slots):
            s = runs[j, i]
            for k in range(starts[s], starts[s + 1]):
                f = cols[k]
                if stamp[f] == i + 1:
                    if not binary:
                        out_data[where[f]] += 1
                    continue
                stamp[f], where[f] = i + 1, o
                out_index[o], out_data[o] = f, 1
                o += 1
        out_ptr[i + 1] = o
    return out_ptr, out_index[:o], out_data[:o]


def instance_matrix(
    rows: np.ndarray, cols: np.ndarray, n_segments: int, runs: list[np.ndarray], n_features: int, *, binary: bool
) -> sp.csr_matrix:
    """Instance ``i`` = the features of segment ``runs[0][i]`` and (optionally) segment ``runs[1][i]``.

    ``rows`` (non-decreasing, below ``n_segments``) and ``cols`` (below ``n_features``) are the
    ``(segment, feature)`` pairs, one per token. With ``binary`` every stored value is 1 (instance
    counting); otherwise it is the feature's number of occurrences in the instance's segments.
    Columns are distinct in every row, in order of first appearance (not sorted).

    Examples
    --------
    >>> rows, cols = np.array([0, 0, 0, 1]), np.array([2, 0, 2, 2])
    >>> m = instance_matrix(rows, cols, 2, [np.array([0, 1]), np.array([1, 1])], 3, binary=False)
    >>> m.toarray().tolist()
    [[1, 0, 3], [0, 0, 2]]
    >>> m.indices.tolist()  # first appearance: 2 before 0 in segment 0
    [2, 0, 2]
    """
    if not 1 <= len(runs) <= 2:
        raise ValueError(f"an instance has one or two segments, got {len(runs)}")
    rows, cols = np.asarray(rows), np.asarray(cols)
    if len(rows) != len(cols):
        raise ValueError(f"rows and cols differ in length ({len(rows)} != {len(cols)})")
    if len(cols) and (cols.min() < 0 or cols.max() >= n_features):
        raise ValueError(f"cols must be inside [0, {n_features})")
    starts = _segment_starts(rows, n_segments)
    if starts[0] < 0:
        raise ValueError("rows must be sorted and inside [0, n_segments)")
    stacked = np.ascontiguousarray(np.stack(runs), dtype=np.int64)
    if stacked.size and (stacked.min() < 0 or stacked.max() >= n_segments):
        raise ValueError(f"runs must name segments inside [0, {n_segments})")
    # Instance ranges are independent: each part in its own thread (the kernel releases the GIL).
    bounds = split_points(stacked.shape[1], min_part=_MIN_PART)
    parts = map_in_threads(_instance_rows, [(starts, cols, np.ascontiguousarray(stacked[:, a:b]), n_features, binary)
                                            for a, b in zip(bounds[:-1], bounds[1:])])
    out_ptr, out_index, out_data = parts[0]
    if len(parts) > 1:
        offsets = np.cumsum([0] + [len(index) for _, index, _ in parts[:-1]])
        out_ptr = np.concatenate([out_ptr[:1]] + [ptr[1:] + offset for (ptr, _, _), offset in zip(parts, offsets)])
        out_index, out_data = np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])
    matrix = sp.csr_matrix((out_data, out_index, out_ptr), shape=(stacked.shape[1], n_features))
    matrix.has_sorted_indices = False  # in order of first appearance; scipy sorts where it must
    return matrix


@numba.njit(nogil=True, cache=True)
def _label_sums(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, labels: np.ndarray, n_features: int,
                n_labels: int) -> np.ndarray:  # pragma: no cover - compiled
    sums = np.zeros((n_features, n_labels), np.int64)
    for i in range(labels.size):
        y = labels[i]
        for k in range(indptr[i], indptr[i + 1]):
            sums[indices[k], y] += data[k]
    return sums


def feature_label_sums(matrix: sp.csr_matrix, labels: np.ndarray, n_labels: int) -> np.ndarray:
    """``sums[f, y]``: the values of column ``f`` summed over the rows labelled ``y``, shape ``(V, n_labels)``.

    One pass over the non-zeros (exact integers); a third of the time of the sparse product with a
    one-hot label matrix on SNLI-sized data.

    Examples
    --------
    >>> m = sp.csr_matrix(np.array([[1, 0, 2], [0, 1, 1], [1, 1, 0]]))
    >>> feature_label_sums(m, np.array([0, 1, 0]), 2).tolist()
    [[2, 0], [1, 1], [2, 1]]
    """
    matrix = sp.csr_matrix(matrix)  # the kernel walks CSR rows (no copy when it is CSR already)
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    if len(labels) != matrix.shape[0]:
        raise ValueError(f"{len(labels)} labels for {matrix.shape[0]} instances")
    if len(labels) and (labels.min() < 0 or labels.max() >= n_labels):
        raise ValueError(f"labels must be inside [0, {n_labels})")
    sums: np.ndarray = _label_sums(matrix.indptr, matrix.indices, matrix.data.astype(np.int64, copy=False), labels,
                                   matrix.shape[1], n_labels)
    return sums
