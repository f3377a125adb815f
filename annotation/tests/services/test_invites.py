"""Project membership without an invite link (an LMS assignment of the project): a student who is a member
annotates in that project, and in no other; the membership is the one an invite link gives."""
import pytest
from django.urls import reverse

from annotation.models import ProjectMember
from annotation.selectors.projects import can_annotate_in, project_for_worker
from annotation.selectors.worker_home import projects_for_worker
from annotation.services.authoring import session_start_next
from annotation.services.invites import invite_accept, invite_create, project_member_add
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


class ProjectMemberAddTests:
    def test_is_idempotent_and_keeps_the_first_membership(self, project, student, crowdworker):
        invite = invite_create(project=project, created_by=project.owner, days=None)
        first = invite_accept(invite=invite, user=crowdworker)
        assert project_member_add(project=project, user=crowdworker) == first
        assert ProjectMember.objects.get(worker=crowdworker).invite == invite
        member = project_member_add(project=project, user=student)
        assert project_member_add(project=project, user=student) == member and member.invite is None

    def test_a_student_member_annotates_in_that_project_only(self, client, project, owner, student):
        other = make_project(owner, name="other project")
        add_paragraphs(project, [EN_CONTEXT])
        add_paragraphs(other, [EN_CONTEXT])
        project_member_add(project=project, user=student)
        assert can_annotate_in(student, project) and not can_annotate_in(student, other)
        session = session_start_next(user=student, project=project)
        assert session is not None and session.worker == student
        with pytest.raises(AccessError, match="Students annotate only in the projects"):
            project_for_worker(user=student, project_id=other.pk)
        with pytest.raises(AccessError):
            session_start_next(user=student, project=other)
        assert [task.project for task in projects_for_worker(user=student)] == [project]
        client.force_login(student)
        page = client.get(reverse("annotation:task_list")).content.decode()
        assert f'id="project-{project.pk}"' in page and "other project" not in page
        assert "Your account is a student account" not in page
        assert client.post(reverse("annotation:task_start", args=[other.pk, "authoring"])).status_code == 403
        # Their navigation leads back to the task list.
        assert f'<a href="{reverse("annotation:task_list")}">Tasks</a>' in page

    def test_invite_links_stay_for_crowdworkers(self, project, student):
        invite = invite_create(project=project, created_by=project.owner, days=None)
        with pytest.raises(AccessError, match="Invite links are for crowdworkers"):
            invite_accept(invite=invite, user=student)
        assert not ProjectMember.objects.exists()

    def test_the_owner_sees_members_without_a_link_on_the_invites_page(self, client, project, owner, student, crowdworker):
        invite = invite_create(project=project, created_by=owner, days=None)
        invite_accept(invite=invite, user=crowdworker)
        project_member_add(project=project, user=student)
        client.force_login(owner)
        page = client.get(reverse("annotation:project_invites", args=[project.pk])).content.decode()
        assert "Members <span class=\"muted\">(2)</span>" in page
        assert page.count("without a link (a student of an LMS assignment)") == 1
