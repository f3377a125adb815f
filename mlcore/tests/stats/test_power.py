"""mlcore.stats.power: the power of the two-proportion test, against statsmodels and a simulation
of the χ² test itself (Pearson, no Yates, as the selectional probe runs it)."""
import numpy as np
import pytest
from scipy import stats

from mlcore.stats.power import cohens_h, two_proportion_power

statsmodels_power = pytest.importorskip("statsmodels.stats.power")
statsmodels_proportion = pytest.importorskip("statsmodels.stats.proportion")


@pytest.mark.parametrize(("p1", "p2", "n1", "n2", "alpha"), [
    (0.694, 0.643, 100, 100, 0.05), (0.12, 0.08, 300, 250, 0.05), (0.5, 0.3, 40, 90, 0.01), (0.1, 0.1, 70, 70, 0.05),
])
def test_matches_statsmodels(p1, p2, n1, n2, alpha):
    h = statsmodels_proportion.proportion_effectsize(p1, p2)
    expected = statsmodels_power.NormalIndPower().power(h, nobs1=n1, ratio=n2 / n1, alpha=alpha)
    result = two_proportion_power(p1, p2, n1, n2, alpha=alpha)
    assert result.effect_size == pytest.approx(h, rel=1e-12)
    assert result.power == pytest.approx(expected, rel=1e-9)
    if h:
        needed = statsmodels_power.NormalIndPower().solve_power(h, power=0.8, ratio=1.0, alpha=alpha)
        assert result.n_for_power(0.8) == int(np.ceil(needed))


def _simulated_power(p1, p2, n1, n2, *, trials=3000, seed=0) -> float:
    """Share of simulated tables whose Pearson χ² test (no Yates) rejects at 5%."""
    rng = np.random.default_rng(seed)
    k1, k2 = rng.binomial(n1, p1, trials), rng.binomial(n2, p2, trials)
    rejected = 0
    for a, b in zip(k1, k2):
        table = np.array([[a, n1 - a], [b, n2 - b]])
        if table.sum(axis=0).min() == 0:
            continue  # nothing found (or everything): no test, no rejection
        rejected += stats.chi2_contingency(table, correction=False).pvalue < 0.05
    return rejected / trials


def test_a_planted_effect_is_found_as_often_as_computed():
    # The paper's largest gap at the probe's own size, and a larger effect.
    for p1, p2, n in ((0.694, 0.643, 100), (0.35, 0.2, 150)):
        computed = two_proportion_power(p1, p2, n, n).power
        assert _simulated_power(p1, p2, n, n) == pytest.approx(computed, abs=0.03)


def test_without_an_effect_the_test_rejects_at_its_level():
    assert two_proportion_power(0.1, 0.1, 120, 80).power == pytest.approx(0.05)
    assert _simulated_power(0.1, 0.1, 120, 80, seed=1) == pytest.approx(0.05, abs=0.015)


def test_power_grows_with_the_sample_and_the_effect():
    assert two_proportion_power(0.7, 0.64, 100, 100).power < two_proportion_power(0.7, 0.64, 1000, 1000).power
    assert two_proportion_power(0.7, 0.64, 100, 100).power < two_proportion_power(0.7, 0.5, 100, 100).power
    assert cohens_h(0.643, 0.694) == pytest.approx(-cohens_h(0.694, 0.643))


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        two_proportion_power(1.2, 0.5, 10, 10)
    with pytest.raises(ValueError):
        two_proportion_power(0.5, 0.4, 0, 10)
    with pytest.raises(ValueError):
        two_proportion_power(0.5, 0.4, 10, 10, alpha=1.0)
    with pytest.raises(ValueError):
        two_proportion_power(0.5, 0.4, 10, 10).n_for_power(1.0)
    assert two_proportion_power(0.5, 0.5, 10, 10).n_for_power() is None
