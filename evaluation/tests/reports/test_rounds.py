"""A round report's sections: CODAH-style tables and the lexical artifacts of the completions, with the
numbers computed here; humans from the validation hook; an empty round."""
import math

import numpy as np
import pytest
from scipy import stats

from evaluation.models import EvaluationRun
from evaluation.selectors import reports as report_selectors
from evaluation.tests.factories import finished_report, section_rows
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_analysis import crossfit_membership
from mlcore.bias.permutation import permutation_test_from_membership
from mlcore.bias.stratified import stratified_test_from_membership

pytestmark = pytest.mark.django_db


class RoundReportTests:
    def test_codah_tables(self, artifact_round, instructor, small_config):
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        assert run.status == EvaluationRun.Status.DONE, run.error
        codah = run.result["codah"]
        assert section_rows(codah, "categories") == [
            {"category": "idioms", "questions": 6, "share": 0.5},
            {"category": "negation", "questions": 4, "share": 0.3333},
            {"category": "other", "questions": 2, "share": 0.1667},
        ]
        accuracy = {row["category"]: row for row in section_rows(codah, "accuracy_by_category")}
        assert [accuracy[c]["cv_accuracy"] for c in ("idioms", "negation", "other", "all questions")] == [
            pytest.approx(4 / 6), 0.5, 0.0, 0.5]
        assert {row["live_model_accuracy"] for row in accuracy.values()} == {0.0}  # the fake model picks D
        assert {row["answer_only_accuracy"] for row in accuracy.values()} == {1.0}
        assert {row["human_accuracy"] for row in accuracy.values()} == {None}
        assert "not yet measured" in codah["note"]
        folds = section_rows(codah, "cv_folds")
        assert [(r["trial"], r["fold"], r["questions"]) for r in folds] == [(1, 1, 6), (1, 2, 6), (2, 1, 6), (2, 2, 6)]
        assert codah["summary"]["cv_accuracy_pooled"] == 0.5 and codah["summary"]["cv_accuracy_std"] == 0.0
        baseline = {r["measure"]: r["value"] for r in section_rows(codah, "answer_only")}
        assert baseline["accuracy"] == 1.0 and baseline["chance (1/4)"] == 0.25
        assert baseline["one-sided binomial test p-value"] == pytest.approx(
            stats.binomtest(12, 12, 0.25, alternative="greater").pvalue)
        assert baseline["log10 of the p-value"] == pytest.approx(12 * math.log10(0.25))
        assert codah["summary"]["answer_only_log10_pvalue"] == pytest.approx(12 * math.log10(0.25))
        assert baseline["gap: CV accuracy - answer-only"] == -0.5
        assert codah["charts"]["accuracy"]["groups"][-1] == "all questions"

    def test_lexical_section(self, artifact_round, instructor, small_config):
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        lexical = run.result["lexical"]
        top = section_rows(lexical, "top_features")
        correct = [r["feature"] for r in top if r["label"] == "correct"]
        incorrect = [r["feature"] for r in top if r["label"] == "incorrect"]
        # z = sqrt(n) for features seen with one label only (uniform null, two labels)
        assert correct[:3] == ["friend", "helps", "gladly"] and incorrect[0] == "never"
        assert next(r["z"] for r in top if r["feature"] == "never") == pytest.approx(math.sqrt(30), abs=1e-4)
        # The permutation test equals mlcore's on the same instances, per trial.
        questions = report_selectors.report_questions(question_ids=run.snapshot["question_ids"])
        texts = [c for q in questions for c in q.choices]
        gold = ["correct" if i == 0 else "incorrect" for _ in questions for i in range(4)]
        picks = {p.question_id: p for p in report_selectors.scoring_run_predictions(run_id=run.snapshot["cv_run_id"]) if p.trial == 0}
        pred = ["correct" if i == picks[q.id].predicted_index else "incorrect" for q in questions for i in range(4)]
        folds = [picks[q.id].fold for q in questions for _ in range(4)]
        membership = crossfit_membership(lexical_features(texts), gold, pred, folds,
                                         label_set=("correct", "incorrect"), k=5)
        expected = permutation_test_from_membership(membership)
        tests = section_rows(lexical, "permutation_tests")
        assert len(tests) == 2 and tests[0] == {**tests[0], "n_U": expected.n_U, "n_N": expected.n_N,
                                                  "a": expected.a, "b": expected.b,
                                                  "unstratified_pvalue": expected.pvalue}
        # The headline is the test stratified by gold label, on the same membership, one row per label.
        stratified = stratified_test_from_membership(membership)
        assert tests[0]["pvalue"] == stratified.pvalue and tests[0]["expected_a"] == pytest.approx(stratified.expected_a)
        strata = [r for r in section_rows(lexical, "strata") if r["predictions"] == tests[0]["predictions"]]
        assert [(r["gold_label"], r["n_U"], r["n_N"], r["a"], r["b"]) for r in strata] == [
            (s.label, s.n_U, s.n_N, s.a, s.b) for s in stratified.strata]
        assert lexical["summary"]["pvalue_stratified"] == tests[0]["p_display"]
        assert "Stratified by gold label" in lexical["summary"]["lexical_test"]
        assert "unstratified (Serrano et al. §3" in lexical["summary"]["pvalue_unstratified"]
        weights = section_rows(lexical, "weights")
        assert len(weights) == 48 and np.mean([w["weight"] for w in weights]) == pytest.approx(1.0, abs=1e-5)
        assert all(w["weight"] > 0 for w in weights)
        assert {(w["question_id"], w["choice_index"]) for w in weights} == {(q.id, i) for q in questions for i in range(4)}
        measures = {r["measure"]: r for r in section_rows(lexical, "reweighting")}
        assert measures["Err (target 1/|Y|)"]["reweighted"] < measures["Err (target 1/|Y|)"]["uniform"]
        assert lexical["charts"]["label_balance"]["kind"] == "scatter"
        assert {p["label"] for p in lexical["charts"]["label_balance"]["points"]} == {
            r["feature"] for r in section_rows(lexical, "label_balance")}

    def test_human_accuracy_comes_from_the_validation_hook(self, artifact_round, instructor, small_config, monkeypatch):
        ids = list(artifact_round.questions.order_by("pk").values_list("pk", flat=True))
        answers = [(ids[0], True), (ids[0], False), (ids[1], True)]  # both idioms questions
        monkeypatch.setattr(report_selectors, "round_human_answers", lambda *, question_ids: answers)
        codah = finished_report(instructor, round_=artifact_round, config=small_config).result["codah"]
        accuracy = {row["category"]: row for row in section_rows(codah, "accuracy_by_category")}
        assert (accuracy["idioms"]["human_accuracy"], accuracy["idioms"]["human_answers"]) == (pytest.approx(2 / 3), 3)
        assert accuracy["negation"]["human_accuracy"] is None and codah["note"] == ""

    def test_without_scoring_runs_the_test_waits_for_cross_validation(self, artifact_round, instructor, small_config):
        artifact_round.scoring_runs.all().delete()
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        lexical, codah = run.result["lexical"], run.result["codah"]
        assert "permutation_tests" not in lexical["tables"] and "cross-validation" in lexical["note"]
        assert "top_features" in lexical["tables"] and "cv_folds" not in codah["tables"]

    def test_empty_round(self, round_, instructor, small_config):
        run = finished_report(instructor, round_=round_, config=small_config)
        assert run.status == EvaluationRun.Status.DONE
        assert run.result["codah"]["available"] is False and run.result["lexical"]["available"] is False
        assert "no questions" in run.result["overview"]["note"]
