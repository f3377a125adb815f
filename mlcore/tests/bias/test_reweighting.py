"""Reweighting and its diagnostics (SPEC-bias §3; reference values R13-R15 of §7)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlcore.bias.lexical import lexical_features
from mlcore.bias.reweighting import (
    bigram_balance_check,
    label_balance,
    reweight,
    reweighting_diagnostics,
    reweighting_features,
    reweighting_loss_and_gradient,
    weighted_label_distribution,
)

# SPEC §3.6: two labels, the tokens are the letters.
TEXTS = ["a b", "a", "a c", "b c", "c", "b"]
LABELS = list("AABBAB")
EXACT_Q = np.array([2, 1, 3, 1, 4, 1]) / 12


@pytest.fixture(scope="module")
def toy():
    return lexical_features(TEXTS)


class TestReferenceValues:
    def test_r13_uniform_weights(self, toy):
        d = reweighting_diagnostics(toy, LABELS, np.full(6, 1 / 6), label_set="AB", min_count=1)
        assert d.features_used == ("a", "b", "c")
        assert d.err == pytest.approx(1 / 6, abs=1e-6)
        assert d.err == pytest.approx(0.166667, abs=1e-6)
        assert d.label_balance == pytest.approx([1 / 6] * 3, abs=1e-12)
        lb = label_balance(toy, LABELS, np.full(6, 1 / 6), label_set="AB")
        assert lb.features == ("a", "b", "c")
        assert lb.lb_uniform == pytest.approx([1 / 6] * 3, abs=1e-12)

    def test_r14_exact_solution(self, toy):
        d = reweighting_diagnostics(toy, LABELS, EXACT_Q, label_set="AB", min_count=1)
        assert d.err == pytest.approx(0.0, abs=1e-12)
        assert d.err_marg == pytest.approx(1 / 12, abs=1e-12)
        assert d.weights == pytest.approx([1, 0.5, 1.5, 0.5, 2, 0.5], abs=1e-12)
        assert d.ess == pytest.approx(4.5, abs=1e-12)
        assert d.max_weight == pytest.approx(2.0)
        share, mass, marginal = weighted_label_distribution(toy.matrix, np.array([0, 0, 1, 1, 0, 1]), EXACT_Q, 2)
        assert share == pytest.approx(np.full((3, 2), 0.5), abs=1e-12)
        assert marginal == pytest.approx([7 / 12, 5 / 12])
        lb = label_balance(toy, LABELS, EXACT_Q, label_set="AB")
        assert lb.lb_q == pytest.approx([1 / 12] * 3, abs=1e-12)
        assert lb.difference == pytest.approx([1 / 12 - 1 / 6] * 3, abs=1e-12)

    @pytest.mark.parametrize("objective", ["squared", "scaled"])
    def test_r15_adam_reaches_zero_error(self, toy, objective):
        r = reweight(toy, LABELS, label_set="AB", min_count=1, objective=objective)
        assert r.err_final < 1e-6
        assert r.q.sum() == pytest.approx(1.0, abs=1e-12)
        assert (r.q > 0).all()
        assert r.err_initial == pytest.approx(1 / 6)
        assert r.loss_final < r.loss_initial and r.converged
        assert 0 < r.n_steps <= 3000
        assert r.weights == pytest.approx(6 * r.q)
        assert r.ess == pytest.approx(1 / np.square(r.q).sum())
        # err_marg is not the objective: the marginal drifts away from 1/2 (SPEC §3.6)
        assert r.err_marg_final > 0.05

    def test_r15_lbfgs_alternative(self, toy):
        r = reweight(toy, LABELS, label_set="AB", min_count=1, method="L-BFGS-B")
        assert r.err_final < 1e-6 and (r.q > 0).all() and r.q.sum() == pytest.approx(1.0)


class TestFeatureSet:
    def test_types_missing_a_label_are_dropped_and_reported(self):
        f = lexical_features(["x y", "x y", "x", "y z", "z z z", "w"])
        s = reweighting_features(f, list("AABBBA"), label_set="AB", min_count=2)
        assert s.features_used == ("x", "y")
        assert s.features_dropped == ("z",)  # 2 instances, both B

    def test_min_count_counts_instances_not_tokens(self):
        f = lexical_features(["q q q", "r", "r"])  # q: 3 tokens but 1 instance
        s = reweighting_features(f, list("ABA"), label_set="AB", min_count=2)
        assert (s.features_used, s.features_dropped) == (("r",), ())

    def test_default_min_count_is_100_instances(self):
        # "common" is in 100 instances (50 A, 50 B), "rare" in 99: only "common" is in F_R by default.
        texts = ["common rare"] * 99 + ["common"] + ["other"] * 10
        labels = ["A", "B"] * 55
        features = lexical_features(texts)
        assert reweighting_features(features, labels, label_set="AB").features_used == ("common",)
        r = reweight(features, labels, label_set="AB")
        assert r.features_used == ("common",) and r.err_initial == pytest.approx(0.0)
        d = reweighting_diagnostics(features, labels, np.full(110, 1 / 110), label_set="AB")
        assert d.features_used == ("common",)

    def test_empty_feature_set_skips_optimisation(self, toy):
        r = reweight(toy, LABELS, label_set="AB", min_count=100)
        assert np.isnan(r.err_initial) and np.isnan(r.err_final)
        assert r.n_steps == 0 and r.q == pytest.approx(np.full(6, 1 / 6))

    def test_declared_label_absent_from_training_drops_everything(self, toy):
        s = reweighting_features(toy, LABELS, label_set="ABC", min_count=1)
        assert s.features_used == () and s.features_dropped == ("a", "b", "c")

    def test_token_counts_are_rejected(self):
        f = lexical_features(TEXTS, count="token")
        with pytest.raises(ValueError, match="count='instance'"):
            reweight(f, LABELS, label_set="AB", min_count=1)

    def test_q_must_be_a_distribution(self, toy):
        for q in (np.full(6, 0.2), np.array([-0.1, 0.3, 0.2, 0.2, 0.2, 0.2]), np.full(5, 0.2)):
            with pytest.raises(ValueError):
                reweighting_diagnostics(toy, LABELS, q, label_set="AB", min_count=1)

    def test_argument_validation(self, toy):
        with pytest.raises(ValueError):
            reweight(toy, LABELS, label_set="AB", min_count=1, method="sgd")
        with pytest.raises(ValueError):
            reweight(toy, LABELS, label_set="AB", min_count=1, objective="abs")
        with pytest.raises(ValueError):
            reweight(toy, LABELS, label_set="AB", min_count=1, learning_rate=0)
        with pytest.raises(ValueError):
            reweight(toy, LABELS, label_set="A", min_count=1)


def _random_problem(rng: np.random.Generator, n: int, n_features: int, n_labels: int):
    dense = (rng.random((n, n_features)) < 0.3).astype(float)
    dense[np.arange(n), rng.integers(0, n_features, size=n)] = 1.0
    y = rng.integers(0, n_labels, size=n)
    return sp.csr_matrix(dense), y


class TestOptimisation:
    @pytest.mark.parametrize("objective", ["squared", "scaled"])
    def test_gradient_matches_finite_differences(self, objective):
        rng = np.random.default_rng(3)
        matrix, y = _random_problem(rng, 25, 6, 3)
        theta = rng.normal(size=25)
        _, grad = reweighting_loss_and_gradient(theta, matrix, y, 3, objective=objective)
        step = 1e-6
        numeric = np.array([
            (reweighting_loss_and_gradient(theta + step * e, matrix, y, 3, objective=objective)[0]
             - reweighting_loss_and_gradient(theta - step * e, matrix, y, 3, objective=objective)[0]) / (2 * step)
            for e in np.eye(25)
        ])
        assert grad == pytest.approx(numeric, rel=1e-5, abs=1e-9)

    def test_weights_stay_positive_and_normalised_on_random_data(self):
        rng = np.random.default_rng(4)
        for _trial in range(6):
            n, n_labels = int(rng.integers(20, 200)), int(rng.integers(2, 4))
            vocab = [f"w{i}" for i in range(12)]
            texts = [" ".join(rng.choice(vocab, size=int(rng.integers(1, 6)))) for _ in range(n)]
            labels = [f"L{int(v)}" for v in rng.integers(0, n_labels, size=n)]
            label_set = [f"L{j}" for j in range(n_labels)]
            f = lexical_features(texts)
            r = reweight(f, labels, label_set=label_set, min_count=3, max_steps=300)
            assert (r.q > 0).all() and r.q.sum() == pytest.approx(1.0, abs=1e-12)
            assert (r.weights > 0).all() and r.weights.mean() == pytest.approx(1.0)
            assert r.loss_final <= r.loss_initial
            assert 1.0 <= r.ess <= n + 1e-9
            if r.features_used:
                assert r.err_final <= r.err_initial + 1e-12

    def test_deterministic(self, toy):
        first = reweight(toy, LABELS, label_set="AB", min_count=1, max_steps=50)
        second = reweight(toy, LABELS, label_set="AB", min_count=1, max_steps=50)
        assert np.array_equal(first.q, second.q) and first.n_steps == second.n_steps == 50

    def test_zero_steps_returns_uniform(self, toy):
        r = reweight(toy, LABELS, label_set="AB", min_count=1, max_steps=0)
        assert r.n_steps == 0 and r.q == pytest.approx(np.full(6, 1 / 6)) and r.loss_final == r.loss_initial


class TestBigramCheck:
    def test_sample_follows_the_spec_recipe(self):
        rng = np.random.default_rng(5)
        vocab = [f"w{i}" for i in range(8)]
        texts = [" ".join(rng.choice(vocab, size=6)) for _ in range(300)]
        labels = [str(v) for v in rng.integers(0, 3, size=300)]
        bigrams = lexical_features(texts, ngram=2)
        counts = {b: set() for b in bigrams.vocabulary}
        for text, label in zip(texts, labels):
            tokens = text.split()
            for b in zip(tokens, tokens[1:]):
                counts[b].add(label)
        eligible = sorted(b for b, seen in counts.items() if len(seen) == 3)
        expected = [eligible[j] for j in np.random.default_rng(7).choice(len(eligible), size=20, replace=False)]
        r = bigram_balance_check(bigrams, labels, np.full(300, 1 / 300), label_set="012", m=20, rng=7)
        assert r.n_eligible == len(eligible) and list(r.sample) == expected and r.seed == 7
        assert r.mean_lb_q == pytest.approx(r.mean_lb_uniform) and not r.worsened
        same = bigram_balance_check(bigrams, labels, np.full(300, 1 / 300), label_set="012", m=20,
                                    rng=np.random.default_rng(7))
        assert same.sample == r.sample and same.seed is None

    def test_default_sample_is_200_bigrams(self):
        # 16 x 16 = 256 bigrams, each seen once with A and once with B: all eligible, 200 drawn
        # with the default seed 0 (SPEC §3.5 recipe).
        vocab = [f"w{i:02d}" for i in range(16)]
        pairs = [(u, v) for u in vocab for v in vocab]
        texts = [f"{u} {v}" for u, v in pairs for _ in "AB"]
        bigrams = lexical_features(texts, ngram=2)
        r = bigram_balance_check(bigrams, list("AB") * len(pairs), np.full(len(texts), 1 / len(texts)),
                                 label_set="AB")
        expected = [pairs[j] for j in np.random.default_rng(0).choice(256, size=200, replace=False)]
        assert r.n_eligible == 256 and len(r.sample) == 200 and list(r.sample) == expected

    def test_reweighting_on_unigrams_can_worsen_bigrams(self):
        # Both bigrams are balanced under uniform weights; q keeps the label marginal at 1/2
        # but tilts each bigram towards one label.
        texts = ["a b", "a b", "b a", "b a", "a", "b"]
        labels = list("ABABAB")
        q = np.array([0.3, 0.05, 0.05, 0.3, 0.15, 0.15])
        r = bigram_balance_check(lexical_features(texts, ngram=2), labels, q, label_set="AB", m=200)
        assert r.n_eligible == 2 and len(r.sample) == 2
        assert r.mean_lb_uniform == pytest.approx(0.0) and r.worsened
        assert r.lb_q == pytest.approx([5 / 14, 5 / 14])

    def test_needs_bigrams(self, toy):
        with pytest.raises(ValueError, match="ngram=2"):
            bigram_balance_check(toy, LABELS, np.full(6, 1 / 6), label_set="AB")
