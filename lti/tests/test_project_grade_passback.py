"""Assignment and Grade Services 2.0 for annotation projects: a student's score is the number of paragraphs they
finished that no open flag holds in review, capped at the line item's maximum; it reaches the LMS whenever it
changes (a paragraph submitted, a flag raised, a flag resolved), through the rounds' passback task: idempotent,
retried, with a per-student status and "send all grades again" on the project's owner page."""
import pytest
from django.test import override_settings

from annotation.models import QuestionFlag
from annotation.services.authoring import session_start_next
from annotation.services.invites import project_member_add
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import make_project, submitted_paragraph
from lti.models import ContextLink, GradeSync, LtiIdentity
from lti.tests.conftest import assert_idempotent_then_sent_again, login_and_launch
from lti.tests.platform_sim import ROLE_LEARNER

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_retries")]


@pytest.fixture
def assignment(client, lms, platform, course, instructor):
    """The course owner's project as an LMS assignment (line item scoreMaximum 10), and a student who opened it."""
    ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)
    project = make_project(instructor, name="Nile questions")
    claims = lms.resource_link_claims(sub="s1", roles=[ROLE_LEARNER], resource_link_id="nile",
                                      custom={"stumper_project_id": str(project.pk)})
    login_and_launch(client, lms, claims)
    return project, LtiIdentity.objects.get(subject="s1").user


def test_a_finished_paragraph_sends_the_score_to_the_line_item(assignment, lms, django_capture_on_commit_callbacks):
    project, student = assignment
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
    (received,) = lms.scores
    assert received["lineitem"] == f"{lms.url}/ags/{lms.context_id}/lineitems/nile"
    score = received["score"]  # AGS 2.0 §3.4 Score
    assert {k: score[k] for k in ("userId", "scoreGiven", "scoreMaximum", "activityProgress", "gradingProgress")} == {
        "userId": "s1", "scoreGiven": 1.0, "scoreMaximum": 10.0,
        "activityProgress": "Submitted", "gradingProgress": "FullyGraded"}
    sync = GradeSync.objects.get(user=student)
    assert (sync.status, sync.score_given, sync.score_maximum) == ("sent", 1.0, 10.0)


def test_a_flag_holds_the_paragraph_in_review_until_the_owner_decides(assignment, lms, instructor, crowdworker,
                                                                      django_capture_on_commit_callbacks):
    project, student = assignment
    with django_capture_on_commit_callbacks(execute=True):
        paragraph = submitted_paragraph(project, student)
    second_pass = session_start_next(user=crowdworker, project=project, kind="second_pass")
    with django_capture_on_commit_callbacks(execute=True):
        second_pass_answer_save(
            session=second_pass, user=crowdworker, question_id=paragraph.questions.first().pk, is_impossible=True,
            flag={"proposal": "remove_question"})
    assert [s["score"]["scoreGiven"] for s in lms.scores] == [1.0, 0.0]
    with django_capture_on_commit_callbacks(execute=True):
        flag_resolve(flag=QuestionFlag.objects.get(), user=instructor, accept=False)
    assert [s["score"]["scoreGiven"] for s in lms.scores] == [1.0, 0.0, 1.0]
    assert {s["score"]["userId"] for s in lms.scores} == {"s1"}  # the crowdworker has no LMS identity


def test_the_score_is_capped_at_the_maximum_and_sent_only_when_it_changes(assignment, lms,
                                                                          django_capture_on_commit_callbacks):
    project, student = assignment
    lms.lineitems[f"{lms.url}/ags/{lms.context_id}/lineitems/nile"]["scoreMaximum"] = 1  # one paragraph is enough
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
        submitted_paragraph(project, student)
    (received,) = lms.scores  # the second paragraph leaves the capped score as it was
    assert (received["score"]["scoreGiven"], received["score"]["scoreMaximum"]) == (1.0, 1.0)


def test_passback_is_idempotent_and_the_owner_page_sends_again(client, assignment, lms, instructor,
                                                               django_capture_on_commit_callbacks):
    project, student = assignment
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
    page = assert_idempotent_then_sent_again(client, lms, student=student, manager=instructor,
                                             page_url=f"/annotation/projects/{project.pk}/",
                                             resend_url=f"/lti/projects/{project.pk}/grades/resend/")
    assert "This annotation project is an assignment" in page and "1 / 10" in page


@override_settings(STUMPER_LTI_PASSBACK_RETRIES=1, STUMPER_LTI_PASSBACK_BACKOFF_SECONDS=0)
def test_a_failing_lms_is_retried_then_shown_failed_on_the_project_page(client, assignment, lms, instructor,
                                                                        django_capture_on_commit_callbacks):
    project, student = assignment
    lms.ags_mode = "fail"
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
    assert lms.score_attempts == 2 and not lms.scores  # the first attempt and one retry
    sync = GradeSync.objects.get(user=student)
    assert sync.status == "failed" and sync.attempts == 2 and "HTTP 500" in sync.last_error
    client.force_login(instructor)
    assert "failed: the LMS answered HTTP 500" in client.get(f"/annotation/projects/{project.pk}/").content.decode()


def test_projects_that_are_not_lms_assignments_send_nothing(lms, platform, instructor, student,
                                                            django_capture_on_commit_callbacks):
    project = make_project(instructor, name="Not in the LMS")
    project_member_add(project=project, user=student)
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
    assert lms.score_attempts == 0 and not GradeSync.objects.exists()


def test_a_student_who_finished_no_paragraph_is_sent_nothing(client, assignment, lms, instructor,
                                                             django_capture_on_commit_callbacks):
    project, student = assignment  # opened the assignment, finished nothing yet
    client.force_login(instructor)
    client.post(f"/lti/projects/{project.pk}/grades/resend/")
    assert lms.scores == [] and not GradeSync.objects.exists()  # a blank in the gradebook, not a zero
    with django_capture_on_commit_callbacks(execute=True):
        submitted_paragraph(project, student)
    assert [s["score"]["scoreGiven"] for s in lms.scores] == [1.0]
