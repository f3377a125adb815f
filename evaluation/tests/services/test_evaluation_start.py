"""Starting a report: snapshot, settings, one active report per round, nothing stored on refusal."""
import pytest
from django.core.exceptions import ValidationError

from evaluation.models import EvaluationRun
from evaluation.services import reports as services

pytestmark = pytest.mark.django_db


class EvaluationStartRoundTests:
    def test_snapshot_names_the_data_and_model(self, artifact_round, instructor, tiny_model_version):
        artifact_round.live_model = tiny_model_version
        artifact_round.save()
        cv = artifact_round.scoring_runs.get(kind="cross_validation")
        answer_only = artifact_round.scoring_runs.get(kind="answer_only")
        run = services.evaluation_start_round(round_=artifact_round, user=instructor, config={"k": 7})
        assert run.status == EvaluationRun.Status.QUEUED and run.created_by == instructor
        assert run.snapshot["question_ids"] == sorted(artifact_round.questions.values_list("pk", flat=True))
        assert (run.snapshot["cv_run_id"], run.snapshot["answer_only_run_id"]) == (cv.pk, answer_only.pk)
        assert run.model_version == tiny_model_version
        assert run.config == {"k": 7, "p0": "uniform", "min_count": None, "max_steps": 3000, "seed": 0}

    def test_unfinished_scoring_runs_are_not_used(self, round_, instructor):
        from collector.models import ScoringRun

        ScoringRun.objects.create(round=round_, status="running", folds=2, base_checkpoint="x", question_ids=[])
        run = services.evaluation_start_round(round_=round_, user=instructor)
        assert run.snapshot["question_ids"] == []
        assert run.snapshot["cv_run_id"] is None and run.snapshot["answer_only_run_id"] is None

    def test_the_report_is_queued_after_commit(self, round_, instructor, django_capture_on_commit_callbacks, monkeypatch):
        scheduled = []
        monkeypatch.setattr(services, "evaluation_schedule", lambda *, run_id: scheduled.append(run_id))
        with django_capture_on_commit_callbacks(execute=True):
            run = services.evaluation_start_round(round_=round_, user=instructor)
        assert scheduled == [run.pk]

    def test_second_start_is_refused_while_one_is_active(self, round_, instructor):
        first = services.evaluation_start_round(round_=round_, user=instructor)
        with pytest.raises(services.EvaluationRefused, match=f"already being computed \\(run {first.pk}"):
            services.evaluation_start_round(round_=round_, user=instructor)
        assert EvaluationRun.objects.count() == 1
        EvaluationRun.objects.filter(pk=first.pk).update(status=EvaluationRun.Status.DONE)
        services.evaluation_start_round(round_=round_, user=instructor)
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
            services.evaluation_start_round(round_=round_, user=instructor, config=config)
        assert message in " ".join(error.value.message_dict[field])
        assert not EvaluationRun.objects.exists()
