"""Reports of a span-annotation project: EM/F1 per split, lexical artifacts of the questions,
the ambiguity probes' sections, access."""
import pytest

from evaluation.models import EvaluationRun
from evaluation.services import reports as services
from evaluation.tests.factories import span_project
from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_bias_test, lexical_membership
from mlcore.bias.stratified import stratified_test_from_membership

pytestmark = pytest.mark.django_db


def rows(section, name):
    item = section["tables"][name]
    return [dict(zip(item["columns"], row)) for row in item["rows"]]


@pytest.fixture
def project(instructor, tiny_model_version):
    from modelhub.models import ModelVersion

    qa = ModelVersion.objects.create(name="qa-in-the-loop", kind="question_answering", path="unused", revision="r7")
    project = span_project(instructor, qa_version=qa)
    project.qa_model = qa
    project.save()
    return project


def run_report(project, user, config=None):
    run = services.evaluation_start_project(project=project, user=user, config=config or {"k": 5, "max_steps": 30})
    return services.evaluation_run(run_id=run.pk)


class ProjectReportTests:
    def test_squad_metrics_per_split(self, project, instructor, no_probes):
        run = run_report(project, instructor)
        assert run.status == EvaluationRun.Status.DONE, run.error
        assert run.model_version.name == "qa-in-the-loop" and run.model_revision == "r7"
        assert len(run.snapshot["question_ids"]) == 12  # the draft is not data
        metrics = {row["split"]: row for row in rows(run.result["squad"], "metrics")}
        validation = metrics["validation"]
        assert (validation["exact"], validation["f1"], validation["HasAns_exact"], validation["NoAns_exact"]) == (
            50.0, 50.0, 50.0, 50.0)
        assert (validation["AvNA"], validation["missing"], validation["total"]) == (50.0, 0, 4)
        train = metrics["train"]  # never answered: scored as "no answer", so only NoAns questions score
        assert (train["exact"], train["HasAns_exact"], train["NoAns_exact"], train["missing"]) == (50.0, 0.0, 100.0, 8)
        assert metrics["all"]["total"] == 12 and "test" not in metrics
        assert "8 question(s) have no model answer" in run.result["squad"]["note"]

    def test_lexical_artifacts_of_the_questions(self, project, instructor, no_probes):
        lexical = run_report(project, instructor).result["lexical"]
        top = rows(lexical, "top_features")
        assert [r["feature"] for r in top if r["label"] == "unanswerable"][0] == "first"
        [test] = rows(lexical, "permutation_tests")
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
        assert [(r["gold_label"], r["n_U"], r["n_N"], r["a"], r["b"]) for r in rows(lexical, "strata")] == [
            (s.label, s.n_U, s.n_N, s.a, s.b) for s in stratified.strata]
        assert "Stratified by gold label" in lexical["summary"]["lexical_test"]
        weights = rows(lexical, "weights")
        assert [w["qid"] for w in weights] == [f"q{i}" for i in range(8)]  # train questions, reweighted

    def test_probe_sections_are_stored_and_validated(self, project, instructor, monkeypatch):
        from evaluation.reports.sections import section, table
        from evaluation.services import ambiguity as ambiguity_services

        seen = {}

        def selectional(*, model_version, progress):
            seen["model"] = model_version.name
            progress(1, 2, "Answering")
            return section("Selectional", summary={"questions": 2},
                           tables={"recall": table("Recall", ["gender", "recall"], [["female", 0.5], ["male", 0.75]])},
                           charts={"disparity": {"kind": "diverging_bar", "items": [{"label": "nurse", "value": 3}]}})

        def retrieval(*, model_version, project, progress):
            raise RuntimeError("index missing")

        monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", selectional)
        monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", retrieval)
        run = run_report(project, instructor)
        assert run.status == EvaluationRun.Status.DONE and seen == {"model": "qa-in-the-loop"}
        assert run.result["ambiguity_selectional"]["tables"]["recall"]["rows"] == [["female", 0.5], ["male", 0.75]]
        retrieval_section = run.result["ambiguity_retrieval"]
        assert retrieval_section["available"] is False and "RuntimeError: index missing" in retrieval_section["note"]

    def test_a_malformed_probe_section_fails_the_run_without_storing(self, project, instructor, monkeypatch):
        from evaluation.services import ambiguity as ambiguity_services

        monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section",
                            lambda **kw: {"title": "x", "summary": {"p": float("nan")}})
        monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
        run = run_report(project, instructor)
        assert run.status == EvaluationRun.Status.FAILED and run.result == {} and "NaN" in run.error

    def test_missing_probes_are_empty_states(self, project, instructor, no_probes):
        result = run_report(project, instructor).result
        for name in ("ambiguity_selectional", "ambiguity_retrieval"):
            assert result[name]["available"] is False and "No ambiguity data" in result[name]["note"]

    def test_empty_project(self, instructor, no_probes):
        from annotation.tests.factories import make_project

        run = run_report(make_project(instructor, name="empty"), instructor)
        assert run.status == EvaluationRun.Status.DONE and run.model_version is None
        assert run.result["squad"]["available"] is False and run.result["lexical"]["available"] is False

    def test_one_active_report_per_project(self, project, instructor):
        services.evaluation_start_project(project=project, user=instructor)
        with pytest.raises(services.EvaluationRefused, match="project nile-eval is already being computed"):
            services.evaluation_start_project(project=project, user=instructor)

    def test_the_real_probes_complete_the_report(self, project, instructor, settings):
        settings.STUMPER_AMBIGUITY_QUESTIONS = ""
        run = run_report(project, instructor)
        assert run.status == EvaluationRun.Status.DONE, run.error
        assert set(run.result) == {"overview", "squad", "lexical", "ambiguity_selectional", "ambiguity_retrieval"}
