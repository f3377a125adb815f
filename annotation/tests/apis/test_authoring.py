"""The authoring API: a session's detail and draft, questions added, edited and deleted, submit, discard."""
import pytest
from django.urls import reverse

from annotation.models import SpanQuestion
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, ZWNJ, answer, api_client, selection, task_next

pytestmark = pytest.mark.django_db


class QuestionApiTests:
    def test_add_edit_delete_and_submit(self, fa_project, fa_paragraph, crowdworker):
        client = api_client(crowdworker)
        session_id = task_next(client, fa_project).json()["session"]["id"]
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
        client = api_client(crowdworker)
        session_id = task_next(client, project).json()["session"]["id"]
        response = client.post(reverse("annotation_api:question_add", args=[session_id]), body, format="json")
        assert response.status_code == 400 and message in response.json()[field][0]
        assert not SpanQuestion.objects.exists()

    def test_submit_a_whole_list_in_one_call(self, project, paragraph, crowdworker):
        client = api_client(crowdworker)
        session_id = task_next(client, project).json()["session"]["id"]
        questions = [{"question": "Where do they meet?", "answer": answer(EN_CONTEXT, "Khartoum")},
                     {"question": "Who named it?", "is_impossible": True}]
        response = client.post(reverse("annotation_api:session_submit", args=[session_id]), {"questions": questions},
                               format="json")
        assert response.status_code == 200
        assert [q["question"] for q in response.json()["questions"]] == ["Where do they meet?", "Who named it?"]

    def test_others_cannot_touch_a_session(self, project, paragraph, crowdworker, worker2):
        session_id = task_next(api_client(crowdworker), project).json()["session"]["id"]
        response = api_client(worker2).post(reverse("annotation_api:question_add", args=[session_id]),
                                            {"question": "Q?", "is_impossible": True}, format="json")
        assert response.status_code == 403
        assert api_client(worker2).get(reverse("annotation_api:session_detail", args=[session_id])).status_code == 403

    def test_a_session_or_question_that_does_not_exist_is_404(self, crowdworker):
        client = api_client(crowdworker)
        missing_session = client.get(reverse("annotation_api:session_detail", args=[987654]))
        assert missing_session.status_code == 404
        assert missing_session.json() == {"detail": "This annotation task does not exist."}
        missing_question = client.post(reverse("annotation_api:question_delete", args=[987654]), {}, format="json")
        assert missing_question.status_code == 404
        assert missing_question.json() == {"detail": "This question does not exist."}

    def test_draft_is_saved_and_returned(self, project, paragraph, crowdworker):
        client = api_client(crowdworker)
        session_id = task_next(client, project).json()["session"]["id"]
        draft = {"question": "Which s", "selection": {"start16": 4, "end16": 9}, "is_impossible": False,
                 "editing_id": None}
        assert client.post(reverse("annotation_api:session_draft", args=[session_id]), {"draft": draft},
                           format="json").status_code == 200
        assert client.get(reverse("annotation_api:session_detail", args=[session_id])).json()["draft"] == draft

    def test_discard(self, project, paragraph, crowdworker):
        client = api_client(crowdworker)
        session_id = task_next(client, project).json()["session"]["id"]
        url = reverse("annotation_api:session_discard", args=[session_id])
        assert client.post(url, {"reason": "nonsense"}, format="json").status_code == 400
        response = client.post(url, {"reason": "hard_to_understand"}, format="json")
        assert response.json()["status"] == "discarded"
