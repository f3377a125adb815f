"""``selectors/scoring.py``: scoring runs by id, for the instructors of their round's course only."""
import pytest

from collector.selectors.scoring import scoring_run_for_manager, scoring_runs_of_round
from collector.tests.factories import finished_scoring_run
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


class ScoringRunSelectorTests:
    def test_instructors_read_runs_newest_first(self, instructor, round_):
        older = finished_scoring_run(round_, {})
        newer = finished_scoring_run(round_, {}, kind="answer_only")
        assert list(scoring_runs_of_round(round_=round_)) == [newer, older]
        assert scoring_run_for_manager(user=instructor, run_id=older.pk) == older

    @pytest.mark.parametrize("who", ["student", "other_instructor", "crowdworker"])
    def test_anyone_else_is_refused(self, round_, who, request):
        user = request.getfixturevalue(who)
        run = finished_scoring_run(round_, {})
        with pytest.raises(AccessError, match="Only the course's instructors"):
            scoring_run_for_manager(user=user, run_id=run.pk)

    def test_a_missing_run_says_so(self, instructor):
        with pytest.raises(AccessError, match="scoring run does not exist"):
            scoring_run_for_manager(user=instructor, run_id=5)
