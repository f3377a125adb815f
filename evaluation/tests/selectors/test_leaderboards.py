"""Each round's validated model error rate (vMER) and a course's curve."""
import pytest

from collector.models import Prediction, Question
from collector.services.rounds import round_create
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.tests.factories import make_questions
from mlcore.stats.proportions import wilson_interval

pytestmark = pytest.mark.django_db


class RoundVmerTests:
    def test_vmer_counts_confirmed_questions_that_fooled_the_live_model(self, board_round):
        # Validated: 5 accepted (keys 0,3,1,2,3: the live model (always D) is fooled by 3 of them) + 1 rejected.
        vmer = leaderboard_selectors.round_vmer(round_=board_round)
        assert (vmer.result.k, vmer.result.n) == (3, 6)
        assert (vmer.validated, vmer.confirmed, vmer.fooled, vmer.without_live_prediction) == (6, 5, 4, 0)
        answered_by = {p.model_version.name for p in Prediction.objects.filter(question__round=board_round)}
        assert vmer.models_in_loop == tuple(sorted(answered_by)) and len(answered_by) == 1
        ci = vmer.result.confidence_interval()
        assert (ci.low, ci.high) == (wilson_interval(3, 6).low, wilson_interval(3, 6).high)

    def test_a_validated_question_without_a_live_answer_is_left_out_and_counted(self, board_round):
        question = Question.objects.filter(round=board_round, status="accepted").first()
        Prediction.objects.filter(question=question).delete()
        vmer = leaderboard_selectors.round_vmer(round_=board_round)
        assert vmer.validated == 5 and vmer.without_live_prediction == 1

    def test_the_course_curve_lists_rounds_oldest_first(self, board_round, course, student, fake_model):
        later = round_create(course=course, name="r2", title="Round two", categories=["idioms"])
        make_questions(later, student, [("idioms", 3, "accepted"), ("idioms", 3, "accepted"),
                                        ("idioms", 0, "accepted"), ("idioms", 3, "pending")], prefix="r2")
        curve = leaderboard_selectors.course_vmer_curve(course=course)
        assert [point.round_name for point in curve] == ["r1", "r2"]
        assert [(p.result.k, p.result.n) for p in curve] == [(3, 6), (1, 3)]
