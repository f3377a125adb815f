"""The owner's participants page: export a participant's data, delete it after confirming; nobody else can."""
import json

import pytest
from django.urls import reverse

from annotation.models import ParticipantDeletion, SpanQuestion
from annotation.tests.factories import make_project, submitted_paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture
def written(project, crowdworker):
    return submitted_paragraph(project, crowdworker)


def _urls(project, worker_id: int) -> dict[str, str]:
    return {"list": reverse("annotation:project_participants", args=[project.pk]),
            "export": reverse("annotation:participant_data_export", args=[project.pk, worker_id]),
            "delete": reverse("annotation:participant_data_delete", args=[project.pk, worker_id])}


class ParticipantPagesTests:
    def test_the_owner_lists_exports_confirms_and_deletes(self, client, project, written, crowdworker):
        urls = _urls(project, crowdworker.pk)
        client.force_login(project.owner)
        listing = client.get(urls["list"]).content.decode()
        assert "worker" in listing and urls["export"] in listing and urls["delete"] in listing
        export = client.get(urls["export"])
        assert export["Content-Type"] == "application/json"
        assert export["Content-Disposition"] == f'attachment; filename="nile-participant-{crowdworker.pk}.json"'
        assert len(json.loads(export.content)["questions"]) == 3
        confirm = client.get(urls["delete"])
        assert confirm.status_code == 200 and SpanQuestion.objects.filter(author=crowdworker).count() == 3
        assert 'method="post"' in confirm.content.decode()
        done = client.post(urls["delete"], follow=True)
        assert done.redirect_chain[-1][0] == urls["list"]
        assert "was deleted" in done.content.decode()
        assert SpanQuestion.objects.filter(author=crowdworker).count() == 0
        assert ParticipantDeletion.objects.get().requested_by == project.owner
        assert client.get(urls["export"]).status_code == 404  # nothing of theirs is left
        assert client.post(urls["delete"]).status_code == 404

    def test_staff_may_do_it_too(self, client, project, written, crowdworker, staff):
        client.force_login(staff)
        assert client.get(_urls(project, crowdworker.pk)["export"]).status_code == 200

    def test_another_owner_the_worker_and_anonymous_are_refused(self, client, project, written, crowdworker,
                                                                other_instructor):
        urls = _urls(project, crowdworker.pk)
        for user, expected in ((other_instructor, 403), (crowdworker, 403)):
            client.force_login(user)
            for name, url in urls.items():
                assert client.get(url).status_code == expected, (user, name)
            assert client.post(urls["delete"]).status_code == expected
        client.logout()
        for url in urls.values():
            assert client.get(url).status_code == 302  # to sign in
        assert client.post(urls["delete"]).status_code == 302
        assert SpanQuestion.objects.filter(author=crowdworker).count() == 3
        assert not ParticipantDeletion.objects.exists()

    def test_someone_elses_project_or_a_non_participant_is_404(self, client, project, written, crowdworker, worker2,
                                                              other_instructor):
        theirs = make_project(other_instructor, name="amazon")
        submitted_paragraph(theirs, worker2)
        client.force_login(project.owner)
        # worker2 is a participant of the other owner's project only; a made-up id is nobody.
        for worker_id in (worker2.pk, 999999):
            urls = _urls(project, worker_id)
            assert client.get(urls["export"]).status_code == 404
            assert client.post(urls["delete"]).status_code == 404
        assert client.get(_urls(theirs, worker2.pk)["export"]).status_code == 403
        assert client.post(_urls(theirs, worker2.pk)["delete"]).status_code == 403
        assert SpanQuestion.objects.filter(author=worker2).count() == 3
