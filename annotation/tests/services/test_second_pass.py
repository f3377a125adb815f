"""Second pass: blind extra answers on validation/test questions, flags and their resolution."""
import pytest
from django.core.exceptions import ValidationError

from annotation import services
from annotation.exceptions import AccessError
from annotation.models import QuestionFlag, SecondPassAnswer, SpanAnswer, SpanQuestion
from annotation.presentation import session_payload
from annotation.tests.factories import EN_CONTEXT, answer, submitted_paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewed(project, crowdworker):
    """A validation paragraph with crowdworker's 3 submitted questions (the last unanswerable)."""
    return submitted_paragraph(project, crowdworker)


def _second_pass(project, user):
    return services.session_start_next(user=user, project=project, kind="second_pass")


def _questions(paragraph):
    return list(SpanQuestion.objects.filter(paragraph=paragraph).order_by("position"))


class SecondPassQueueTests:
    def test_only_validation_and_test_questions_of_others(self, project, reviewed, crowdworker, worker2):
        submitted_paragraph(project, worker2, split="train")
        assert _second_pass(project, crowdworker) is None  # their own questions, or train
        session = _second_pass(project, worker2)
        assert session.paragraph == reviewed and session.kind == "second_pass"

    def test_the_question_leaves_the_queue_after_enough_answers(self, project, reviewed, worker2, instructor):
        project = services.project_update(project=project, user=project.owner, second_pass_answers=1)
        session = _second_pass(project, worker2)
        for q in _questions(reviewed):
            services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        services.second_pass_submit(session=session, user=worker2)
        assert _second_pass(project, instructor) is None

    def test_the_worker_does_not_see_the_original_answer_before_answering(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        payload = session_payload(session)
        assert all(q["my_answer"] is None and q["original"] is None for q in payload["questions"])
        assert "answers" not in payload["questions"][0]
        first = _questions(reviewed)[0]
        services.second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True)
        shown = session_payload(session)["questions"][0]
        assert shown["original"] == {"is_impossible": False, "text": "the Mediterranean Sea"}


class SecondPassAnswerTests:
    def test_a_span_becomes_an_extra_gold_answer(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[0]
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                         answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        texts = list(q.answers.order_by("position").values_list("text", "kind"))
        assert texts == [("the Mediterranean Sea", "original"), ("Mediterranean Sea", "second_pass")]

    def test_answering_again_replaces_the_earlier_answer(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[0]
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                         answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        assert q.answers.count() == 1
        assert SecondPassAnswer.objects.get(question=q).is_impossible

    def test_a_span_on_an_unanswerable_question_is_not_gold(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[2]
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                         answer=answer(EN_CONTEXT, "Khartoum"))
        assert not q.answers.exists()
        assert SecondPassAnswer.objects.get(question=q).text == "Khartoum"

    def test_bad_answers_are_refused(self, project, reviewed, worker2, crowdworker):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[0]
        with pytest.raises(ValidationError, match="does not match"):
            services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                             answer={"text": "Khartoum", "answer_start": 0})
        with pytest.raises(ValidationError, match="cannot come with an answer span"):
            services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                             answer=answer(EN_CONTEXT, "Khartoum"))
        with pytest.raises(ValidationError, match="not one of this paragraph"):
            services.second_pass_answer_save(session=session, user=worker2, question_id=10**9, is_impossible=True)
        with pytest.raises(AccessError):
            services.second_pass_answer_save(session=session, user=crowdworker, question_id=q.pk, is_impossible=True)
        assert not SecondPassAnswer.objects.exists()

    def test_finishing_needs_every_question_answered(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[0]
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        with pytest.raises(ValidationError, match="2 left"):
            services.second_pass_submit(session=session, user=worker2)


class FlagTests:
    def _flag(self, project, reviewed, worker2, index, proposal, **answer_fields):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[index]
        services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                         flag={"proposal": proposal, "reason": "the span is too long"}, **answer_fields)
        return QuestionFlag.objects.get(question=q), q

    def test_accepted_fix_replaces_the_original_answer(self, project, reviewed, worker2):
        flag, q = self._flag(project, reviewed, worker2, 0, "fix_answer", answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        assert flag.proposed_text == "Mediterranean Sea" and flag.status == "open"
        services.flag_resolve(flag=flag, user=project.owner, accept=True, note="agreed")
        q.refresh_from_db()
        kinds = list(q.answers.order_by("position").values_list("text", "kind"))
        assert ("the Mediterranean Sea", "original") not in kinds
        assert ("Mediterranean Sea", "correction") in kinds
        flag.refresh_from_db()
        assert flag.status == "accepted" and flag.resolved_by == project.owner

    def test_fix_on_an_unanswerable_question_makes_it_answerable(self, project, reviewed, worker2):
        flag, q = self._flag(project, reviewed, worker2, 2, "fix_answer", answer=answer(EN_CONTEXT, "Khartoum"))
        services.flag_resolve(flag=flag, user=project.owner, accept=True)
        q.refresh_from_db()
        assert not q.is_impossible and list(q.answers.values_list("text", flat=True)) == ["Khartoum"]

    def test_accepted_unanswerable_and_removal(self, project, reviewed, worker2, instructor):
        flag, q = self._flag(project, reviewed, worker2, 1, "mark_unanswerable", is_impossible=True)
        services.flag_resolve(flag=flag, user=project.owner, accept=True)
        q.refresh_from_db()
        assert q.is_impossible and not q.answers.exists()
        session = services.session_start_next(user=worker2, project=project, kind="second_pass")
        first = _questions(reviewed)[0]
        services.second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True,
                                         flag={"proposal": "remove_question"})
        services.flag_resolve(flag=QuestionFlag.objects.get(question=first), user=project.owner, accept=True)
        first.refresh_from_db()
        assert first.status == SpanQuestion.Status.REMOVED

    def test_rejected_flags_change_nothing_and_only_the_owner_resolves(self, project, reviewed, worker2, other_instructor):
        flag, q = self._flag(project, reviewed, worker2, 0, "remove_question", is_impossible=True)
        with pytest.raises(AccessError):
            services.flag_resolve(flag=flag, user=other_instructor, accept=True)
        services.flag_resolve(flag=flag, user=project.owner, accept=False)
        q.refresh_from_db()
        assert q.status == "submitted" and q.answers.filter(kind=SpanAnswer.Kind.ORIGINAL).exists()
        with pytest.raises(ValidationError, match="already resolved"):
            services.flag_resolve(flag=flag, user=project.owner, accept=True)

    def test_a_fix_needs_a_span_and_a_known_proposal(self, project, reviewed, worker2):
        session = _second_pass(project, worker2)
        q = _questions(reviewed)[0]
        with pytest.raises(ValidationError, match="select it in the paragraph"):
            services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                             flag={"proposal": "fix_answer"})
        with pytest.raises(ValidationError, match="Choose what should happen"):
            services.second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                             flag={"proposal": "burn_it"})
        assert not QuestionFlag.objects.exists() and not SecondPassAnswer.objects.exists()
