"""A participant's data over the owner API: list, export, delete (idempotent); nobody else can."""
import pytest
from django.urls import reverse

from annotation.models import ParticipantDeletion, SpanQuestion
from annotation.tests.factories import api_client, submitted_paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture
def written(project, crowdworker):
    return submitted_paragraph(project, crowdworker)


def _url(name: str, project, worker=None) -> str:
    args = [project.pk] if worker is None else [project.pk, worker.pk]
    return reverse(f"annotation_api:{name}", args=args)


class ParticipantApiTests:
    def test_list_export_delete(self, owner, project, written, crowdworker):
        client = api_client(owner)
        listed = client.get(_url("project_participants", project)).json()["participants"]
        assert listed == [{"id": crowdworker.pk, "username": "worker", "sessions": 1, "questions": 3,
                           "second_pass_answers": 0, "flags": 0}]
        export = client.get(_url("participant_data_export", project, crowdworker)).json()
        assert [q["question"] for q in export["questions"]] == list(
            SpanQuestion.objects.filter(author=crowdworker).order_by("created_at", "id").values_list("question",
                                                                                                   flat=True))
        deleted = client.post(_url("participant_data_delete", project, crowdworker))
        assert deleted.status_code == 200
        assert deleted.json()["counts"]["questions"] == 3 and deleted.json()["counts"]["sessions"] == 1
        assert not SpanQuestion.objects.filter(author=crowdworker).exists()
        assert ParticipantDeletion.objects.count() == 1
        # Nothing of theirs is left: they are no longer a participant.
        assert client.post(_url("participant_data_delete", project, crowdworker)).status_code == 404
        assert client.get(_url("project_participants", project)).json() == {"participants": []}

    @pytest.mark.parametrize("who", ["other_instructor", "crowdworker"])
    def test_others_get_403(self, project, written, crowdworker, who, request):
        client = api_client(request.getfixturevalue(who))
        for name in ("project_participants", "participant_data_export"):
            worker = None if name == "project_participants" else crowdworker
            assert client.get(_url(name, project, worker)).status_code == 403
        assert client.post(_url("participant_data_delete", project, crowdworker)).status_code == 403
        assert SpanQuestion.objects.filter(author=crowdworker).count() == 3

    def test_anonymous_gets_401_and_a_non_participant_404(self, owner, project, written, worker2):
        from rest_framework.test import APIClient

        assert APIClient().post(_url("participant_data_delete", project, worker2)).status_code == 401
        assert api_client(owner).get(_url("participant_data_export", project, worker2)).status_code == 404
