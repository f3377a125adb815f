"""The REST API: next task, questions, submit, discard, second-pass answers, stats and export."""
import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotation.models import AnnotationSession, SpanQuestion
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, ZWNJ, answer, selection, submitted_paragraph

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _next(client, project, kind="authoring"):
    return client.post(reverse("annotation_api:task_next", args=[project.pk]), {"kind": kind}, format="json")


class TaskNextApiTests:
    def test_returns_the_paragraph_in_its_direction_and_resumes(self, fa_project, fa_paragraph, crowdworker):
        client = _client(crowdworker)
        first = _next(client, fa_project).json()["session"]
        assert first["paragraph"]["context"] == FA_CONTEXT and first["project"]["direction"] == "rtl"
        assert first["kind"] == "authoring" and first["questions"] == []
        assert _next(client, fa_project).json()["session"]["id"] == first["id"]

    def test_nothing_left_and_bad_kind(self, project, crowdworker):
        client = _client(crowdworker)
        assert _next(client, project).json() == {"session": None,
                                                  "detail": "No paragraph needs this kind of work right now."}
        assert _next(client, project, kind="everything").status_code == 400

    def test_token_auth_works_and_anonymous_is_refused(self, project, paragraph, crowdworker):
        token = Token.objects.create(user=crowdworker)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        assert _next(client, project).status_code == 200
        assert _next(APIClient(), project).status_code in (401, 403)

    def test_students_get_403_with_the_reason(self, project, paragraph, student):
        response = _next(_client(student), project)
        assert response.status_code == 403 and "crowdworkers" in response.json()["detail"]


class QuestionApiTests:
    def test_add_edit_delete_and_submit(self, fa_project, fa_paragraph, crowdworker):
        client = _client(crowdworker)
        session_id = _next(client, fa_project).json()["session"]["id"]
        word = "کتاب" + ZWNJ + "خانه" + ZWNJ + "های"
        add = client.post(reverse("annotation_api:question_add", args=[session_id]),
                          {"question": "چه چیزی کتاب دارد؟", "selection": selection(FA_CONTEXT, word)}, format="json")
        assert add.status_code == 201
        body = add.json()
        assert body["answers"][0]["text"] == word
        assert body["answers"][0]["answer_start"] == FA_CONTEXT.index(word)
        assert body["answers"][0]["start16"] == selection(FA_CONTEXT, word)["start16"]
        second = client.post(reverse("annotation_api:question_add", args=[session_id]),
                             {"question": "چه کسی؟", "is_impossible": True}, format="json").json()
        edited = client.post(reverse("annotation_api:question_update", args=[second["id"]]),
                             {"question": "چند کتاب؟", "answer": answer(FA_CONTEXT, "۲ میلیون")}, format="json")
        assert edited.status_code == 200 and edited.json()["answers"][0]["text"] == "۲ میلیون"
        submit = client.post(reverse("annotation_api:session_submit", args=[session_id]), {}, format="json")
        assert submit.status_code == 200 and submit.json()["status"] == "submitted"
        late = client.post(reverse("annotation_api:question_delete", args=[second["id"]]), {}, format="json")
        assert late.status_code == 400

    @pytest.mark.parametrize(
        ("body", "field", "message"),
        [
            ({"question": "", "is_impossible": True}, "question", "The question is empty."),
            ({"question": "Q?", "answer": {"text": "Nile", "answer_start": 0}}, "answer", "does not match"),
            ({"question": "Q?", "answer": {"text": "Nile", "answer_start": 99999}}, "answer", "outside the paragraph"),
            ({"question": "Q?", "is_impossible": True, "selection": {"start16": 0, "end16": 3}}, "answer",
             "unanswerable question cannot have an answer span"),
        ],
    )
    def test_bad_questions_get_400_with_the_field(self, project, paragraph, crowdworker, body, field, message):
        client = _client(crowdworker)
        session_id = _next(client, project).json()["session"]["id"]
        response = client.post(reverse("annotation_api:question_add", args=[session_id]), body, format="json")
        assert response.status_code == 400 and message in response.json()[field][0]
        assert not SpanQuestion.objects.exists()

    def test_submit_a_whole_list_in_one_call(self, project, paragraph, crowdworker):
        client = _client(crowdworker)
        session_id = _next(client, project).json()["session"]["id"]
        questions = [{"question": "Where do they meet?", "answer": answer(EN_CONTEXT, "Khartoum")},
                     {"question": "Who named it?", "is_impossible": True}]
        response = client.post(reverse("annotation_api:session_submit", args=[session_id]), {"questions": questions},
                               format="json")
        assert response.status_code == 200
        assert [q["question"] for q in response.json()["questions"]] == ["Where do they meet?", "Who named it?"]

    def test_others_cannot_touch_a_session(self, project, paragraph, crowdworker, worker2):
        session_id = _next(_client(crowdworker), project).json()["session"]["id"]
        response = _client(worker2).post(reverse("annotation_api:question_add", args=[session_id]),
                                         {"question": "Q?", "is_impossible": True}, format="json")
        assert response.status_code == 403
        assert _client(worker2).get(reverse("annotation_api:session_detail", args=[session_id])).status_code == 403

    def test_draft_is_saved_and_returned(self, project, paragraph, crowdworker):
        client = _client(crowdworker)
        session_id = _next(client, project).json()["session"]["id"]
        draft = {"question": "Which s", "selection": {"start16": 4, "end16": 9}, "is_impossible": False,
                 "editing_id": None}
        assert client.post(reverse("annotation_api:session_draft", args=[session_id]), {"draft": draft},
                           format="json").status_code == 200
        assert client.get(reverse("annotation_api:session_detail", args=[session_id])).json()["draft"] == draft

    def test_discard(self, project, paragraph, crowdworker):
        client = _client(crowdworker)
        session_id = _next(client, project).json()["session"]["id"]
        url = reverse("annotation_api:session_discard", args=[session_id])
        assert client.post(url, {"reason": "nonsense"}, format="json").status_code == 400
        response = client.post(url, {"reason": "hard_to_understand"}, format="json")
        assert response.json()["status"] == "discarded"


