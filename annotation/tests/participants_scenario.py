"""Two workers who built on each other's work (for the participant export and deletion tests)."""
from dataclasses import dataclass

from annotation.models import Paragraph, Project, QuestionFlag, SpanQuestion
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save, second_pass_flag_save, second_pass_submit
from annotation.tests.factories import EN_CONTEXT, answer, paragraph_questions, second_pass_start, submitted_paragraph


@dataclass
class Scenario:
    project: Project
    mine: Paragraph  # the leaving worker's paragraph (3 questions)
    theirs: Paragraph  # the staying worker's paragraph (3 questions)


def two_workers(project: Project, leaving, staying) -> Scenario:
    """``leaving`` and ``staying`` each write 3 validation questions and answer the other's in the
    second pass. ``staying`` flags ``leaving``'s first question (left open); ``leaving`` proposes a
    correction of ``staying``'s first question, which the owner accepts (so its only answers are
    ``leaving``'s)."""
    mine = submitted_paragraph(project, leaving)
    theirs = submitted_paragraph(project, staying)
    session = second_pass_start(project, staying)
    assert session.paragraph == mine
    first = paragraph_questions(mine)[0]
    second_pass_answer_save(session=session, user=staying, question_id=first.pk,
                            answer=answer(EN_CONTEXT, "Mediterranean Sea"))
    second_pass_flag_save(session=session, user=staying, question_id=first.pk, proposal="mark_unanswerable",
                          reason="not in the text")
    session = second_pass_start(project, leaving)
    assert session.paragraph == theirs
    for q in paragraph_questions(theirs):
        second_pass_answer_save(session=session, user=leaving, question_id=q.pk,
                                answer=answer(EN_CONTEXT, "Mediterranean Sea"))
    target = paragraph_questions(theirs)[0]
    second_pass_flag_save(session=session, user=leaving, question_id=target.pk, proposal="fix_answer",
                          answer=answer(EN_CONTEXT, "Mediterranean Sea"), reason="shorter")
    second_pass_submit(session=session, user=leaving)
    flag_resolve(flag=QuestionFlag.objects.get(question=target), user=project.owner, accept=True)
    assert SpanQuestion.objects.get(pk=target.pk).answers.exclude(author=leaving).count() == 0
    return Scenario(project, mine, theirs)
