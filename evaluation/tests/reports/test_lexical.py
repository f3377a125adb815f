"""The lexical section's instances: the forced-choice builder shared by the round report and
``manage.py lexical_bias_mc``, and the calibration of its tests on real CODAH."""
from dataclasses import replace

import numpy as np
import pytest

from evaluation.reports import lexical
from evaluation.reports.lexical import CHOICE_LABELS, choice_instances, choice_predictions
from evaluation.services.lexical import read_codah_questions
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_analysis import crossfit_membership
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_membership, permutation_test_from_membership, usual_labels
from mlcore.bias.stratified import accuracy_by_gold, stratified_test_from_membership
from mlcore.tests.shared_data import shared_data


def test_each_completion_is_an_instance_labelled_by_the_gold_index():
    data = choice_instances([10, 11], [("a.", "b.", "c.", "d."), ("e.", "f.", "g.", "h.")], [2, 0])
    assert data.keys[:2] == ((10, 0), (10, 1)) and data.texts[4] == "e."
    assert data.labels == ("incorrect", "incorrect", "correct", "incorrect", "correct", "incorrect", "incorrect",
                           "incorrect")
    assert choice_predictions([2, 3], [("a.", "b.", "c.", "d."), ("e.", "f.", "g.", "h.")]) == (
        "incorrect", "incorrect", "correct", "incorrect", "incorrect", "incorrect", "incorrect", "correct")


def test_docstring_examples():
    import doctest

    assert doctest.testmod(lexical).failed == 0


N_PICKERS = 48


@pytest.fixture(scope="module")
def codah():
    fold = shared_data("codah", "cv_split", "fold_0")
    train_q, test_q = read_codah_questions(fold / "train.tsv"), read_codah_questions(fold / "test.tsv")
    train = choice_instances(range(len(train_q)), [q.choices for q in train_q], [q.label for q in train_q])
    test = choice_instances(range(len(test_q)), [q.choices for q in test_q], [q.label for q in test_q])
    zscores = lexical_zscores(lexical_features(train.texts), train.labels, label_set=CHOICE_LABELS)
    selection = select_top_features(zscores, k=50)
    features = lexical_features(test.texts, vocabulary=selection.features)
    return test_q, test, zscores, selection, features


def both_tests(codah, picks):
    test_q, test, zscores, selection, features = codah
    predictions = choice_predictions(picks, [q.choices for q in test_q])
    membership = lexical_membership(features, test.labels, predictions, zscores=zscores, selection=selection)
    return (stratified_test_from_membership(membership), permutation_test_from_membership(membership),
            accuracy_by_gold(membership))


def test_random_pickers_are_not_flagged_by_the_stratified_test(codah):
    test_q = codah[0]
    stratified_p, plain_p = [], []
    for seed in range(N_PICKERS):
        picks = np.random.default_rng(seed).integers(0, 4, size=len(test_q))
        stratified, plain, gold = both_tests(codah, picks)
        assert gold.differs  # forced choice: ~25% right on correct completions, ~75% on incorrect ones
        stratified_p.append(stratified.pvalue)
        plain_p.append(plain.pvalue)
    stratified_p, plain_p = np.array(stratified_p), np.array(plain_p)
    assert np.mean(stratified_p < 0.05) <= 0.10 and stratified_p.min() >= 1e-3
    assert np.mean(plain_p < 0.05) >= 0.90  # the unstratified test cries wolf


def test_a_picker_following_words_usual_for_correct_is_found(codah):
    test_q, _, zscores, selection, _ = codah
    usual = usual_labels(zscores.counts[[zscores.row[w] for w in selection.features]])
    cue = {w for w, is_usual in zip(selection.features, usual[:, CHOICE_LABELS.index("correct")]) if is_usual}
    rng = np.random.default_rng(0)
    picks = []
    for q in test_q:
        cued = [c for c, text in enumerate(q.choices) if cue & set(lexical_features([text]).vocabulary)]
        picks.append(int(rng.choice(cued)) if cued else int(rng.integers(0, 4)))
    stratified, _, _ = both_tests(codah, picks)
    assert stratified.pvalue < 1e-5 and stratified.a > stratified.expected_a


def test_the_round_reports_cross_fitted_test_on_all_of_codah_is_calibrated():
    """The issue's case: all 2,776 questions, 5 folds, out-of-fold statistics, as the round report runs it.

    U/N membership depends on the gold labels and folds only, so it is built once and the random
    picks only change which instances are correct.
    """
    questions = read_codah_questions(shared_data("codah", "full_data.tsv"))
    data = choice_instances(range(len(questions)), [q.choices for q in questions], [q.label for q in questions])
    folds = [fold for fold in np.random.default_rng(0).integers(0, 5, size=len(questions)) for _ in range(4)]
    base = crossfit_membership(lexical_features(data.texts), data.labels, data.labels, folds,
                               label_set=CHOICE_LABELS, k=50)
    stratified_p, plain_p = [], []
    for seed in range(40):
        picks = np.random.default_rng(seed).integers(0, 4, size=len(questions))
        predictions = choice_predictions(picks, [q.choices for q in questions])
        membership = replace(base, correct=np.array([p == g for p, g in zip(predictions, data.labels)]))
        stratified_p.append(stratified_test_from_membership(membership).pvalue)
        plain_p.append(permutation_test_from_membership(membership).log10_pvalue)
    assert np.mean(np.array(stratified_p) < 0.05) <= 0.10 and min(stratified_p) >= 1e-3
    assert max(plain_p) < -10  # the unstratified test calls every random picker lexically biased (~1e-78)
