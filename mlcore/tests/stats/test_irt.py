"""2PL item response model and adversarial item quality (mlcore/stats/irt.py).

References: the ``girth`` package (marginal maximum likelihood by quadrature, a different
estimator written by others) on the same simulated matrices; parameter recovery from known
truths; calibration under a null of identical items and with planted adversarial items.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from scipy import special, stats

from mlcore.stats.irt import IrtFit, adversarial_quality, fit_2pl

girth = pytest.importorskip("girth")


def simulate(
    rng: np.random.Generator, a: np.ndarray, b: np.ndarray, theta: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Responses (items, respondents) drawn from the 2PL, and their probabilities."""
    p = special.expit(a[:, None] * (theta[None, :] - b[:, None]))
    return (rng.random(p.shape) < p).astype(float), p


def typical_items(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A common simulation design: a ~ U(0.5, 2), b ~ U(-2, 2)."""
    return rng.uniform(0.5, 2.0, n), rng.uniform(-2.0, 2.0, n)


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    return float(stats.spearmanr(x, y).statistic)


# --- against girth ---------------------------------------------------------------------------


def girth_and_ours(seed: int, n_items: int, n_resp: int, missing: float) -> tuple[dict[str, np.ndarray], IrtFit]:
    rng = np.random.default_rng(seed)
    a, b = typical_items(rng, n_items)
    y, _ = simulate(rng, a, b, rng.normal(0.0, 1.0, n_resp))
    y[rng.random(y.shape) < missing] = np.nan
    coded = np.where(np.isnan(y), girth.INVALID_RESPONSE, y).astype(int)
    return girth.twopl_mml(coded), fit_2pl(y)


@pytest.mark.parametrize(("n_items", "n_resp", "missing"), [(40, 500, 0.0), (40, 500, 0.2), (30, 200, 0.0)])
def test_agrees_with_girth_marginal_ml(n_items: int, n_resp: int, missing: float) -> None:
    ref, fit = girth_and_ours(7, n_items, n_resp, missing)
    ref_b, ref_a = ref["Difficulty"], ref["Discrimination"]
    assert np.corrcoef(fit.difficulty, ref_b)[0, 1] >= 0.99
    assert np.corrcoef(fit.discrimination, ref_a)[0, 1] >= 0.97
    # Mean-sigma linking (Marco 1977) puts our difficulties on girth's scale; both already fix
    # abilities to N(0, 1), so the linking constant must be close to 1 as well.
    slope = ref_b.std() / fit.difficulty.std()
    assert slope == pytest.approx(1.0, abs=0.1)
    linked_b = slope * fit.difficulty + (ref_b.mean() - slope * fit.difficulty.mean())
    assert np.abs(linked_b - ref_b).mean() <= 0.12
    assert np.abs(fit.discrimination / slope - ref_a).mean() <= 0.1


# --- parameter recovery ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_recovers_difficulty_200_items_30_respondents(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = typical_items(rng, 200)
    theta = rng.normal(0.0, 1.0, 30)
    y, _ = simulate(rng, a, b, theta)
    fit = fit_2pl(y)
    assert fit.converged
    assert spearman(fit.difficulty, b) >= 0.9
    assert spearman(fit.ability, theta) >= 0.95
    assert spearman(fit.discrimination, a) >= 0.3  # 30 answers per item say little about slopes


def test_difficulty_recovery_is_at_the_ceiling_of_the_data() -> None:
    # With b ~ N(0, 1) the items are closer together and 30 answers cannot order them to 0.9;
    # the fit still orders them as well as the share answered correctly does.
    ours, share = [], []
    for seed in range(10):
        rng = np.random.default_rng(100 + seed)
        b = rng.normal(0.0, 1.0, 200)
        y, _ = simulate(rng, np.exp(rng.normal(0.0, 0.3, 200)), b, rng.normal(0.0, 1.0, 30))
        ours.append(spearman(fit_2pl(y).difficulty, b))
        share.append(spearman(-y.mean(axis=1), b))
    assert np.mean(ours) >= np.mean(share) - 0.01
    assert np.mean(ours) >= 0.85


def test_log_likelihood_is_that_of_the_reported_parameters() -> None:
    rng = np.random.default_rng(3)
    y, _ = simulate(rng, *typical_items(rng, 50), rng.normal(0.0, 1.0, 20))
    y[rng.random(y.shape) < 0.3] = np.nan
    fit = fit_2pl(y)
    p = fit.probabilities()
    seen = ~np.isnan(y)
    expected = np.sum(np.where(y[seen] == 1, np.log(p[seen]), np.log1p(-p[seen])))
    assert fit.log_likelihood == pytest.approx(expected, rel=1e-10)
    assert fit.ability.mean() == pytest.approx(0.0, abs=1e-9)
    assert fit.ability.std() == pytest.approx(1.0, abs=1e-9)


# --- calibration -----------------------------------------------------------------------------


def replicate_pvalues(*, null: bool, n_pairs: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """p-values of Spearman's test between two independent replicates of the same 100 items.

    Each replicate has its own 16 respondents (6 people who answer 60% of the questions, 10
    models). Returns the p-values for difficulties and for quality scores.
    """
    p_b, p_q = [], []
    for seed in range(n_pairs):
        rng = np.random.default_rng(1000 + seed)
        a, b = (np.ones(100), np.zeros(100)) if null else typical_items(rng, 100)
        reps = []
        for _ in range(2):
            y, _ = simulate(rng, a, b, rng.normal(0.0, 1.0, 16))
            y[:, :6][rng.random((100, 6)) < 0.4] = np.nan
            fit = fit_2pl(y)
            reps.append((fit, adversarial_quality(fit, y, human_columns=range(6), model_columns=range(6, 16))))
        p_b.append(stats.spearmanr(reps[0][0].difficulty, reps[1][0].difficulty).pvalue)
        p_q.append(stats.spearmanr(reps[0][1].score, reps[1][1].score).pvalue)
    return np.array(p_b), np.array(p_q)


def test_null_of_identical_items_gives_no_reproducible_ordering() -> None:
    # If all items are the same, the spread of the estimates is noise: a second sample of
    # respondents orders the items independently. P(Binomial(20, 0.05) >= 5) = 0.003.
    p_b, p_q = replicate_pvalues(null=True)
    assert np.sum(p_b < 0.05) <= 4
    assert np.sum(p_q < 0.05) <= 4
    assert stats.kstest(p_b, "uniform").pvalue > 0.001


def test_distinct_items_give_a_reproducible_ordering() -> None:
    p_b, _ = replicate_pvalues(null=False, n_pairs=5)
    assert np.all(p_b < 1e-6)


def planted_round(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """100 questions, 8 people (each skips 25%), 10 models; 5 planted adversarial questions
    (people right 95%, models 5%) and 5 ambiguous ones (people 50%, models 5%)."""
    rng = np.random.default_rng(seed)
    humans, models = np.arange(8), np.arange(8, 18)
    planted = rng.choice(100, 5, replace=False)
    ambiguous = rng.choice(np.setdiff1d(np.arange(100), planted), 5, replace=False)
    _, p = simulate(rng, *typical_items(rng, 100), rng.normal(0.0, 1.0, 18))
    p[np.ix_(planted, humans)], p[np.ix_(planted, models)] = 0.95, 0.05
    p[np.ix_(ambiguous, humans)], p[np.ix_(ambiguous, models)] = 0.5, 0.05
    y = (rng.random(p.shape) < p).astype(float)
    y[:, :8][rng.random((100, 8)) < 0.25] = np.nan  # a view: humans are columns 0..7
    return y, planted, ambiguous, humans, models


def test_planted_adversarial_questions_rank_at_the_top() -> None:
    in_top5, above_ambiguous = [], []
    for seed in range(10):
        y, planted, ambiguous, humans, models = planted_round(seed)
        q = adversarial_quality(fit_2pl(y), y, human_columns=humans, model_columns=models)
        order = q.ranking()
        assert set(planted) <= set(order[:10].tolist())
        in_top5.append(len(set(planted) & set(order[:5].tolist())))
        above_ambiguous.append(np.median(q.score[planted]) > np.max(q.score[ambiguous]))
    assert np.mean(in_top5) >= 4.5
    assert np.mean(above_ambiguous) >= 0.8


def test_score_orders_agreed_ambiguous_and_easy_questions() -> None:
    rng = np.random.default_rng(5)
    y, _ = simulate(rng, *typical_items(rng, 40), rng.normal(0.0, 1.0, 9))  # 4 people, 5 models
    y[0] = [1, 1, 1, 1, 0, 0, 0, 0, 0]  # people agree, models fooled
    y[1] = [1, 0, 1, 0, 0, 0, 0, 0, 0]  # people split: ambiguous
    y[2] = [1, 1, 1, 1, 1, 1, 1, 1, 1]  # models get it right
    y[3] = [0, 0, 0, 0, 0, 0, 0, 0, 0]  # nobody: the key is probably wrong
    q = adversarial_quality(fit_2pl(y), y, human_columns=[0, 1, 2, 3], model_columns=[4, 5, 6, 7, 8])
    assert q.score[0] > 0.6 > q.score[1] > q.score[2]
    assert q.score[1] > q.score[3]
    assert q.score[2] < 0.2 and q.score[3] < 0.2
    assert q.margin[0] == pytest.approx(q.human_accuracy[0] - q.model_accuracy[0])
    assert q.ranking()[0] == 0
    assert q.n_human[0] == 4 and q.n_model[0] == 5


def test_ability_adjustment_beats_the_raw_share_when_validators_answer_different_questions() -> None:
    # Validators of very different skill, three per question: the share correct depends on who
    # happened to answer; the IRT adjustment estimates the whole panel's accuracy better.
    wins = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        theta = np.concatenate([np.linspace(-2.0, 2.0, 10), rng.normal(0.0, 1.0, 10)])
        a, b = typical_items(rng, 200)
        y, p = simulate(rng, a, b, theta)
        keep = np.argsort(rng.random((200, 10)), axis=1)[:, :3]
        people = np.full((200, 10), np.nan)
        np.put_along_axis(people, keep, np.take_along_axis(y[:, :10], keep, axis=1), axis=1)
        y[:, :10] = people
        q = adversarial_quality(fit_2pl(y), y, human_columns=range(10), model_columns=range(10, 20))
        truth = p[:, :10].mean(axis=1)
        raw = (np.nansum(people, axis=1) + 1.0) / 5.0  # Laplace-smoothed share of the 3 answers
        wins += np.abs(q.human_accuracy - truth).mean() < np.abs(raw - truth).mean()
    assert wins >= 9


# --- degenerate input and arguments ----------------------------------------------------------

nan = np.nan
DEGENERATE = {
    "3x2": [[1, 0], [1, 1], [0, 0]],
    "all correct": [[1, 1, 1], [1, 1, 1]],
    "all wrong": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    "1x1": [[1]],
    "column with one answer": [[1, 0, nan], [1, 1, nan], [0, 1, 1], [1, 0, nan]],
    "column and row with none": [[1, 0, nan], [nan, nan, nan], [0, 1, nan]],
}


@pytest.mark.parametrize("name", sorted(DEGENERATE))
def test_degenerate_matrices_converge_quietly(name: str) -> None:
    y = np.array(DEGENERATE[name], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_2pl(y)
        q = adversarial_quality(fit, y, human_columns=[0], model_columns=list(range(1, y.shape[1]))) if y.shape[1] > 1 else None
    assert fit.converged, fit.message
    for values in (fit.difficulty, fit.discrimination, fit.ability, fit.probabilities()):
        assert np.all(np.isfinite(values))
    assert np.all(fit.discrimination > 0) and np.isfinite(fit.log_likelihood)
    if q is not None:
        assert np.all((q.score >= 0) & (q.score <= 1))


def test_perfect_rows_in_a_larger_round_stay_finite_and_ordered() -> None:
    rng = np.random.default_rng(0)
    y, _ = simulate(rng, *typical_items(rng, 200), rng.normal(0.0, 1.0, 30))
    y[0], y[1] = 1.0, 0.0
    y[:, 0] = nan
    y[5, 0] = 1.0  # a respondent with a single answer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = fit_2pl(y)
    assert fit.converged and np.all(np.isfinite(fit.difficulty))
    assert fit.difficulty[0] < np.min(fit.difficulty[2:]) and fit.difficulty[1] > np.max(fit.difficulty[2:])


def test_results_are_frozen_and_read_only() -> None:
    fit = fit_2pl(np.array(DEGENERATE["3x2"], dtype=float))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.converged = False  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        fit.difficulty[0] = 0.0


@pytest.mark.parametrize(
    ("responses", "kwargs", "message"),
    [
        ([1, 0, 1], {}, "2-D"),
        (np.zeros((0, 3)), {}, "at least one"),
        ([[1, 2], [0, 1]], {}, r"0, 1 or nan; found 2\.0 at item 0, respondent 1"),
        ([[1, np.inf]], {}, "0, 1 or nan"),
        ([["a", "b"]], {}, "numeric"),
        ([[nan, nan]], {}, "no observed answer"),
        ([[1, 0]], {"prior_sd_ability": 0.0}, "prior_sd_ability must be a positive"),
        ([[1, 0]], {"prior_sd_difficulty": -1.0}, "prior_sd_difficulty"),
        ([[1, 0]], {"prior_sd_log_discrimination": nan}, "prior_sd_log_discrimination"),
        ([[1, 0]], {"max_iter": 0}, "max_iter must be a positive integer"),
        ([[1, 0]], {"tol": True}, "tol must be a positive number"),
    ],
)
def test_fit_rejects_bad_arguments(responses: object, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_2pl(responses, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"human_columns": [], "model_columns": [2]}, "human_columns must be a non-empty"),
        ({"human_columns": [0], "model_columns": [3]}, r"model_columns must index columns 0\.\.2"),
        ({"human_columns": [0, 0], "model_columns": [2]}, "lists a column twice"),
        ({"human_columns": [0, 1], "model_columns": [1, 2]}, r"both human and model: \[1\]"),
        ({"human_columns": [0.5], "model_columns": [2]}, "integer column indices"),
        ({"human_columns": [0], "model_columns": [2], "prior_sd_logit": 0}, "prior_sd_logit"),
    ],
)
def test_quality_rejects_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    y = np.array([[1, 0, 1], [0, 0, 1]], dtype=float)
    with pytest.raises(ValueError, match=message):
        adversarial_quality(fit_2pl(y), y, **kwargs)  # type: ignore[arg-type]


def test_quality_rejects_a_fit_of_another_matrix() -> None:
    y = np.array([[1, 0, 1], [0, 0, 1]], dtype=float)
    with pytest.raises(ValueError, match=r"shape \(3, 3\) but fit has 2 items and 3 respondents"):
        adversarial_quality(fit_2pl(y), np.vstack([y, y[:1]]), human_columns=[0], model_columns=[1, 2])


def test_worked_example_of_the_docs() -> None:
    # docs/item-quality.md, R1: people are columns 0-2, models 3-4.
    y = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 0, 0], [1, 1, 1, 1, 0]], dtype=float)
    q = adversarial_quality(fit_2pl(y), y, human_columns=[0, 1, 2], model_columns=[3, 4])
    np.testing.assert_allclose(q.human_accuracy, [0.884, 0.882, 0.665, 0.882], atol=5e-4)
    np.testing.assert_allclose(q.model_accuracy, [0.122, 0.742, 0.123, 0.418], atol=5e-4)
    np.testing.assert_allclose(q.score, [0.776, 0.227, 0.583, 0.513], atol=5e-4)
    assert q.ranking().tolist() == [0, 2, 3, 1]
