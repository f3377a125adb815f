"""An owner's review over the API: paragraphs (restoring discarded ones) and second-pass flags."""
import pytest
from django.urls import reverse

from annotation.models import Paragraph, QuestionFlag, SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import api_client, submitted_paragraph

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged(project, crowdworker, worker2):
    """crowdworker's validation paragraph; worker2 answered its first question "unanswerable" and
    proposed removing it."""
    paragraph = submitted_paragraph(project, crowdworker)
    session = session_start_next(user=worker2, project=project, kind="second_pass")
    question = SpanQuestion.objects.filter(paragraph=paragraph).order_by("position").first()
    second_pass_answer_save(session=session, user=worker2, question_id=question.pk, is_impossible=True,
                            flag={"proposal": "remove_question", "reason": "not in the text"})
    return QuestionFlag.objects.get()


class ParagraphApiTests:
    def test_list_filter_and_restore(self, owner, project, paragraph):
        client = api_client(owner)
        url = reverse("annotation_api:project_paragraphs", args=[project.pk])
        assert client.get(url).json()["results"][0]["context"] == paragraph.context
        Paragraph.objects.filter(pk=paragraph.pk).update(status="discarded")
        discarded = client.get(url, {"status": "discarded", "split": "train"}).json()["results"]
        assert [p["id"] for p in discarded] == [paragraph.pk]
        response = client.post(reverse("annotation_api:paragraph_restore", args=[paragraph.pk]))
        assert response.status_code == 200 and response.data["status"] == "open"
        again = client.post(reverse("annotation_api:paragraph_restore", args=[paragraph.pk]))
        assert again.status_code == 400 and "not discarded" in again.data["paragraph"][0]
        assert client.get(url, {"status": "lost"}).status_code == 400

    @pytest.mark.parametrize("who", ["other_instructor", "crowdworker"])
    def test_others_get_403(self, project, paragraph, who, request):
        Paragraph.objects.filter(pk=paragraph.pk).update(status="discarded")
        client = api_client(request.getfixturevalue(who))
        assert client.get(reverse("annotation_api:project_paragraphs", args=[project.pk])).status_code == 403
        assert client.post(reverse("annotation_api:paragraph_restore", args=[paragraph.pk])).status_code == 403
        assert Paragraph.objects.get(pk=paragraph.pk).status == "discarded"


class FlagApiTests:
    def test_list_open_flags_and_accept_one(self, owner, project, flagged):
        client = api_client(owner)
        url = reverse("annotation_api:project_flags", args=[project.pk])
        listed = client.get(url).json()["results"]
        assert [(f["id"], f["proposal"], f["raised_by"]) for f in listed] == [(flagged.pk, "remove_question", "worker2")]
        assert listed[0]["question"]["answers"][0]["text"] == "the Mediterranean Sea"
        response = client.post(reverse("annotation_api:flag_resolve", args=[flagged.pk]),
                               {"decision": "accept", "note": "right"}, format="json")
        assert response.status_code == 200, response.data
        assert response.data["status"] == "accepted" and response.data["resolved_by"] == "prof"
        assert SpanQuestion.objects.get(pk=flagged.question_id).status == "removed"
        assert client.get(url).json()["count"] == 0
        assert client.get(url, {"status": ""}).json()["count"] == 1
        twice = client.post(reverse("annotation_api:flag_resolve", args=[flagged.pk]), {"decision": "reject"},
                            format="json")
        assert twice.status_code == 400 and "already resolved" in twice.data["flag"][0]

    def test_bad_decision_is_400_and_changes_nothing(self, owner, flagged):
        response = api_client(owner).post(reverse("annotation_api:flag_resolve", args=[flagged.pk]),
                                          {"decision": "maybe"}, format="json")
        assert response.status_code == 400 and "decision" in response.data
        assert QuestionFlag.objects.get().status == "open"

    @pytest.mark.parametrize("who", ["other_instructor", "crowdworker", "worker2"])
    def test_others_get_403(self, project, flagged, who, request):
        client = api_client(request.getfixturevalue(who))
        assert client.get(reverse("annotation_api:project_flags", args=[project.pk])).status_code == 403
        response = client.post(reverse("annotation_api:flag_resolve", args=[flagged.pk]), {"decision": "accept"},
                               format="json")
        assert response.status_code == 403 and QuestionFlag.objects.get().status == "open"