class SecondPassApiTests:
    def test_blind_answers_flag_and_finish(self, project, crowdworker, worker2):
        paragraph = submitted_paragraph(project, crowdworker)
        client = _client(worker2)
        session = _next(client, project, kind="second_pass").json()["session"]
        assert session["kind"] == "second_pass" and len(session["questions"]) == 3
        url = reverse("annotation_api:second_pass_answer", args=[session["id"]])
        ids = [q["id"] for q in session["questions"]]
        first = client.post(url, {"question_id": ids[0], "answer": answer(EN_CONTEXT, "Mediterranean Sea"),
                                  "flag": {"proposal": "fix_answer", "reason": "drop 'the'"}}, format="json")
        assert first.status_code == 201 and first.json()["text"] == "Mediterranean Sea"
        submit_url = reverse("annotation_api:session_submit", args=[session["id"]])
        assert client.post(submit_url, {}, format="json").status_code == 400
        for qid in ids[1:]:
            assert client.post(url, {"question_id": qid, "is_impossible": True}, format="json").status_code == 201
        assert client.post(submit_url, {}, format="json").json()["status"] == "submitted"
        assert paragraph.questions.get(pk=ids[0]).flags.get().proposal == "fix_answer"
        assert AnnotationSession.objects.get(pk=session["id"]).status == "submitted"


class OwnerApiTests:
    def test_stats_and_export_for_the_owner_only(self, project, crowdworker, worker2):
        submitted_paragraph(project, crowdworker)
        owner = _client(project.owner)
        stats = owner.get(reverse("annotation_api:project_stats", args=[project.pk])).json()
        assert stats["questions"] == 3 and stats["splits"][1]["questions"] == 3
        export = owner.get(reverse("annotation_api:project_export", args=[project.pk]), {"split": "validation"}).json()
        assert len(export["data"][0]["paragraphs"][0]["qas"]) == 3
        assert owner.get(reverse("annotation_api:project_export", args=[project.pk]), {"split": "dev"}).status_code == 400
        assert _client(worker2).get(reverse("annotation_api:project_stats", args=[project.pk])).status_code == 403
