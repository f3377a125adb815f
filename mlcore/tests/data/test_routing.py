"""mlcore.data.routing: the three strategies, and a simulation of uncertainty routing against PageRank order.

The entropy is checked against scipy's ``entropy``; the simulation draws a QA model whose start/end
logits are sharper on easy paragraphs, so its uncertainty (:func:`span_entropy`) is a noisy signal of
where its F1 is lowest, and counts the assignments each strategy needs to collect a target number of
questions on the hardest quarter of the paragraphs.
"""
import math

import numpy as np
import pytest
from scipy import stats

from mlcore.data.routing import (
    ParagraphCandidate,
    agreeing_answers,
    needs_more_answers,
    next_paragraph,
    no_answer_uncertainty,
    route,
    span_entropy,
)


class UncertaintyScoreTests:
    def test_span_entropy_is_the_normalised_shannon_entropy(self):
        rng = np.random.default_rng(0)
        start, end = rng.dirichlet(np.ones(30)), rng.dirichlet(np.ones(30) * 0.3)
        expected = (stats.entropy(start) + stats.entropy(end)) / (2 * math.log(30))
        assert span_entropy(start, end) == pytest.approx(expected)
        assert span_entropy(np.ones(7) / 7, np.ones(7) / 7) == pytest.approx(1.0)
        assert span_entropy([0, 1, 0], [1, 0, 0]) == 0.0

    def test_span_entropy_rejects_what_is_not_a_distribution(self):
        for bad in ([0.5, 0.6], [1.0], [[0.5, 0.5]], [-0.5, 1.5]):
            with pytest.raises(ValueError):
                span_entropy(bad, [0.5, 0.5])

    def test_no_answer_uncertainty_peaks_at_one_half(self):
        assert [no_answer_uncertainty(p) for p in (0.0, 0.25, 0.5, 0.75, 1.0)] == [0.0, 0.5, 1.0, 0.5, 0.0]
        with pytest.raises(ValueError):
            no_answer_uncertainty(1.2)


class DisagreementTests:
    def test_agreement_counts_normalised_answers_and_unanswerable(self):
        assert agreeing_answers(["Denver", "denver!", "", ""]) == 2
        assert agreeing_answers(["", "", "", "x"]) == 3
        assert agreeing_answers([]) == 0
        arabic, persian = "\u0643\u062a\u0627\u0628\u064a", "\u06a9\u062a\u0627\u0628\u06cc"
        assert agreeing_answers([arabic, persian], normalizer="fa") == 2
        assert agreeing_answers([arabic, persian], normalizer="en") == 1
        with pytest.raises(ValueError):
            agreeing_answers("Denver")

    def test_a_question_is_settled_by_k_agreeing_answers_or_by_the_cap(self):
        assert needs_more_answers([], k=2, max_answers=4)
        assert needs_more_answers(["a", "b", "c"], k=2, max_answers=4)
        assert not needs_more_answers(["a", "b", "c", "d"], k=2, max_answers=4)  # the cap
        assert not needs_more_answers(["a", "b", "A"], k=2, max_answers=4)
        assert needs_more_answers(["a", "b", "A"], k=3, max_answers=4)
        with pytest.raises(ValueError):
            needs_more_answers(["a"], k=3, max_answers=2)


