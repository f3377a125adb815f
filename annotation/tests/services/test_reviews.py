"""The owner's review: a flag accepted (its proposal applied: a fixed span, unanswerable, removal) or
rejected (nothing changes), by the owner only and once; a discarded paragraph restored."""
import pytest
from django.core.exceptions import ValidationError

from annotation.models import QuestionFlag, SpanAnswer, SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import EN_CONTEXT, answer, paragraph_questions, second_pass_start
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


class FlagResolveTests:
    def _flag(self, project, reviewed, worker2, index, proposal, **answer_fields):
        session = second_pass_start(project, worker2)
        q = paragraph_questions(reviewed)[index]
        second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                flag={"proposal": proposal, "reason": "the span is too long"}, **answer_fields)
        return QuestionFlag.objects.get(question=q), q

    def test_accepted_fix_replaces_the_original_answer(self, project, reviewed, worker2):
        flag, q = self._flag(project, reviewed, worker2, 0, "fix_answer", answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        assert flag.proposed_text == "Mediterranean Sea" and flag.status == "open"
        flag_resolve(flag=flag, user=project.owner, accept=True, note="agreed")
        q.refresh_from_db()
        kinds = list(q.answers.order_by("position").values_list("text", "kind"))
        assert ("the Mediterranean Sea", "original") not in kinds
        assert ("Mediterranean Sea", "correction") in kinds
        flag.refresh_from_db()
        assert flag.status == "accepted" and flag.resolved_by == project.owner

    def test_fix_on_an_unanswerable_question_makes_it_answerable(self, project, reviewed, worker2):
        flag, q = self._flag(project, reviewed, worker2, 2, "fix_answer", answer=answer(EN_CONTEXT, "Khartoum"))
        flag_resolve(flag=flag, user=project.owner, accept=True)
        q.refresh_from_db()
        assert not q.is_impossible and list(q.answers.values_list("text", flat=True)) == ["Khartoum"]

    def test_accepted_unanswerable_and_removal(self, project, reviewed, worker2, instructor):
        flag, q = self._flag(project, reviewed, worker2, 1, "mark_unanswerable", is_impossible=True)
        flag_resolve(flag=flag, user=project.owner, accept=True)
        q.refresh_from_db()
        assert q.is_impossible and not q.answers.exists()
        session = session_start_next(user=worker2, project=project, kind="second_pass")
        first = paragraph_questions(reviewed)[0]
        second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True,
                                flag={"proposal": "remove_question"})
        flag_resolve(flag=QuestionFlag.objects.get(question=first), user=project.owner, accept=True)
        first.refresh_from_db()
        assert first.status == SpanQuestion.Status.REMOVED

    def test_rejected_flags_change_nothing_and_only_the_owner_resolves(self, project, reviewed, worker2, other_instructor):
        flag, q = self._flag(project, reviewed, worker2, 0, "remove_question", is_impossible=True)
        with pytest.raises(AccessError):
            flag_resolve(flag=flag, user=other_instructor, accept=True)
        flag_resolve(flag=flag, user=project.owner, accept=False)
        q.refresh_from_db()
        assert q.status == "submitted" and q.answers.filter(kind=SpanAnswer.Kind.ORIGINAL).exists()
        with pytest.raises(ValidationError, match="already resolved"):
            flag_resolve(flag=flag, user=project.owner, accept=True)
