"""``selectors/training.py``: training jobs by id, for the instructors of their round's course only."""
import pytest

from collector.models import TrainingJob
from collector.selectors.training import training_job_for_manager, training_jobs_of_round
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


class TrainingJobSelectorTests:
    def test_instructors_read_jobs_newest_first(self, instructor, round_):
        older = TrainingJob.objects.create(round=round_, name="m1")
        newer = TrainingJob.objects.create(round=round_, name="m2")
        assert list(training_jobs_of_round(round_=round_)) == [newer, older]
        assert training_job_for_manager(user=instructor, job_id=older.pk) == older

    @pytest.mark.parametrize("who", ["student", "other_instructor", "crowdworker"])
    def test_anyone_else_is_refused(self, round_, who, request):
        user = request.getfixturevalue(who)
        job = TrainingJob.objects.create(round=round_, name="m1")
        with pytest.raises(AccessError, match="Only the course's instructors"):
            training_job_for_manager(user=user, job_id=job.pk)

    def test_a_missing_job_says_so(self, instructor):
        with pytest.raises(AccessError, match="training job does not exist"):
            training_job_for_manager(user=instructor, job_id=5)
