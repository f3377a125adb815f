"""Assignment and Grade Services 2.0: credit changes -> the student's score reaches the LMS line item,
idempotently, retried with back-off when the LMS fails or times out, then shown as failed with the reason."""
import pytest
from django.test import override_settings

from collector.services.questions import question_submit
from collector.tests.factories import question_data
from lti.models import ContextLink, GradeSync, LtiIdentity
from lti.tests.conftest import assert_idempotent_then_sent_again, login_and_launch
from lti.tests.platform_sim import ROLE_LEARNER

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_retries")]


@pytest.fixture
def assignment(client, lms, platform, course, round_):
    """A student who opened the round from the LMS assignment (line item scoreMaximum 10)."""
    ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)
    claims = lms.resource_link_claims(sub="s1", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)})
    login_and_launch(client, lms, claims)
    return LtiIdentity.objects.get(subject="s1").user


def _fool_the_model(student, round_, django_capture_on_commit_callbacks):
    # fake_model always picks completion 3; key 0 -> fooled -> credit weight_live (1.0)
    with django_capture_on_commit_callbacks(execute=True):
        return question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))


def test_a_live_verdict_sends_the_score_to_the_line_item(assignment, lms, round_, fake_model,
                                                          django_capture_on_commit_callbacks):
    _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    (received,) = lms.scores
    assert received["lineitem"] == f"{lms.url}/ags/{lms.context_id}/lineitems/link-1"
    assert received["content_type"] == "application/vnd.ims.lis.v1.score+json"  # AGS 2.0 §3.4.1
    score = received["score"]
    # AGS 2.0 §3.4 Score publish service: the fields of a Score, written out.
    assert {k: score[k] for k in ("userId", "scoreGiven", "scoreMaximum", "activityProgress", "gradingProgress")} == {
        "userId": "s1", "scoreGiven": 1.0, "scoreMaximum": 10.0,
        "activityProgress": "Submitted", "gradingProgress": "FullyGraded"}
    assert score["timestamp"].endswith("+00:00") and "." in score["timestamp"]  # ISO 8601 with sub-seconds
    sync = GradeSync.objects.get(user=assignment)
    assert (sync.status, sync.score_given, sync.score_maximum) == ("sent", 1.0, 10.0)


def test_passback_is_idempotent_and_the_button_sends_again(client, assignment, lms, round_, instructor, fake_model,
                                                            django_capture_on_commit_callbacks):
    _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    assert_idempotent_then_sent_again(client, lms, student=assignment, manager=instructor,
                                      page_url=f"/rounds/{round_.pk}/", resend_url=f"/lti/rounds/{round_.pk}/grades/resend/")
    assert lms.scores[1]["score"]["scoreGiven"] == 1.0


def test_validation_decision_changes_the_score_sent(client, assignment, lms, round_, instructor, fake_model,
                                                    django_capture_on_commit_callbacks):
    from collector.services.reviews import question_review_decide
    from collector.services.round_settings import round_quality_settings_update

    question = _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        round_quality_settings_update(round_=round_, validations_required=1, peer_validation="off",
                                      credit_requires_acceptance=True, coach_answer_only=True, coach_words=True,
                                      coach_length=True, coach_duplicates=True)
    assert lms.scores[-1]["score"]["scoreGiven"] == 0.0  # not accepted yet: no credit
    with django_capture_on_commit_callbacks(execute=True):
        question_review_decide(reviewer=instructor, question_id=question.pk, action="accept")
    assert lms.scores[-1]["score"]["scoreGiven"] == 1.0


@override_settings(STUMPER_LTI_PASSBACK_RETRIES=2, STUMPER_LTI_PASSBACK_BACKOFF_SECONDS=0)
def test_failing_lms_is_retried_then_shown_failed_with_the_reason(client, assignment, lms, round_, instructor,
                                                                   fake_model, django_capture_on_commit_callbacks):
    lms.ags_mode = "fail"
    _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    assert lms.score_attempts == 3 and not lms.scores  # the first attempt and two retries
    sync = GradeSync.objects.get(user=assignment)
    assert sync.status == "failed" and sync.attempts == 3 and "HTTP 500" in sync.last_error
    client.force_login(instructor)
    page = client.get(f"/rounds/{round_.pk}/").content.decode()
    assert "failed: the LMS answered HTTP 500" in page and "gradebook is down" in page
    lms.ags_mode = "ok"  # the LMS is back: the button sends the grade that was kept
    client.post(f"/lti/rounds/{round_.pk}/grades/resend/")
    sync.refresh_from_db()
    assert sync.status == "sent" and lms.scores[-1]["score"]["scoreGiven"] == 1.0


@override_settings(STUMPER_LTI_PASSBACK_RETRIES=1, STUMPER_LTI_PASSBACK_BACKOFF_SECONDS=0, STUMPER_LTI_HTTP_TIMEOUT=0.3)
def test_lms_timing_out_is_retried_then_shown_failed(assignment, lms, round_, fake_model,
                                                     django_capture_on_commit_callbacks):
    lms.ags_mode, lms.ags_delay = "timeout", 1.0
    _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    sync = GradeSync.objects.get(user=assignment)
    assert lms.score_attempts == 2 and not lms.scores
    assert sync.status == "failed" and sync.last_error == "the LMS did not answer within 0.3 s"


def test_rounds_that_are_not_lms_assignments_send_nothing(lms, platform, course, round_, student, fake_model,
                                                          django_capture_on_commit_callbacks):
    _fool_the_model(student, round_, django_capture_on_commit_callbacks)
    assert lms.score_attempts == 0 and not GradeSync.objects.exists()


def test_a_student_who_never_wrote_in_the_round_is_sent_nothing(client, assignment, lms, round_, instructor,
                                                                 fake_model, django_capture_on_commit_callbacks):
    claims = lms.resource_link_claims(sub="s2", roles=[ROLE_LEARNER], custom={"stumper_round_id": str(round_.pk)})
    login_and_launch(client, lms, claims)  # s2 is in the course, with an LMS identity, and writes nothing
    idle = LtiIdentity.objects.get(subject="s2").user
    _fool_the_model(assignment, round_, django_capture_on_commit_callbacks)
    client.force_login(instructor)
    client.post(f"/lti/rounds/{round_.pk}/grades/resend/")  # "send all grades again": every student of the link
    assert {s["score"]["userId"] for s in lms.scores} == {"s1"}  # a blank in the gradebook for s2, not a zero
    assert not GradeSync.objects.filter(user=idle).exists()


def test_a_zero_sent_before_is_withdrawn_rather_than_sent_again(client, assignment, lms, round_, instructor):
    from lti.models import ResourceLink

    # Before this was fixed, a student with no question was sent scoreGiven 0 ("Submitted", "FullyGraded").
    GradeSync.objects.create(resource_link=ResourceLink.objects.get(), user=assignment, status="sent", score_given=0.0,
                             score_maximum=10.0)
    client.force_login(instructor)
    client.post(f"/lti/rounds/{round_.pk}/grades/resend/")
    (received,) = lms.scores
    assert "scoreGiven" not in received["score"] and received["score"]["userId"] == "s1"
    assert (received["score"]["activityProgress"], received["score"]["gradingProgress"]) == ("Initialized", "NotReady")
    assert GradeSync.objects.get(user=assignment).score_given is None
