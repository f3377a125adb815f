"""Starting and computing a report: the snapshot, settings, one active report per target, provenance,
idempotence, failures, progress, resuming; a project report's probe sections."""
import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from evaluation.models import EvaluationRun
from evaluation.reports import rounds
from evaluation.services import reports as report_services
from evaluation.tests.factories import finished_report

pytestmark = pytest.mark.django_db


class EvaluationStartRoundTests:
    def test_snapshot_names_the_data_and_model(self, artifact_round, instructor, tiny_model_version):
        artifact_round.live_model = tiny_model_version
        artifact_round.save()
        cv = artifact_round.scoring_runs.get(kind="cross_validation")
        answer_only = artifact_round.scoring_runs.get(kind="answer_only")
        run = report_services.evaluation_start_round(round_=artifact_round, user=instructor, config={"k": 7})
        assert run.status == EvaluationRun.Status.QUEUED and run.created_by == instructor
        assert run.snapshot["question_ids"] == sorted(artifact_round.questions.values_list("pk", flat=True))
        assert (run.snapshot["cv_run_id"], run.snapshot["answer_only_run_id"]) == (cv.pk, answer_only.pk)
        assert run.model_version == tiny_model_version
        assert run.config == {"k": 7, "p0": "uniform", "min_count": None, "max_steps": 3000, "seed": 0}

    def test_unfinished_scoring_runs_are_not_used(self, round_, instructor):
        from collector.models import ScoringRun

        ScoringRun.objects.create(round=round_, status="running", folds=2, base_checkpoint="x", question_ids=[])
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        assert run.snapshot["question_ids"] == []
        assert run.snapshot["cv_run_id"] is None and run.snapshot["answer_only_run_id"] is None

    def test_the_report_is_queued_after_commit(self, round_, instructor, django_capture_on_commit_callbacks, monkeypatch):
        scheduled = []
        monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: scheduled.append(run_id))
        with django_capture_on_commit_callbacks(execute=True):
            run = report_services.evaluation_start_round(round_=round_, user=instructor)
        assert scheduled == [run.pk]

    def test_second_start_is_refused_while_one_is_active(self, round_, instructor):
        first = report_services.evaluation_start_round(round_=round_, user=instructor)
        with pytest.raises(report_services.EvaluationRefused, match=f"already being computed \\(run {first.pk}"):
            report_services.evaluation_start_round(round_=round_, user=instructor)
        assert EvaluationRun.objects.count() == 1
        EvaluationRun.objects.filter(pk=first.pk).update(status=EvaluationRun.Status.DONE)
        report_services.evaluation_start_round(round_=round_, user=instructor)
        assert EvaluationRun.objects.count() == 2

    @pytest.mark.parametrize(
        ("config", "field", "message"),
        [
            ({"k": 0}, "k", "from 1 to 500"),
            ({"k": "5"}, "k", "whole number"),
            ({"max_steps": True}, "max_steps", "whole number"),
            ({"p0": "flat"}, "p0", "uniform or prior"),
            ({"min_count": 0}, "min_count", "from 1"),
            ({"alpha": 1}, "config", "Unknown setting"),
        ],
    )
    def test_bad_settings_store_nothing(self, round_, instructor, config, field, message):
        with pytest.raises(ValidationError) as error:
            report_services.evaluation_start_round(round_=round_, user=instructor, config=config)
        assert message in " ".join(error.value.message_dict[field])
        assert not EvaluationRun.objects.exists()


