"""Annotation projects as LMS assignments: the instructor deep-links a project; a learner's launch makes them a
worker of it (the membership an invite link gives) on its task card; an instructor who manages it lands on its
owner page; a link to a deleted project, or to a project whose owner does not teach the course, opens nothing."""
import pytest

from annotation.models import ProjectMember
from annotation.services.projects import project_update
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project
from courses.models import Enrollment
from lti.models import ContextLink, LtiIdentity, ResourceLink
from lti.tests.conftest import login_and_launch, return_to_lms
from lti.tests.platform_sim import ROLE_INSTRUCTOR, ROLE_LEARNER, ROLE_TA

pytestmark = pytest.mark.django_db
CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"  # Deep Linking 2.0 §4.5
MISSING = "no longer exists or is not part of this course"


@pytest.fixture
def linked(platform, lms, course):
    return ContextLink.objects.create(platform=platform, context_id=lms.context_id, course=course)


@pytest.fixture
def lms_prof(client, lms, linked):
    """The LMS instructor's Stumper account (made by their first launch): an instructor of the linked course."""
    login_and_launch(client, lms, lms.resource_link_claims(sub="prof", roles=[ROLE_INSTRUCTOR], resource_link_id="home"))
    client.logout()
    return LtiIdentity.objects.get(subject="prof").user


@pytest.fixture
def project(lms_prof):
    project = make_project(lms_prof, name="Nile questions")
    add_paragraphs(project, [EN_CONTEXT])
    return project


def project_launch(client, lms, project_id: int, *, sub: str, roles: list[str]):
    claims = lms.resource_link_claims(sub=sub, roles=roles, resource_link_id="project-link",
                                      custom={"stumper_project_id": str(project_id)})
    return login_and_launch(client, lms, claims)[0]


def test_instructor_picks_a_project_and_the_lms_gets_a_graded_resource_link(client, lms, project, round_, instructor,
                                                                             other_instructor):
    make_project(instructor, name="The course owners project")  # of this course, but not this account's to manage
    foreign = make_project(other_instructor, name="Another courses project")
    response, _ = login_and_launch(client, lms, lms.deep_linking_claims(sub="prof", roles=[ROLE_INSTRUCTOR]))
    picker = client.get(response["Location"]).content.decode()
    assert "Nile questions" in picker and round_.title in picker
    assert "course owners project" not in picker and "Another courses project" not in picker
    both = client.post(response["Location"], {"round": round_.pk, "project": project.pk, "score_maximum": "5"})
    assert "Choose one round or one annotation project." in both.content.decode()
    forged = client.post(response["Location"], {"project": foreign.pk, "score_maximum": "5"})
    assert "Select a valid choice" in forged.content.decode() and not lms.deep_link_responses

    message = return_to_lms(lms, client.post(response["Location"], {"project": project.pk, "score_maximum": "5"}))
    assert message["https://purl.imsglobal.org/spec/lti/claim/message_type"] == "LtiDeepLinkingResponse"
    (item,) = message[CONTENT_ITEMS]
    assert item == {
        "type": "ltiResourceLink", "title": "Nile questions", "url": "http://testserver/lti/launch/",
        "custom": {"stumper_project_id": str(project.pk)},
        "lineItem": {"scoreMaximum": 5.0, "label": "Nile questions", "resourceId": f"stumper-project-{project.pk}",
                     "tag": "stumper"},
    }


