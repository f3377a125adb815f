"""End-to-end lexical analyses: SPEC §1.6/§2.4 reference values through the pipelines,
the cross-fitted test and the reweighting report (R13-R15 via reweight_analysis)."""
import math

import numpy as np
import pytest

from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_analysis import crossfit_membership, json_float, lexical_bias_analysis, reweight_analysis
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_bias_test, permutation_test_from_counts, permutation_test_from_membership
from mlcore.tests.bias.test_lexical import LABELS, TOY_HYPOTHESES, TOY_LABELS, TOY_PREMISES

# SPEC §2.4 evaluation set (segment 2 empty).
EVAL_TEXTS = ["Nobody is outside.", "A man is outdoors.", "Nobody sings.", "Two dogs sleep outside.",
              "The friends are outdoors.", "Nobody is home.", "A woman reads.", "Nobody is outdoors."]
EVAL_GOLD = ["C", "E", "N", "E", "N", "C", "E", "E"]
EVAL_PRED = ["C", "E", "C", "E", "E", "C", "E", "C"]


class LexicalBiasAnalysisTests:
    def test_r6_and_r8_through_the_pipeline(self):
        result = lexical_bias_analysis(TOY_PREMISES, TOY_LABELS, EVAL_TEXTS, EVAL_GOLD, EVAL_PRED, label_set=LABELS,
                                       train_second=TOY_HYPOTHESES, k=2).to_dict()
        assert {label: [f["feature"] for f in fs] for label, fs in result["top_features"].items()} == {
            "E": ["outdoors", "outside"], "N": ["friends", "sings"], "C": ["nobody", "dogs"]}
        assert result["top_features"]["C"][0] == {"feature": "nobody", "z": 2.0, "count": 2, "n": 2}
        assert {key: result[key] for key in ("n_U", "n_N", "n_overlap", "a", "b", "M", "K", "pvalue")} == {
            "n_U": 7, "n_N": 5, "n_overlap": 5, "a": 4, "b": 2, "M": 12, "K": 6, "pvalue": 0.5}
        assert result["log10_pvalue"] == pytest.approx(math.log10(0.5)) and result["pvalue_display"] == "5.0e-1"

    def test_prediction_count_must_match(self):
        with pytest.raises(ValueError, match="7 predictions for 8"):
            lexical_bias_analysis(TOY_PREMISES, TOY_LABELS, EVAL_TEXTS, EVAL_GOLD, EVAL_PRED[:7], label_set=LABELS)

    def test_json_has_no_nan(self):
        # Every evaluation prediction right: K = M, degenerate, acc defined; an empty N gives acc_N None.
        result = lexical_bias_analysis(TOY_PREMISES, TOY_LABELS, ["Nobody here."], ["C"], ["C"], label_set=LABELS,
                                       train_second=TOY_HYPOTHESES, k=2).to_dict()
        assert result["degenerate"] is True and result["acc_N"] is None and result["pvalue"] == 1.0


class CrossfitTests:
    def test_pooled_counts_are_the_sum_of_the_per_fold_plain_tests(self):
        # Fold 0 = the §1.6 training set (hypotheses joined), fold 1 = the §2.4 set: fold 1 is judged
        # with fold 0's statistics (R8 exactly) and fold 0 with fold 1's; the counts add up.
        train = [f"{p} {h}" for p, h in zip(TOY_PREMISES, TOY_HYPOTHESES)]
        train_pred = ["C", "N", "C", "E", "E", "N"]  # two of six wrong

        def plain(fit_texts, fit_labels, texts, gold, pred):
            z = lexical_zscores(lexical_features(fit_texts), fit_labels, label_set=LABELS)
            return lexical_bias_test(lexical_features(texts), gold, pred, zscores=z, selection=select_top_features(z, k=2))

        fold1 = plain(train, TOY_LABELS, EVAL_TEXTS, EVAL_GOLD, EVAL_PRED)
        fold0 = plain(EVAL_TEXTS, EVAL_GOLD, train, TOY_LABELS, train_pred)
        assert (fold1.n_U, fold1.n_N, fold1.a, fold1.b, fold1.pvalue) == (7, 5, 4, 2, 0.5)  # R8
        crossfit = permutation_test_from_membership(crossfit_membership(
            lexical_features(train + EVAL_TEXTS), TOY_LABELS + EVAL_GOLD, train_pred + EVAL_PRED,
            [0] * len(train) + [1] * len(EVAL_TEXTS), label_set=LABELS, k=2))
        for field in ("n_U", "n_N", "n_overlap", "a", "b"):
            assert getattr(crossfit, field) == getattr(fold0, field) + getattr(fold1, field), field
        pooled = permutation_test_from_counts(n_usual=crossfit.n_U, correct_usual=crossfit.a,
                                              n_unusual=crossfit.n_N, correct_unusual=crossfit.b)
        assert crossfit.pvalue == pooled.pvalue

    def test_a_feature_never_judges_an_instance_with_its_own_counts(self):
        # "zebra" occurs only in fold 1: fold 1's statistics come from fold 0, where it is unseen.
        features = lexical_features(["zebra", "zebra", "cat", "dog"])
        result = permutation_test_from_membership(crossfit_membership(
            features, ["A", "A", "B", "A"], ["A", "B", "B", "A"], [1, 1, 0, 0], label_set=("A", "B"), k=3))
        assert result.n_U + result.n_N == 0 and result.degenerate

    def test_validation(self):
        features = lexical_features(["a", "b"])
        with pytest.raises(ValueError, match="2 instances, 2 gold labels, 2 predictions, 1 folds"):
            crossfit_membership(features, ["A", "B"], ["A", "B"], [0], label_set=("A", "B"))
        with pytest.raises(ValueError, match="outside the label set"):
            crossfit_membership(features, ["A", "Z"], ["A", "B"], [0, 1], label_set=("A", "B"))


class ReweightAnalysisTests:
    TEXTS, LABELS = ["a b", "a", "a c", "b c", "c", "b"], list("AABBAB")

    def test_r13_r15_and_the_json(self):
        result = reweight_analysis(self.TEXTS, self.LABELS, label_set="AB", min_count=1, balance_features=["a", "zz"])
        d = result.to_dict(include_weights=True)
        assert d["err_initial"] == pytest.approx(1 / 6) and d["err_final"] < 1e-6  # R13, R15
        assert d["features_used"] == 3 and d["features_dropped"] == []
        assert math.isclose(sum(d["weights"]), 6) and min(d["weights"]) > 0
        assert d["label_balance"] == [{"feature": "a", "lb_uniform": pytest.approx(1 / 6, abs=1e-6),
                                       "lb_q": d["label_balance"][0]["lb_q"]}]
        assert d["ess"] <= 6 and d["bigram_eligible"] >= 0

    def test_progress_is_reported(self):
        calls = []
        reweight_analysis(self.TEXTS, self.LABELS, label_set="AB", min_count=1, max_steps=25,
                          progress=lambda step, total: calls.append((step, total)))
        assert calls[:3] == [(0, 25), (10, 25), (20, 25)]

    def test_empty_feature_set(self):
        d = reweight_analysis(self.TEXTS, self.LABELS, label_set="AB", min_count=99).to_dict()
        assert d["features_used"] == 0 and d["err_initial"] is None and d["n_steps"] == 0


def test_json_float():
    assert json_float(float("nan")) is None and json_float(np.float32(0.5)) == 0.5 and json_float(1 / 3, 3) == 0.333
