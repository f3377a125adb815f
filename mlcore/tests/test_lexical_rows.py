"""The compiled matrix assembly must equal a plain count of (instance, feature) pairs."""
import doctest
from collections import Counter

import numpy as np
import pytest

from mlcore import lexical_rows
from mlcore.lexical import lexical_features
from mlcore.lexical_rows import instance_rows, segment_rows


def random_pairs(rng, n_segments, max_len, n_features):
    lengths = rng.integers(0, max_len + 1, size=n_segments)
    rows = np.repeat(np.arange(n_segments), lengths)
    return rows, rng.integers(0, n_features, size=len(rows))


class SegmentRowsTests:
    @pytest.mark.parametrize("max_len", [3, 40, 200])  # insertion sort, and np.sort past the limit
    def test_matches_a_counter_per_segment(self, max_len):
        rng = np.random.default_rng(max_len)
        rows, cols = random_pairs(rng, 300, max_len, 60)
        indptr, indices, counts = segment_rows(rows, cols, 300)
        for s in range(300):
            expected = sorted(Counter(cols[rows == s].tolist()).items())
            got = list(zip(indices[indptr[s]:indptr[s + 1]].tolist(), counts[indptr[s]:indptr[s + 1]].tolist()))
            assert got == expected

    def test_unsorted_or_out_of_range_rows_are_refused(self):
        with pytest.raises(ValueError, match="sorted"):
            segment_rows(np.array([1, 0]), np.array([0, 0]), 2)
        with pytest.raises(ValueError, match="sorted"):
            segment_rows(np.array([0, 2]), np.array([0, 0]), 2)

    def test_no_pairs(self):
        indptr, indices, counts = segment_rows(np.zeros(0, np.int64), np.zeros(0, np.int64), 3)
        assert indptr.tolist() == [0, 0, 0, 0] and indices.size == counts.size == 0


class InstanceRowsTests:
    @pytest.mark.parametrize("binary", [True, False])
    @pytest.mark.parametrize("n_slots", [1, 2])
    def test_union_of_segment_rows(self, binary, n_slots):
        rng = np.random.default_rng(n_slots + 2 * binary)
        rows, cols = random_pairs(rng, 50, 70, 30)
        indptr, indices, counts = segment_rows(rows, cols, 50)
        runs = [rng.integers(0, 50, size=200) for _ in range(n_slots)]
        matrix = instance_rows(indptr, indices, counts, runs, 30, binary=binary)
        dense = np.zeros((50, 30), np.int64)
        np.add.at(dense, (rows, cols), 1)
        expected = sum(dense[run] for run in runs)
        assert np.array_equal(matrix.toarray(), np.minimum(expected, 1) if binary else expected)
        # The matrix claims sorted, distinct columns per row (scipy trusts it): check the claim.
        assert all((np.diff(matrix.indices[a:b]) > 0).all() for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:]))

    def test_three_segments_are_refused(self):
        indptr, indices, counts = segment_rows(np.array([0]), np.array([0]), 1)
        with pytest.raises(ValueError, match="one or two"):
            instance_rows(indptr, indices, counts, [np.zeros(1, np.int64)] * 3, 1, binary=True)


def test_long_texts_count_tokens_exactly():
    text = " ".join(f"w{i % 97}" for i in range(1000))  # 1000 tokens in one segment
    features = lexical_features([text, "w1 w1"], count="token")
    column = features.column
    assert features.matrix[0, column["w3"]] == 11 and features.matrix[1, column["w1"]] == 2
    assert features.matrix.sum() == 1002


def test_docstring_examples():
    assert doctest.testmod(lexical_rows).failed == 0


@pytest.mark.parametrize("binary", [True, False])
def test_parts_in_threads_give_the_same_matrix(monkeypatch, binary):
    from mlcore import threads

    rng = np.random.default_rng(7)
    rows, cols = random_pairs(rng, 40, 60, 25)
    runs = [rng.integers(0, 40, size=90), rng.integers(0, 40, size=90)]
    one_part_rows = segment_rows(rows, cols, 40)
    one_part = instance_rows(*one_part_rows, runs, 25, binary=binary)
    monkeypatch.setattr(threads, "MAX_THREADS", 3)
    monkeypatch.setattr(lexical_rows, "_MIN_PART", 5)
    parts = segment_rows(rows, cols, 40)
    assert [a.tolist() for a in parts] == [a.tolist() for a in one_part_rows]
    three_parts = instance_rows(*parts, runs, 25, binary=binary)
    assert (one_part != three_parts).nnz == 0 and np.array_equal(one_part.indptr, three_parts.indptr)
    with pytest.raises(ValueError, match="sorted"):
        segment_rows(np.array([0, 0, 50]), np.array([1, 2, 3]), 40)  # a row past the last segment
    with pytest.raises(ValueError, match="sorted"):
        segment_rows(np.array([0, 30, 2]), np.array([1, 2, 3]), 40)
