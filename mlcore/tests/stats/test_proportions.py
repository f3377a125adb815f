"""Wilson intervals, Newcombe differences and vMER against independent references
(statsmodels, Newcombe's published example), closed forms, and a calibration simulation."""
import math

import numpy as np
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from mlcore.stats.proportions import (
    grouped_proportions,
    proportion,
    proportion_difference,
    validated_model_error_rate,
    wilson_interval,
)

Z95 = 1.959963984540054


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 5), (3, 7), (5, 10), (18, 20), (1, 1000), (999, 1000),
                                 (250, 400), (0, 10_000)])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_wilson_matches_statsmodels(k, n, level):
    low, high = proportion_confint(k, n, alpha=1 - level, method="wilson")
    ci = wilson_interval(k, n, confidence_level=level)
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)


def test_wilson_exact_small_cases():
    z2 = Z95 ** 2
    # 0 of 1: [0, z²/(1+z²)]; 1 of 1: [1/(1+z²), 1] (the closed forms of the score interval).
    assert wilson_interval(0, 1).low == 0.0
    assert wilson_interval(0, 1).high == pytest.approx(z2 / (1 + z2), abs=1e-12)
    assert wilson_interval(1, 1).low == pytest.approx(1 / (1 + z2), abs=1e-12)
    assert wilson_interval(1, 1).high == 1.0
    # 5 of 10 is centred on 1/2 with half-width z/(1+z²/n)·sqrt(1/(4n) + z²/(4n²)).
    ci = wilson_interval(5, 10)
    half = Z95 / (1 + z2 / 10) * math.sqrt(0.025 + z2 / 400)
    assert (ci.low, ci.high) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-12)
    # Symmetry: k of n mirrors n-k of n.
    a, b = wilson_interval(3, 11), wilson_interval(8, 11)
    assert (a.low, a.high) == pytest.approx((1 - b.high, 1 - b.low), abs=1e-12)


def test_wilson_without_data_is_nan_and_bad_counts_are_refused():
    ci = wilson_interval(0, 0)
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert math.isnan(proportion(0, 0).statistic)
    for k, n in [(-1, 3), (4, 3), (0, -1)]:
        with pytest.raises(ValueError, match="0 <= k <= n"):
            wilson_interval(k, n)
    with pytest.raises(TypeError):
        wilson_interval(1.5, 3)
    with pytest.raises(ValueError, match="confidence_level"):
        wilson_interval(1, 3, confidence_level=1.0)


def test_newcombe_matches_statsmodels_and_the_published_example():
    # Newcombe (1998), Table II example (e): 56/70 vs 48/80 -> 0.0524 to 0.3339 (method 10).
    ci = proportion_difference(proportion(56, 70), proportion(48, 80)).confidence_interval()
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.0524, 0.3339)
    for counts in [(9, 10, 3, 10), (0, 12, 4, 15), (40, 50, 41, 50), (5, 5, 0, 5)]:
        low, high = confint_proportions_2indep(*counts, method="newcomb", compare="diff")
        k1, n1, k2, n2 = counts
        ours = proportion_difference(proportion(k1, n1), proportion(k2, n2)).confidence_interval()
        assert (ours.low, ours.high) == pytest.approx((low, high), abs=1e-10)


def test_grouped_proportions_counts_each_group_of_an_item():
    result = grouped_proportions(np.array([1, 0, 1, 1]), [("idioms",), ("idioms", "negation"), (), ("negation",)])
    assert (result.overall.k, result.overall.n) == (3, 4)
    assert {g: (r.k, r.n) for g, r in result.per_group.items()} == {"idioms": (1, 2), "negation": (1, 2)}
    with pytest.raises(ValueError, match="one group list per item"):
        grouped_proportions([True], [])
    with pytest.raises(ValueError, match="booleans"):
        grouped_proportions([2], [()])


def test_vmer_needs_confirmation_and_a_fooled_model():
    result = validated_model_error_rate([True, True, False, False, True], [True, False, True, False, True])
    assert (result.k, result.n) == (2, 5)
    assert validated_model_error_rate([], []).n == 0
    with pytest.raises(ValueError, match="differ in length"):
        validated_model_error_rate([True], [True, False])


def test_wilson_interval_covers_a_known_rate_about_95_percent_of_the_time():
    """Calibration: 4000 simulated rounds of 120 validated questions under a true vMER of 0.3."""
    rng = np.random.default_rng(20261125)
    rate, n, reps = 0.3, 120, 4000
    hits = rng.binomial(n, rate, size=reps)
    covered = np.mean([wilson_interval(int(k), n).contains(rate) for k in hits])
    # Binomial noise of the coverage estimate itself is ±0.7 percentage points (2 SE).
    assert 0.935 <= covered <= 0.965, covered


SMALL_N_EDGE_CASES = [(n, p) for n in (10, 12, 15, 18, 20) for p in (0.02, 0.05, 0.95, 0.98)]


def test_wilson_interval_keeps_its_coverage_for_small_n_near_0_and_1():
    """Where Wilson and Wald differ: 10-20 trials and a rate near 0 or 1, 4000 simulated rounds each.

    At n = 120 and p = 0.3 (above) a Wald interval covers about 95% too; here it collapses: with
    p = 0.02 most rounds have k = 0 or k = n, where Wald's interval has width 0. Exact coverage of
    these cases (binomial sums): Wilson 0.914-0.984 (mean 0.954), Wald 0.18-0.64 (mean 0.39).
    """
    rng = np.random.default_rng(20261201)
    reps, coverage = 4000, {}
    for n, p in SMALL_N_EDGE_CASES:
        covers = np.array([wilson_interval(k, n).contains(p) for k in range(n + 1)])  # per outcome k
        coverage[n, p] = float(covers[rng.binomial(n, p, size=reps)].mean())
    # 0.90 is 2.5 standard errors of a 4000-round estimate below the lowest exact coverage (0.914).
    assert min(coverage.values()) >= 0.90, coverage
    assert np.mean(list(coverage.values())) >= 0.935, coverage


def test_a_planted_difference_is_detected_and_no_difference_is_rarely_claimed():
    """Two rounds of 300 questions: a model fooled 35% then 20% of the time is told apart in most
    simulations; equal rates are (wrongly) told apart in about 5% only."""
    rng = np.random.default_rng(7)
    n, reps = 300, 2000

    def detected(p1: float, p2: float) -> float:
        k1, k2 = rng.binomial(n, p1, size=reps), rng.binomial(n, p2, size=reps)
        return float(np.mean([not proportion_difference(proportion(int(a), n), proportion(int(b), n))
                              .confidence_interval().contains(0.0) for a, b in zip(k1, k2)]))

    assert detected(0.35, 0.20) > 0.95
    assert detected(0.30, 0.30) < 0.075
