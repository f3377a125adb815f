"""A span-annotation project's report: EM/F1 per split, lexical artifacts of the questions, human
performance from the blind second-pass answers only, empty states."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation.models import SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.second_pass import second_pass_answer_save, second_pass_flag_save
from annotation.tests.factories import EN_CONTEXT, answer
from evaluation.models import EvaluationRun
from evaluation.tests.factories import finished_report, section_rows, span_project
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_bias_test, lexical_membership
from mlcore.bias.stratified import stratified_test_from_membership

pytestmark = pytest.mark.django_db


class ProjectReportTests:
    def test_squad_metrics_per_split(self, qa_project, instructor, no_probes):
        run = finished_report(instructor, project=qa_project)
        assert run.status == EvaluationRun.Status.DONE, run.error
        assert run.model_version.name == "qa-in-the-loop" and run.model_revision == "r7"
        assert len(run.snapshot["question_ids"]) == 12  # the draft is not data
        metrics = {row["split"]: row for row in section_rows(run.result["squad"], "metrics")}
        validation = metrics["validation"]
        assert (validation["exact"], validation["f1"], validation["HasAns_exact"], validation["NoAns_exact"]) == (
            50.0, 50.0, 50.0, 50.0)
        assert (validation["AvNA"], validation["missing"], validation["total"]) == (50.0, 0, 4)
        train = metrics["train"]  # never answered: scored as "no answer", so only NoAns questions score
        assert (train["exact"], train["HasAns_exact"], train["NoAns_exact"], train["missing"]) == (50.0, 0.0, 100.0, 8)
        assert metrics["all"]["total"] == 12 and "test" not in metrics
        assert "8 question(s) have no model answer" in run.result["squad"]["note"]

    def test_lexical_artifacts_of_the_questions(self, qa_project, instructor, no_probes):
        lexical = finished_report(instructor, project=qa_project).result["lexical"]
        top = section_rows(lexical, "top_features")
        assert [r["feature"] for r in top if r["label"] == "unanswerable"][0] == "first"
        [test] = section_rows(lexical, "permutation_tests")
        # The same test computed directly: train statistics, validation predictions.
        train_q = ["Which sea does the Nile empty into?", "Where do the two branches meet?", "Which continent has the Nile?",
                   "Which branch is white?", "Who built the first dam?", "Who first sailed the Nile?",
                   "When did the first flood happen?", "What was the first bridge called?"]
        labels = ["answerable"] * 4 + ["unanswerable"] * 4
        z = lexical_zscores(lexical_features(train_q), labels, label_set=("answerable", "unanswerable"))
        selection = select_top_features(z, k=5)
        held = ["Which sea is at the end?", "Where do the branches first meet?", "Who first mapped the Nile?",
                "Who named the Blue Nile?"]
        gold = ["answerable", "answerable", "unanswerable", "unanswerable"]
        pred = ["answerable", "unanswerable", "unanswerable", "answerable"]
        expected = lexical_bias_test(lexical_features(held), gold, pred, zscores=z, selection=selection)
        assert test["predictions"] == "validation + test splits"
        assert (test["n_U"], test["n_N"], test["a"], test["b"], test["unstratified_pvalue"]) == (
            expected.n_U, expected.n_N, expected.a, expected.b, expected.pvalue)
        # The headline p-value is stratified by gold label (answerable / unanswerable), with a row per label.
        membership = lexical_membership(lexical_features(held), gold, pred, zscores=z, selection=selection)
        stratified = stratified_test_from_membership(membership)
        assert test["pvalue"] == stratified.pvalue and lexical["summary"]["pvalue_stratified"] == stratified.pvalue_display()
        assert [(r["gold_label"], r["n_U"], r["n_N"], r["a"], r["b"]) for r in section_rows(lexical, "strata")] == [
            (s.label, s.n_U, s.n_N, s.a, s.b) for s in stratified.strata]
        assert "Stratified by gold label" in lexical["summary"]["lexical_test"]
        weights = section_rows(lexical, "weights")
        assert [w["qid"] for w in weights] == [f"q{i}" for i in range(8)]  # train questions, reweighted

    def test_missing_probes_are_empty_states(self, qa_project, instructor, no_probes):
        result = finished_report(instructor, project=qa_project).result
        for name in ("ambiguity_selectional", "ambiguity_retrieval"):
            assert result[name]["available"] is False and "No ambiguity data" in result[name]["note"]

    def test_empty_project(self, instructor, no_probes):
        from annotation.tests.factories import make_project

        run = finished_report(instructor, project=make_project(instructor, name="empty"))
        assert run.status == EvaluationRun.Status.DONE and run.model_version is None
        assert run.result["squad"]["available"] is False and run.result["lexical"]["available"] is False


def _report(project, user) -> EvaluationRun:
    run = finished_report(user, project=project)
    assert run.status == EvaluationRun.Status.DONE, run.error
    return run


def test_human_em_f1_from_blind_answers_only(instructor, crowdworker, client, no_probes):
    project = span_project(instructor)
    session = session_start_next(user=crowdworker, project=project, kind="second_pass")
    # The validation questions' first answers: "the Mediterranean Sea", "Khartoum", unanswerable, unanswerable.
    sea, khartoum, unmapped, unnamed = SpanQuestion.objects.filter(paragraph=session.paragraph).order_by("position")
    blind = [(sea, {"answer": answer(EN_CONTEXT, "Mediterranean Sea")}),   # EM 1, F1 1 ("the" is dropped)
             (khartoum, {"answer": answer(EN_CONTEXT, "at Khartoum")}),    # EM 0, F1 2/3
             (unmapped, {"is_impossible": True}),                          # EM 1, F1 1
             (unnamed, {"answer": answer(EN_CONTEXT, "Alexandria")})]      # EM 0, F1 0
    for question, fields in blind:
        second_pass_answer_save(session=session, user=crowdworker, question_id=question.pk, **fields)
    # After the reveal: copying the originals is refused, and a correction is only a flag.
    for question, fields in [(khartoum, {"answer": answer(EN_CONTEXT, "Khartoum")}), (unnamed, {"is_impossible": True})]:
        with pytest.raises(ValidationError, match="first answer is final"):
            second_pass_answer_save(session=session, user=crowdworker, question_id=question.pk,
                                    **fields)
    second_pass_flag_save(session=session, user=crowdworker, question_id=khartoum.pk,
                          proposal="fix_answer")

    squad = _report(project, instructor).result["squad"]
    (row,) = [dict(zip(squad["tables"]["human"]["columns"], r)) for r in squad["tables"]["human"]["rows"]]
    assert (row["normalizer"], row["blind_answers"], row["HasAns_answers"], row["NoAns_answers"]) == ("en", 4, 2, 2)
    assert row["exact"] == 50.0 and row["f1"] == pytest.approx(100 * (1 + 2 / 3 + 1 + 0) / 4)
    assert (row["HasAns_exact"], row["NoAns_exact"]) == (50.0, 50.0)
    assert squad["summary"]["human_blind_answers"] == 4 and squad["summary"]["human_exact"] == 50.0
    assert "Human EM/F1 from 4 blind second-pass answers" in squad["note"]

    client.force_login(instructor)
    page = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert "Human EM/F1 from 4 blind second-pass answers" in page


def test_a_report_without_second_pass_says_zero(instructor, no_probes):
    squad = _report(span_project(instructor), instructor).result["squad"]
    assert squad["tables"]["human"]["rows"] == [] and squad["summary"]["human_blind_answers"] == 0
    assert "Human EM/F1 from 0 blind second-pass answers" in squad["note"]