class RouteTests:
    CANDIDATES = (
        ParagraphCandidate("p3", 3, 0.9, (("x", "x"),)),
        ParagraphCandidate("p1", 1, 0.2, (("x", "y"), ("", "z"))),
        ParagraphCandidate("p2", 2, None, (("x", "y"), ("a", "a"))),
        ParagraphCandidate("p0", 0, 0.2, ()),
    )

    def test_pagerank_follows_the_rank_whatever_the_input_order(self):
        r = route(self.CANDIDATES, "pagerank")
        assert r.paragraphs == ("p0", "p1", "p2", "p3") and r.scores == (0.0, -1.0, -2.0, -3.0)
        assert route(self.CANDIDATES[::-1], "pagerank") == r

    def test_uncertainty_highest_first_ties_by_rank_unscored_last(self):
        r = route(self.CANDIDATES, "uncertainty")
        assert r.paragraphs == ("p3", "p0", "p1", "p2")
        assert next_paragraph(self.CANDIDATES, "uncertainty") == "p3"

    def test_disagreement_offers_paragraphs_with_unsettled_questions_only(self):
        r = route(self.CANDIDATES, "disagreement", k=2)
        assert r.paragraphs == ("p1", "p2") and r.scores == (2.0, 1.0)
        # With k=3 every question is open (none has three agreeing answers yet).
        assert route(self.CANDIDATES, "disagreement", k=3).paragraphs == ("p1", "p2", "p3")
        # A cap of two answers settles every question here.
        assert next_paragraph(self.CANDIDATES, "disagreement", k=2, max_answers=2) is None

    def test_bad_input(self):
        with pytest.raises(ValueError):
            route(self.CANDIDATES, "random")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            route([ParagraphCandidate("a", 0), ParagraphCandidate("a", 1)], "pagerank")
        with pytest.raises(ValueError):
            route([ParagraphCandidate("a", 0, -1.0)], "uncertainty")
        with pytest.raises(ValueError):
            route([ParagraphCandidate("a", 0, math.nan)], "uncertainty")
        assert next_paragraph([], "pagerank") is None


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max())
    return e / e.sum()


def _simulated_project(seed: int, n: int = 240, positions: int = 60):
    """Paragraphs with a hidden difficulty; the model's F1 falls and its logits flatten with it."""
    rng = np.random.default_rng(seed)
    difficulty = rng.random(n)
    model_f1 = np.clip(1 - difficulty + rng.normal(0, 0.1, n), 0, 1)
    hard = model_f1 <= np.quantile(model_f1, 0.25)
    uncertainty = []
    for d in difficulty:
        # The gold start/end stand out less on hard paragraphs, and not exactly in step with F1.
        sharpness = max(0.0, 7 * (1 - d) + rng.normal(0, 1.5))
        start, end = rng.normal(0, 1, positions), rng.normal(0, 1, positions)
        start[0] += sharpness
        end[3] += sharpness
        uncertainty.append(span_entropy(_softmax(start), _softmax(end)))
    questions = rng.integers(3, 8, n)  # what one worker writes on the paragraph
    ranks = rng.permutation(n)  # PageRank knows nothing of the model's difficulty
    return hard, np.array(uncertainty), questions, ranks


def _assignments_to_target(strategy: str, hard, uncertainty, questions, ranks, target: int) -> int:
    remaining = {i: ParagraphCandidate(i, int(ranks[i]), float(uncertainty[i])) for i in range(len(hard))}
    collected = assignments = 0
    while collected < target:
        chosen = next_paragraph(list(remaining.values()), strategy)  # type: ignore[arg-type]
        assert chosen is not None, "ran out of paragraphs before the target"
        del remaining[chosen]  # one author per paragraph in this simulation
        assignments += 1
        collected += int(questions[chosen]) if hard[chosen] else 0
    return assignments


class RoutingSimulationTests:
    TARGET = 100  # questions on hard paragraphs (about a third of what they can hold)

    @pytest.mark.parametrize("seed", range(5))
    def test_uncertainty_reaches_the_target_on_hard_paragraphs_with_fewer_assignments(self, seed):
        hard, uncertainty, questions, ranks = _simulated_project(seed)
        assert stats.spearmanr(uncertainty, hard).statistic > 0.3  # a real but noisy signal
        by_pagerank = _assignments_to_target("pagerank", hard, uncertainty, questions, ranks, self.TARGET)
        by_uncertainty = _assignments_to_target("uncertainty", hard, uncertainty, questions, ranks, self.TARGET)
        # PageRank order meets hard paragraphs at their base rate (a quarter): about 80 assignments.
        assert by_uncertainty < 0.6 * by_pagerank

    def test_without_the_signal_uncertainty_routing_gains_nothing(self):
        # Shuffled scores keep their distribution but lose their link to difficulty.
        ratios = []
        for seed in range(5):
            hard, uncertainty, questions, ranks = _simulated_project(seed)
            shuffled = np.random.default_rng(seed + 100).permutation(uncertainty)
            by_pagerank = _assignments_to_target("pagerank", hard, shuffled, questions, ranks, self.TARGET)
            ratios.append(_assignments_to_target("uncertainty", hard, shuffled, questions, ranks, self.TARGET)
                          / by_pagerank)
        assert 0.7 < float(np.mean(ratios)) < 1.4
