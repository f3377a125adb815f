"""Scoring runs and training jobs by id: for the instructors of their round's course only."""
import pytest

from collector.models import TrainingJob
from collector.selectors.scoring import scoring_run_for_manager, scoring_runs_of_round
from collector.selectors.training import training_job_for_manager, training_jobs_of_round
from collector.tests.factories import finished_scoring_run
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


class JobSelectorTests:
    def test_instructors_read_runs_and_jobs_newest_first(self, instructor, round_):
        older = finished_scoring_run(round_, {})
        newer = finished_scoring_run(round_, {}, kind="answer_only")
        job = TrainingJob.objects.create(round=round_, name="m1")
        assert list(scoring_runs_of_round(round_=round_)) == [newer, older]
        assert scoring_run_for_manager(user=instructor, run_id=older.pk) == older
        assert list(training_jobs_of_round(round_=round_)) == [job]
        assert training_job_for_manager(user=instructor, job_id=job.pk) == job

    @pytest.mark.parametrize("who", ["student", "other_instructor", "crowdworker"])
    def test_anyone_else_is_refused(self, round_, who, request):
        user = request.getfixturevalue(who)
        run, job = finished_scoring_run(round_, {}), TrainingJob.objects.create(round=round_, name="m1")
        with pytest.raises(AccessError, match="Only the course's instructors"):
            scoring_run_for_manager(user=user, run_id=run.pk)
        with pytest.raises(AccessError, match="Only the course's instructors"):
            training_job_for_manager(user=user, job_id=job.pk)

    def test_missing_ones_say_so(self, instructor):
        with pytest.raises(AccessError, match="scoring run does not exist"):
            scoring_run_for_manager(user=instructor, run_id=5)
        with pytest.raises(AccessError, match="training job does not exist"):
            training_job_for_manager(user=instructor, job_id=5)