class EvaluationRunTests:
    def test_provenance_and_plain_json(self, artifact_round, instructor, small_config):
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        assert len(run.snapshot_digest) == 64 and run.finished_at is not None
        assert run.progress == {"stage": "Done", "percent": 100.0}
        json.dumps(run.result, allow_nan=False)  # no NaN, no numpy types
        again = finished_report(instructor, round_=artifact_round, config=small_config)
        assert again.snapshot_digest == run.snapshot_digest  # same data, same digest

    def test_snapshot_ignores_later_questions(self, artifact_round, instructor, student, small_config):
        from collector.services.questions import question_submit
        from collector.tests.factories import question_data

        run = report_services.evaluation_start_round(round_=artifact_round, user=instructor, config=small_config)
        question_submit(user=student, round_id=artifact_round.pk,
                        **question_data(prompt="A late one. She", categories=["idioms"]))
        run = report_services.evaluation_run(run_id=run.pk)
        assert run.result["overview"]["summary"]["questions"] == 12

    def test_failure_stores_no_result(self, artifact_round, instructor, small_config, monkeypatch):
        def explode(*args, **kwargs):
            raise RuntimeError("disk full")

        monkeypatch.setattr(report_services, "round_report", explode)
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        assert (run.status, run.error, run.result) == (EvaluationRun.Status.FAILED, "RuntimeError: disk full", {})

    def test_finished_runs_are_left_alone(self, artifact_round, instructor, small_config, monkeypatch):
        run = finished_report(instructor, round_=artifact_round, config=small_config)
        monkeypatch.setattr(report_services, "round_report", lambda *a, **k: pytest.fail("recomputed"))
        assert report_services.evaluation_run(run_id=run.pk).result == run.result

    def test_a_run_held_by_another_live_worker_is_skipped(self, round_, instructor, monkeypatch):
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        EvaluationRun.objects.filter(pk=run.pk).update(
            status="running", heartbeat_at=timezone.now(), progress={"owner": "elsewhere:1", "percent": 40.0})
        monkeypatch.setattr(report_services, "round_report", lambda *a, **k: pytest.fail("computed twice"))
        assert report_services.evaluation_run(run_id=run.pk).status == EvaluationRun.Status.RUNNING
        EvaluationRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
        monkeypatch.setattr(report_services, "round_report", rounds.round_report)
        assert report_services.evaluation_run(run_id=run.pk).status == EvaluationRun.Status.DONE  # stale: taken over

    def test_progress_is_written_while_computing(self, artifact_round, instructor, small_config, monkeypatch):
        seen = []
        real = rounds.round_report

        def spy(inputs, *, config, progress):
            def recording(stage, fraction):
                seen.append((stage, fraction))
                progress(stage, fraction)
            return real(inputs, config=config, progress=recording)

        monkeypatch.setattr(report_services, "round_report", spy)
        monkeypatch.setattr(report_services._ProgressWriter, "every", 0.0)
        finished_report(instructor, round_=artifact_round, config={**small_config, "max_steps": 30})
        fractions = [f for _, f in seen]
        assert fractions == sorted(fractions) and fractions[0] >= 0 and fractions[-1] <= 1
        assert any(stage.startswith("Reweighting, Adam step 20 of 30") for stage, _ in seen)

    def test_resume_requeues_active_runs(self, round_, instructor, monkeypatch):
        run = report_services.evaluation_start_round(round_=round_, user=instructor)
        scheduled = []
        monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: scheduled.append(run_id))
        assert report_services.evaluation_resume_interrupted() == 1 and scheduled == [run.pk]


class ProjectReportTests:
    def test_probe_sections_are_stored_and_validated(self, qa_project, instructor, monkeypatch):
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
        run = finished_report(instructor, project=qa_project)
        assert run.status == EvaluationRun.Status.DONE and seen == {"model": "qa-in-the-loop"}
        assert run.result["ambiguity_selectional"]["tables"]["recall"]["rows"] == [["female", 0.5], ["male", 0.75]]
        retrieval_section = run.result["ambiguity_retrieval"]
        assert retrieval_section["available"] is False and "RuntimeError: index missing" in retrieval_section["note"]

    def test_a_malformed_probe_section_fails_the_run_without_storing(self, qa_project, instructor, monkeypatch):
        from evaluation.services import ambiguity as ambiguity_services

        monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section",
                            lambda **kw: {"title": "x", "summary": {"p": float("nan")}})
        monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)
        run = finished_report(instructor, project=qa_project)
        assert run.status == EvaluationRun.Status.FAILED and run.result == {} and "NaN" in run.error

    def test_one_active_report_per_project(self, qa_project, instructor):
        report_services.evaluation_start_project(project=qa_project, user=instructor)
        with pytest.raises(report_services.EvaluationRefused, match="project nile-eval is already being computed"):
            report_services.evaluation_start_project(project=qa_project, user=instructor)

    def test_the_real_probes_complete_the_report(self, qa_project, instructor, settings):
        settings.STUMPER_AMBIGUITY_QUESTIONS = ""
        run = finished_report(instructor, project=qa_project)
        assert run.status == EvaluationRun.Status.DONE, run.error
        assert set(run.result) == {"overview", "squad", "lexical", "ambiguity_selectional", "ambiguity_retrieval"}
