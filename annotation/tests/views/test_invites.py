"""Invite links: the owner creates and revokes them; a crowdworker signs up (or signs in) from the
link and joins; dead links explain themselves; invite-only projects show to members only."""
import html
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from annotation.models import ProjectInvite, ProjectMember
from annotation.services.invites import invite_accept, invite_create, invite_revoke
from annotation.tests.factories import make_project

PASSWORD = "a-long-test-password-42"


def make_user(username: str, role: str = User.Role.STUDENT) -> User:
    return user_create(username=username, password=PASSWORD, role=role)


@pytest.fixture
def project(db):
    return make_project(make_user("prof", role=User.Role.INSTRUCTOR), name="Nile")


def join_url(invite) -> str:
    return reverse("annotation:invite_join", args=[invite.token])


def signup_data(**overrides) -> dict:
    return {"username": "zahra", "email": "", "password1": PASSWORD, "password2": PASSWORD, **overrides}


@pytest.mark.django_db
class InviteOwnerTests:
    def test_owner_creates_a_link_shown_on_the_page_and_revokes_it(self, client, project):
        client.force_login(project.owner)
        client.post(reverse("annotation:project_invites", args=[project.pk]), {"days": "7"})
        invite = ProjectInvite.objects.get(project=project)
        assert timedelta(days=6, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=7)
        page = client.get(reverse("annotation:project_invites", args=[project.pk])).content.decode()
        assert f"http://testserver{join_url(invite)}" in page
        client.post(reverse("annotation:invite_revoke", args=[invite.pk]))
        invite.refresh_from_db()
        assert invite.state == ProjectInvite.State.REVOKED

    def test_a_link_until_revoked_has_no_expiry(self, client, project):
        client.force_login(project.owner)
        client.post(reverse("annotation:project_invites", args=[project.pk]), {"days": ""})
        assert ProjectInvite.objects.get(project=project).expires_at is None

    def test_others_may_not_manage_invites(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        for user in (make_user("other", role=User.Role.INSTRUCTOR), make_user("cw", role=User.Role.CROWDWORKER)):
            client.force_login(user)
            assert client.get(reverse("annotation:project_invites", args=[project.pk])).status_code == 403
            assert client.post(reverse("annotation:project_invites", args=[project.pk]), {"days": "7"}).status_code == 403
            assert client.post(reverse("annotation:invite_revoke", args=[invite.pk])).status_code == 403
        invite.refresh_from_db()
        assert invite.revoked_at is None and ProjectInvite.objects.count() == 1


@pytest.mark.django_db
class InviteJoinTests:
    def test_a_newcomer_signs_up_as_crowdworker_and_joins(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        page = client.get(join_url(invite)).content.decode()
        assert "Join Nile" in page and "Make my account and join" in page
        response = client.post(join_url(invite), signup_data(), follow=True)
        assert response.redirect_chain[-1][0] == reverse("annotation:task_list")
        user = User.objects.get(username="zahra")
        assert user.role == User.Role.CROWDWORKER
        assert ProjectMember.objects.filter(project=project, worker=user, invite=invite).exists()
        assert "Welcome to Nile" in response.content.decode()

    def test_signup_errors_are_shown_and_nothing_is_made(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        make_user("zahra")
        page = client.post(join_url(invite), signup_data(username="newbie", password1="short", password2="short")).content.decode()
        assert "too short" in page
        page = client.post(join_url(invite), signup_data()).content.decode()
        assert "This username is taken" in page
        assert not ProjectMember.objects.exists()

    def test_a_signed_in_crowdworker_joins_with_one_click(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=None)
        worker = make_user("cw", role=User.Role.CROWDWORKER)
        client.force_login(worker)
        assert "You are signed in as <strong>cw</strong>" in client.get(join_url(invite)).content.decode()
        client.post(join_url(invite))
        client.post(join_url(invite))  # twice: still one membership
        assert ProjectMember.objects.filter(project=project, worker=worker).count() == 1

    def test_sign_in_link_comes_back_to_the_invite(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        make_user("cw", role=User.Role.CROWDWORKER)
        page = client.get(join_url(invite)).content.decode()
        assert f'{reverse("accounts:login")}?next={join_url(invite)}' in page
        response = client.post(f'{reverse("accounts:login")}?next={join_url(invite)}',
                               {"username": "cw", "password": PASSWORD, "next": join_url(invite)})
        assert response.url == join_url(invite)

    def test_a_student_is_told_the_link_is_for_crowdworkers(self, client, project):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        student = make_user("alice")
        client.force_login(student)
        assert "Invite links are for crowdworkers" in client.get(join_url(invite)).content.decode()
        assert client.post(join_url(invite)).status_code == 403
        assert not ProjectMember.objects.exists()

    @pytest.mark.parametrize("kill, status, text", [
        ("revoke", 410, "withdrawn by the project's owner"),
        ("expire", 410, "This invite link expired on"),
        ("unknown", 404, "This invite link does not exist"),
    ])
    def test_dead_links_get_a_clear_page(self, client, project, kill, status, text):
        invite = invite_create(project=project, created_by=project.owner, days=7)
        if kill == "revoke":
            invite_revoke(invite=invite)
        elif kill == "expire":
            ProjectInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
        url = join_url(invite) if kill != "unknown" else reverse("annotation:invite_join", args=["nope"])
        for response in (client.get(url), client.post(url, signup_data())):
            assert response.status_code == status
            page = html.unescape(response.content.decode())
            assert text in page and "This invite link does not work" in page
        assert not User.objects.filter(username="zahra").exists()


@pytest.mark.django_db
class InviteOnlyProjectTests:
    def test_invite_only_project_shows_to_members_only(self, client, project):
        client.force_login(project.owner)
        client.post(reverse("annotation:project_access", args=[project.pk]), {"invite_only": "on"})
        project.refresh_from_db()
        assert project.invite_only
        member, outsider = make_user("cw1", role=User.Role.CROWDWORKER), make_user("cw2", role=User.Role.CROWDWORKER)
        invite_accept(invite=invite_create(project=project, created_by=project.owner, days=1),
                      user=member)
        start = reverse("annotation:task_start", args=[project.pk, "authoring"])
        client.force_login(member)
        assert "Nile" in client.get(reverse("annotation:task_list")).content.decode()
        assert client.post(start).status_code == 302
        other = Client()  # the member's flash message must not leak into this page
        other.force_login(outsider)
        assert "Nile" not in other.get(reverse("annotation:task_list")).content.decode()
        response = other.post(start)
        assert response.status_code == 403 and "invited crowdworkers only" in response.content.decode()

    def test_open_projects_stay_open_to_every_crowdworker(self, client, project):
        client.force_login(make_user("cw", role=User.Role.CROWDWORKER))
        assert "Nile" in client.get(reverse("annotation:task_list")).content.decode()
