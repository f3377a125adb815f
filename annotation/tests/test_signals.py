"""``annotation.signals.worker_progress_changed``: sent whenever what a worker finished in a project, or its
review, changes, naming the project and the workers concerned (apps above annotation listen to it)."""
import pytest

from annotation.models import QuestionFlag
from annotation.services.authoring import session_discard, session_start_next
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save, second_pass_submit
from annotation.signals import worker_progress_changed
from annotation.tests.factories import submitted_paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent():
    received = []

    def listener(sender, **kwargs):
        received.append((kwargs["project_id"], kwargs["user_ids"]))

    worker_progress_changed.connect(listener, dispatch_uid="test-listener")
    yield received
    worker_progress_changed.disconnect(dispatch_uid="test-listener")


def test_submit_flag_and_resolve_each_send_it(sent, project, crowdworker, worker2):
    paragraph = submitted_paragraph(project, crowdworker)  # session_submit
    assert sent == [(project.pk, [crowdworker.pk])]
    session = session_start_next(user=worker2, project=project, kind="second_pass")
    first, *others = paragraph.questions.order_by("position")
    second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True,
                            flag={"proposal": "remove_question"})
    assert sent[-1] == (project.pk, [crowdworker.pk])  # the author's paragraph is now in review
    for question in others:
        second_pass_answer_save(session=session, user=worker2, question_id=question.pk, is_impossible=True)
    second_pass_submit(session=session, user=worker2)
    assert sent[-1] == (project.pk, [worker2.pk])
    flag_resolve(flag=QuestionFlag.objects.get(), user=project.owner, accept=False)
    assert sent[-1] == (project.pk, sorted([crowdworker.pk, worker2.pk]))
    assert len(sent) == 4


def test_discarding_or_drafting_sends_nothing(sent, project, paragraph, crowdworker):
    session = session_start_next(user=crowdworker, project=project)
    session_discard(session=session, user=crowdworker, reason="hard_to_understand")
    assert sent == []
