"""A worker's progress in a project: finished paragraphs, time spent, review state of each."""
import pytest
from django.urls import reverse

from annotation.models import QuestionFlag
from annotation.selectors.worker_home import worker_paragraphs_accepted, worker_progress
from annotation.services.authoring import session_discard, session_start_next
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save, second_pass_submit
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, submitted_paragraph

pytestmark = pytest.mark.django_db


def flag(question, user, status):
    return QuestionFlag.objects.create(question=question, raised_by=user, proposal="remove_question", status=status)


class WorkerProgressTests:
    def test_counts_time_and_review_states(self, crowdworker, worker2, project):
        first = submitted_paragraph(project, crowdworker)
        second = submitted_paragraph(project, crowdworker)
        first.sessions.update(active_seconds=300)
        second.sessions.update(active_seconds=420)
        progress = worker_progress(user=crowdworker, project=project)
        assert (progress.authored, progress.answered, progress.completed, progress.active_seconds) == (2, 0, 2, 720)
        assert [row.state for row in progress.recent] == ["accepted", "accepted"]
        assert [row.questions for row in progress.recent] == [3, 3]

        flag(first.questions.first(), worker2, QuestionFlag.Status.OPEN)
        flag(second.questions.first(), worker2, QuestionFlag.Status.ACCEPTED)
        states = {row.title: row.state for row in worker_progress(user=crowdworker, project=project).recent}
        assert states == {first.article.title: "review", second.article.title: "corrected"}
        assert worker_progress(user=worker2, project=project).completed == 0

    def test_a_discarded_paragraph(self, crowdworker, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        session_discard(session=session, user=crowdworker, reason="hard_to_understand")
        progress = worker_progress(user=crowdworker, project=project)
        assert (progress.completed, progress.discarded, [r.state for r in progress.recent]) == (0, 1, ["discarded"])

    def test_the_task_list_shows_them(self, client, crowdworker, worker2, project):
        paragraph = submitted_paragraph(project, crowdworker)
        paragraph.sessions.update(active_seconds=14 * 60 + 40)
        flag(paragraph.questions.first(), worker2, QuestionFlag.Status.OPEN)
        project.instructions = "Line one of the instructions.\n\nA second paragraph, only in the full text."
        project.save()
        client.force_login(crowdworker)
        html = client.get(reverse("annotation:task_list")).content.decode()
        assert "Paragraphs finished" in html and "15 min" in html and "In review" in html and "3 questions" in html
        assert '<details class="task-instructions">' in html and "A second paragraph, only in the full text." in html


class WorkerParagraphsAcceptedTests:
    def test_counts_finished_paragraphs_no_open_flag_holds(self, crowdworker, worker2, project):
        first, second, third = (submitted_paragraph(project, crowdworker) for _ in range(3))
        assert worker_paragraphs_accepted(user=crowdworker, project=project) == 3
        flag(first.questions.first(), worker2, QuestionFlag.Status.OPEN)  # in review: not counted
        flag(second.questions.first(), worker2, QuestionFlag.Status.ACCEPTED)  # corrected: counted
        flag(third.questions.first(), worker2, QuestionFlag.Status.REJECTED)  # accepted: counted
        assert worker_paragraphs_accepted(user=crowdworker, project=project) == 2
        assert worker_paragraphs_accepted(user=worker2, project=project) == 0

    def test_discarded_and_unfinished_paragraphs_do_not_count(self, crowdworker, project):
        add_paragraphs(project, [EN_CONTEXT, EN_CONTEXT])
        session = session_start_next(user=crowdworker, project=project)
        session_discard(session=session, user=crowdworker, reason="hard_to_understand")
        session_start_next(user=crowdworker, project=project)  # in progress
        assert worker_paragraphs_accepted(user=crowdworker, project=project) == 0

    def test_a_second_pass_counts_once_its_flags_are_resolved(self, crowdworker, worker2, project):
        paragraph = submitted_paragraph(project, crowdworker)
        session = session_start_next(user=worker2, project=project, kind="second_pass")
        questions = list(paragraph.questions.order_by("position"))
        for question in questions:
            second_pass_answer_save(session=session, user=worker2, question_id=question.pk, is_impossible=True,
                                    flag={"proposal": "remove_question"} if question == questions[0] else None)
        second_pass_submit(session=session, user=worker2)
        assert worker_paragraphs_accepted(user=worker2, project=project) == 0  # their flag waits for the owner
        assert worker_paragraphs_accepted(user=crowdworker, project=project) == 0  # so does the author's paragraph
        flag_resolve(flag=QuestionFlag.objects.get(), user=project.owner, accept=True)
        assert worker_paragraphs_accepted(user=worker2, project=project) == 1
        assert worker_paragraphs_accepted(user=crowdworker, project=project) == 1
