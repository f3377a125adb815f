"""Tests for mlcore.models.fast_dropout: a dropout with the right rate, scale and gradient."""

from __future__ import annotations

import pytest
import torch
from scipy.stats import binomtest

from mlcore.models.fast_dropout import DropoutNoise


def test_keeps_each_element_with_the_stated_probability() -> None:
    values = torch.ones(1000, 1000)
    out = DropoutNoise(seed=3).apply(values, 0.1)
    kept = int((out != 0).sum())
    threshold = round(0.9 * 65536)  # the probability it uses: the nearest multiple of 2**-16
    assert binomtest(kept, values.numel(), threshold / 65536).pvalue > 1e-3
    # Kept elements are scaled by exactly the inverse of the keep probability: the mean is unbiased.
    assert torch.all(out[out != 0] == 65536 / threshold)


def test_rate_is_calibrated_over_many_seeds() -> None:
    # Under the null (the generator is fair) the binomial p-values of 200 masks are uniform:
    # about 5% fall under 0.05, not many more.
    pvalues = [binomtest(int((DropoutNoise(seed).apply(torch.ones(5000), 0.25) != 0).sum()), 5000,
                         0.75).pvalue for seed in range(200)]
    assert sum(p < 0.05 for p in pvalues) <= 20  # binomial(200, 0.05) exceeds 20 with probability < 0.2%


def test_planted_rate_difference_is_seen() -> None:
    # With p = 0.12 instead of 0.1 the test against 0.9 must reject.
    out = DropoutNoise(seed=5).apply(torch.ones(200_000), 0.12)
    assert binomtest(int((out != 0).sum()), out.numel(), 0.9).pvalue < 1e-6


def test_same_seed_same_masks_and_successive_masks_differ() -> None:
    a, b = DropoutNoise(seed=7), DropoutNoise(seed=7)
    first = a.apply(torch.ones(64, 32), 0.5)
    assert torch.equal(first, b.apply(torch.ones(64, 32), 0.5))
    assert not torch.equal(first, a.apply(torch.ones(64, 32), 0.5))


def test_edges_and_invalid_probabilities() -> None:
    values = torch.randn(10, 4)
    assert DropoutNoise(0).apply(values, 0.0) is values
    assert torch.equal(DropoutNoise(0).apply(values, 1.0), torch.zeros(10, 4))
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="dropout probability"):
            DropoutNoise(0).apply(values, bad)


def test_gradient_is_the_mask_times_the_scale() -> None:
    values = torch.randn(50, 8, requires_grad=True)
    out = DropoutNoise(seed=1).apply(values, 0.3)
    out.sum().backward()
    expected = torch.where(out != 0, torch.tensor(65536 / round(0.7 * 65536)), torch.tensor(0.0))
    assert torch.equal(values.grad, expected)
