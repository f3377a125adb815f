"""Names and Role Provisioning Services 2.0: roster sync by button and by the periodic task."""
import pytest
from celery import current_app as app
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import make_user
from annotation.services.invites import project_member_add
from annotation.tests.factories import make_project, submitted_paragraph
from collector.services.questions import question_submit
from collector.tests.factories import question_data
from courses.services import course_join
from lti.models import ContextLink, LtiIdentity, ResourceLink, RosterMember
from lti.tasks import roster_sync_all_task
from lti.tests.conftest import login_and_launch
from lti.tests.platform_sim import ROLE_INSTRUCTOR, ROLE_LEARNER

pytestmark = pytest.mark.django_db


def member(user_id: str, name: str, roles: list[str]) -> dict:
    """One entry of an NRPS 2.0 membership container's "members" (§3.6), as written by the platform."""
    return {"status": "Active", "name": name, "given_name": name.split()[0], "family_name": name.split()[-1],
            "email": f"{user_id}@lms.example", "user_id": user_id, "roles": roles}


@pytest.fixture
def linked(platform, lms, course):
    return ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)


def test_roster_sync_button_shows_who_has_not_started(client, lms, linked, round_, instructor, fake_model):
    login_and_launch(client, lms, lms.resource_link_claims(sub="s1", roles=[ROLE_LEARNER]))  # memberships URL comes with it
    login_and_launch(client, lms, lms.resource_link_claims(sub="s2", roles=[ROLE_LEARNER]))
    s1 = LtiIdentity.objects.get(subject="s1").user
    question_submit(user=s1, round_id=round_.pk, **question_data())
    lms.members = [member("s1", "Ada Lovelace", [ROLE_LEARNER]), member("s2", "Alan Turing", [ROLE_LEARNER]),
                   member("s3", "Grace Hopper", [ROLE_LEARNER]), member("t1", "Prof Knuth", [ROLE_INSTRUCTOR])]
    client.force_login(instructor)
    assert f'href="/lti/courses/{linked.course.pk}/roster/"' in client.get(f"/courses/{linked.course.pk}/").content.decode()
    assert client.post(f"/lti/courses/{linked.course.pk}/roster/sync/").status_code == 302
    assert set(RosterMember.objects.values_list("subject", flat=True)) == {"s1", "s2", "s3", "t1"}
    page = client.get(f"/lti/courses/{linked.course.pk}/roster/").content.decode()
    assert "Ada Lovelace</td>" in page and "1 question</td>" in page
    assert page.count("not started (0 questions)") == 1  # Alan opened Stumper but wrote nothing
    assert page.count("not started (never opened Stumper)") == 2  # Grace and the instructor never launched


def test_periodic_sync_replaces_the_roster_and_keeps_it_when_the_lms_fails(client, lms, linked, instructor):
    login_and_launch(client, lms, lms.resource_link_claims(sub="s1", roles=[ROLE_LEARNER]))
    lms.members = [member("s1", "Ada Lovelace", [ROLE_LEARNER]), member("s2", "Alan Turing", [ROLE_LEARNER])]
    roster_sync_all_task.delay()
    lms.members = [member("s1", "Ada Lovelace", [ROLE_LEARNER])]  # Alan dropped the course
    roster_sync_all_task.delay()
    assert list(RosterMember.objects.values_list("subject", flat=True)) == ["s1"]
    ContextLink.objects.filter(pk=linked.pk).update(memberships_url=f"{lms.url}/no-such-service")
    roster_sync_all_task.delay()
    linked.refresh_from_db()
    assert "404" in linked.roster_error and RosterMember.objects.count() == 1
    client.force_login(instructor)
    assert "Last sync failed" in client.get(f"/lti/courses/{linked.course.pk}/roster/").content.decode()


def test_celery_beat_schedules_the_periodic_sync():
    # What `celery -A config beat` (scripts/start.sh, compose's beat service) reads: every entry names a task
    # the worker knows, and the roster sync runs every STUMPER_LTI_ROSTER_SYNC_SECONDS.
    assert all(entry["task"] in app.tasks for entry in app.conf.beat_schedule.values())
    entry = app.conf.beat_schedule["lti-roster-sync"]
    assert app.tasks[entry["task"]].run == roster_sync_all_task.run
    assert entry["schedule"] == settings.STUMPER_LTI_ROSTER_SYNC_SECONDS > 0


def test_only_the_course_instructors_see_the_roster(client, linked, student):
    client.force_login(student)
    assert client.get(f"/lti/courses/{linked.course.pk}/roster/").status_code == 403


def test_the_roster_page_makes_as_many_queries_for_ten_members_as_for_two(client, linked, round_, instructor,
                                                                          fake_model):
    project = make_project(instructor, name="Nile questions")
    ResourceLink.objects.create(context=linked, resource_link_id="nile", project=project)  # a project assignment too

    def add_members(numbers: range) -> None:
        for i in numbers:
            user = make_user(f"lms-{i}")
            course_join(user=user, join_code=linked.course.join_code)
            LtiIdentity.objects.create(platform=linked.platform, subject=f"s{i}", user=user)
            RosterMember.objects.create(context=linked, subject=f"s{i}", name=f"Member {i}", roles=[ROLE_LEARNER])
            question_submit(user=user, round_id=round_.pk, **question_data(prompt=f"Q{i}. He"))
            project_member_add(project=project, user=user)
            submitted_paragraph(project, user, split="train")

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            page = client.get(f"/lti/courses/{linked.course.pk}/roster/")
        assert page.status_code == 200
        return len(captured), page.content.decode()

    client.force_login(instructor)
    add_members(range(2))
    few, page = queries()
    assert page.count("1 question, 1 paragraph annotated</td>") == 2
    add_members(range(2, 10))
    many, page = queries()
    assert page.count("1 question, 1 paragraph annotated</td>") == 10 and many == few


def test_a_stored_memberships_url_off_the_platform_hosts_is_not_fetched(lms, linked, settings):
    """Checked again when fetched (a URL stored before the rule, or a registration changed since): the platform's
    session reaches only its hosts, and its addresses are checked too."""
    from lti.services.roster import RosterSyncFailed, roster_sync

    lms.members = [member("s1", "Ada Lovelace", [ROLE_LEARNER])]
    for url, reason in [("http://elsewhere.example/nrps", "elsewhere.example is not a host of this LMS registration"),
                        (f"{lms.url}/nrps/{lms.context_id}/memberships", "resolves to a loopback, private")]:
        settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = "elsewhere" in url  # the second: the simulator's own loopback
        ContextLink.objects.filter(pk=linked.pk).update(memberships_url=url)
        with pytest.raises(RosterSyncFailed, match=reason):
            roster_sync(context_id=linked.pk)
    assert not RosterMember.objects.exists()
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True
    roster_sync(context_id=linked.pk)
    assert RosterMember.objects.get().subject == "s1"
