"""The compiled matrix assembly must equal a plain count of (instance, feature) pairs."""

import numpy as np
import pytest

from mlcore.bias import lexical_rows
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_rows import instance_matrix


def random_pairs(rng, n_segments, max_len, n_features):
    lengths = rng.integers(0, max_len + 1, size=n_segments)
    rows = np.repeat(np.arange(n_segments), lengths)
    return rows, rng.integers(0, n_features, size=len(rows))


def expected_matrix(rows, cols, n_segments, runs, n_features, binary):
    dense = np.zeros((n_segments, n_features), np.int64)
    np.add.at(dense, (rows, cols), 1)
    expected = sum(dense[run] for run in runs)
    return np.minimum(expected, 1) if binary else expected


def rows_are_distinct(matrix) -> bool:
    # No column twice in a row (scipy would add the duplicates up, but nnz and sums must be exact).
    return all(len(set(matrix.indices[a:b].tolist())) == b - a for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:]))


class InstanceMatrixTests:
    @pytest.mark.parametrize("binary", [True, False])
    @pytest.mark.parametrize("n_slots", [1, 2])
    @pytest.mark.parametrize("max_len", [3, 40, 200])
    def test_union_of_the_segments_pairs(self, binary, n_slots, max_len):
        rng = np.random.default_rng(n_slots + 2 * binary + max_len)
        rows, cols = random_pairs(rng, 50, max_len, 300 if max_len == 200 else 30)
        n_features = int(cols.max()) + 1
        runs = [rng.integers(0, 50, size=200) for _ in range(n_slots)]
        matrix = instance_matrix(rows, cols, 50, runs, n_features, binary=binary)
        assert np.array_equal(matrix.toarray(), expected_matrix(rows, cols, 50, runs, n_features, binary))
        assert rows_are_distinct(matrix) and not matrix.has_sorted_indices
        matrix.sort_indices()  # what scipy does where an operation needs sorted rows
        assert np.array_equal(matrix.toarray(), expected_matrix(rows, cols, 50, runs, n_features, binary))

    def test_bad_arguments_are_refused(self):
        one = [np.zeros(1, np.int64)]
        with pytest.raises(ValueError, match="sorted"):
            instance_matrix(np.array([1, 0]), np.array([0, 0]), 2, one, 1, binary=True)
        with pytest.raises(ValueError, match="sorted"):
            instance_matrix(np.array([0, 2]), np.array([0, 0]), 2, one, 1, binary=True)
        with pytest.raises(ValueError, match="cols"):
            instance_matrix(np.array([0, 0]), np.array([0, 5]), 1, one, 5, binary=True)
        with pytest.raises(ValueError, match="runs"):
            instance_matrix(np.array([0]), np.array([0]), 1, [np.array([1])], 1, binary=True)
        with pytest.raises(ValueError, match="one or two"):
            instance_matrix(np.array([0]), np.array([0]), 1, one * 3, 1, binary=True)

    def test_no_pairs_and_no_instances(self):
        empty = np.zeros(0, np.int64)
        matrix = instance_matrix(empty, empty, 3, [np.array([0, 2])], 4, binary=True)
        assert matrix.shape == (2, 4) and matrix.nnz == 0
        assert instance_matrix(empty, empty, 3, [empty], 4, binary=False).shape == (0, 4)


def test_long_texts_count_tokens_exactly():
    text = " ".join(f"w{i % 97}" for i in range(1000))  # 1000 tokens in one segment
    features = lexical_features([text, "w1 w1"], count="token")
    column = features.column
    assert features.matrix[0, column["w3"]] == 11 and features.matrix[1, column["w1"]] == 2
    assert features.matrix.sum() == 1002


@pytest.mark.parametrize("binary", [True, False])
def test_parts_in_threads_give_the_same_matrix(monkeypatch, binary):
    from mlcore import threads

    rng = np.random.default_rng(7)
    rows, cols = random_pairs(rng, 40, 60, 25)
    runs = [rng.integers(0, 40, size=90), rng.integers(0, 40, size=90)]
    one_part = instance_matrix(rows, cols, 40, runs, 25, binary=binary)
    monkeypatch.setattr(threads, "MAX_THREADS", 3)
    monkeypatch.setattr(lexical_rows, "_MIN_PART", 5)
    three_parts = instance_matrix(rows, cols, 40, runs, 25, binary=binary)
    assert (one_part != three_parts).nnz == 0 and np.array_equal(one_part.indptr, three_parts.indptr)
    assert rows_are_distinct(three_parts)


def test_feature_label_sums_equal_the_sparse_product_and_refuse_bad_labels():
    rng = np.random.default_rng(3)
    rows, cols = random_pairs(rng, 60, 20, 40)
    matrix = instance_matrix(rows, cols, 60, [rng.integers(0, 60, size=120)], 40, binary=False)
    labels = rng.integers(0, 3, size=120)
    one_hot = np.eye(3, dtype=np.int64)[labels]
    assert np.array_equal(lexical_rows.feature_label_sums(matrix, labels, 3), matrix.T @ one_hot)
    with pytest.raises(ValueError, match="labels for"):
        lexical_rows.feature_label_sums(matrix, labels[:5], 3)
    with pytest.raises(ValueError, match="inside"):
        lexical_rows.feature_label_sums(matrix, np.full(120, 3), 3)


def test_feature_label_sums_of_a_csc_matrix_walk_its_rows():
    dense = np.array([[1, 0, 2], [0, 1, 1], [1, 1, 0]])
    csc = lexical_rows.sp.csc_matrix(dense)
    assert lexical_rows.feature_label_sums(csc, np.array([0, 1, 0]), 2).tolist() == [[2, 0], [1, 1], [2, 1]]