def test_a_learner_becomes_a_worker_of_the_project_and_lands_on_its_tasks(client, lms, linked, project):
    response = project_launch(client, lms, project.pk, sub="learner", roles=[ROLE_LEARNER])
    assert response["Location"] == f"/annotation/#project-{project.pk}"
    learner = LtiIdentity.objects.get(subject="learner").user
    member = ProjectMember.objects.get(project=project)
    assert (member.worker, member.invite, learner.role) == (learner, None, "student")
    assert Enrollment.objects.filter(user=learner, course=linked.course).exists()
    link = ResourceLink.objects.get(resource_link_id="project-link")
    assert (link.project, link.round) == (project, None)
    tasks = client.get("/annotation/").content.decode()
    assert f'id="project-{project.pk}"' in tasks and "Write questions" in tasks
    started = client.post(f"/annotation/projects/{project.pk}/start/authoring/")
    assert started.status_code == 302 and started["Location"].startswith("/annotation/sessions/")
    assert client.get(started["Location"]).status_code == 200
    client.logout()
    project_launch(client, lms, project.pk, sub="learner", roles=[ROLE_LEARNER])  # again: still one membership
    assert ProjectMember.objects.count() == 1


def test_a_learner_launching_a_closed_project_is_told_so(client, lms, project):
    project = project_update(project=project, user=project.owner, is_active=False)
    response = project_launch(client, lms, project.pk, sub="learner", roles=[ROLE_LEARNER])
    assert response["Location"] == f"/annotation/#project-{project.pk}"
    assert "Nile questions is not taking annotations at the moment" in client.get("/annotation/").content.decode()


@pytest.mark.parametrize("role", [ROLE_INSTRUCTOR, ROLE_TA])
def test_an_instructor_who_manages_the_project_lands_on_its_owner_page(client, lms, project, lms_prof, role):
    response = project_launch(client, lms, project.pk, sub="prof", roles=[role])
    assert response["Location"] == f"/annotation/projects/{project.pk}/"
    assert client.get(response["Location"]).status_code == 200
    assert not ProjectMember.objects.exists()  # an owner needs no membership


def test_a_teaching_assistant_who_does_not_manage_it_works_in_it(client, lms, linked, project):
    response = project_launch(client, lms, project.pk, sub="ta", roles=[ROLE_TA])
    ta = LtiIdentity.objects.get(subject="ta").user
    assert response["Location"] == f"/annotation/#project-{project.pk}"
    assert linked.course.instructors.filter(pk=ta.pk).exists()
    assert ProjectMember.objects.filter(project=project, worker=ta).exists()
    assert client.get(f"/annotation/projects/{project.pk}/").status_code == 403  # not their owner page


def test_a_link_to_a_deleted_project_opens_nothing_and_says_so(client, lms, linked, project):
    project_launch(client, lms, project.pk, sub="early", roles=[ROLE_LEARNER])
    project_id = project.pk
    project.delete()
    assert ResourceLink.objects.get(resource_link_id="project-link").project is None
    client.logout()
    response = project_launch(client, lms, project_id, sub="late", roles=[ROLE_LEARNER])
    assert response["Location"] == "/dashboard/" and MISSING in client.get("/dashboard/").content.decode()
    assert not ProjectMember.objects.exists()
    client.logout()
    response = project_launch(client, lms, project_id, sub="prof", roles=[ROLE_INSTRUCTOR])
    assert response["Location"] == f"/courses/{linked.course.pk}/"
    assert MISSING in client.get(response["Location"]).content.decode()


def test_a_project_whose_owner_does_not_teach_the_course_cannot_be_opened_through_a_copied_link(
        client, lms, linked, other_instructor):
    from courses.services import course_create

    course_create(owner=other_instructor, name="Another course")
    foreign = make_project(other_instructor, name="Another courses project")
    add_paragraphs(foreign, [EN_CONTEXT])
    response = project_launch(client, lms, foreign.pk, sub="learner", roles=[ROLE_LEARNER])
    assert response["Location"] == "/dashboard/" and MISSING in client.get("/dashboard/").content.decode()
    assert not ProjectMember.objects.exists()
    assert ResourceLink.objects.get(resource_link_id="project-link").project is None
    assert client.post(f"/annotation/projects/{foreign.pk}/start/authoring/").status_code == 403
    client.logout()
    response = project_launch(client, lms, foreign.pk, sub="prof", roles=[ROLE_INSTRUCTOR])
    assert response["Location"] == f"/courses/{linked.course.pk}/" and not ProjectMember.objects.exists()
