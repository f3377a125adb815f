"""Second-pass answers and flags over the API: the first answer is final (409 for any other, be it
a crafted request copying the revealed original or the old page's requests replayed with its
session cookie), flags after the reveal are proposals, and human EM/F1 and the export stay put."""
import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import AnnotationSession, QuestionFlag, SecondPassAnswer
from annotation.selectors.exports import project_squad_dict
from annotation.tests.factories import EN_CONTEXT, answer, api_client, selection, submitted_paragraph, task_next

pytestmark = pytest.mark.django_db


def _start(client, project) -> dict:
    return task_next(client, project, kind="second_pass").json()["session"]


def _numbers(project) -> tuple:
    """What the owner sees through the API: human performance and its basis; and the SQuAD data."""
    owner = api_client(project.owner)
    stats = owner.get(reverse("annotation_api:project_stats", args=[project.pk])).json()
    export = project_squad_dict(project=project)  # the data of the SQuAD file (evaluation serves it)
    return stats["human_performance"], stats["human_performance_answers"], export


@pytest.fixture
def answered(project, crowdworker, worker2):
    """worker2 has answered the three questions blind: wrong, right, and a span on the unanswerable one."""
    submitted_paragraph(project, crowdworker)
    client = api_client(worker2)
    session = _start(client, project)
    url = reverse("annotation_api:second_pass_answer", args=[session["id"]])
    ids = [q["id"] for q in session["questions"]]
    for question_id, text in zip(ids, ["Alexandria", "Khartoum", "the White Nile"]):
        response = client.post(url, {"question_id": question_id, "answer": answer(EN_CONTEXT, text)}, format="json")
        assert response.status_code == 201, response.json()
    return client, session["id"], ids


class SecondPassApiTests:
    def test_blind_answers_flag_and_finish(self, project, crowdworker, worker2):
        paragraph = submitted_paragraph(project, crowdworker)
        client = api_client(worker2)
        session = task_next(client, project, kind="second_pass").json()["session"]
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


class SecondPassAnswerApiTests:
    def test_the_numbers_say_they_come_from_blind_answers(self, project, answered):
        human, n, _ = _numbers(project)
        assert n == 3 and human[0]["n"] == 3 and human[0]["exact"] == pytest.approx(100 / 3)

    def test_a_crafted_request_copying_the_revealed_original_is_409(self, project, answered, worker2):
        client, session_id, ids = answered
        before = _numbers(project), sorted(SecondPassAnswer.objects.values_list("question_id", "text"))
        revealed = client.get(reverse("annotation_api:session_detail", args=[session_id])).json()["questions"][0]
        original = revealed["original"]
        assert (original["text"], original["matches"]) == ("the Mediterranean Sea", False)
        url = reverse("annotation_api:second_pass_answer", args=[session_id])
        for body in ({"answer": {"text": original["text"], "answer_start": original["answer_start"]}},
                     {"selection": {"start16": original["start16"], "end16": original["end16"]}},
                     {"is_impossible": True}):
            response = client.post(url, {"question_id": ids[0], **body}, format="json")
            assert response.status_code == 409, response.json()
            assert "first answer is final" in response.json()["detail"]
            assert "flag it instead" in response.json()["detail"]
        after = _numbers(project), sorted(SecondPassAnswer.objects.values_list("question_id", "text"))
        assert after == before

    def test_replaying_the_old_pages_requests_is_refused(self, project, answered, worker2):
        """The requests the old page sent, replayed as the browser sent them (session cookie, CSRF
        header): "Answer again with the selection", and a flag sent by re-sending the answer."""
        _, session_id, ids = answered
        before = _numbers(project)
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(worker2)
        assert browser.get(reverse("annotation:session", args=[session_id])).status_code == 200
        token = browser.cookies["csrftoken"].value
        url = reverse("annotation_api:second_pass_answer", args=[session_id])
        old_requests = [
            {"question_id": ids[0], "is_impossible": False, "selection": selection(EN_CONTEXT, "the Mediterranean Sea")},
            {"question_id": ids[0], "is_impossible": False, "answer": answer(EN_CONTEXT, "Alexandria"),
             "flag": {"proposal": "fix_answer", "reason": "copied"}},
            {"question_id": ids[2], "is_impossible": True},
        ]
        for body in old_requests:
            response = browser.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
            assert response.status_code == 409, response.content
        assert _numbers(project) == before
        assert not QuestionFlag.objects.exists()


class SecondPassFlagApiTests:
    def test_a_flag_after_the_reveal_is_a_labelled_proposal(self, project, answered):
        client, session_id, ids = answered
        before = _numbers(project)
        url = reverse("annotation_api:second_pass_flag", args=[session_id])
        response = client.post(url, {"question_id": ids[0], "proposal": "fix_answer", "reason": "drop 'the'",
                                     "selection": selection(EN_CONTEXT, "Mediterranean Sea")}, format="json")
        assert response.status_code == 201, response.json()
        assert response.json()["after_reveal"] is True and response.json()["proposed_text"] == "Mediterranean Sea"
        assert _numbers(project) == before
        owner = api_client(project.owner)
        (listed,) = owner.get(reverse("annotation_api:project_flags", args=[project.pk])).json()["results"]
        assert (listed["after_reveal"], listed["proposal"]) == (True, "fix_answer")

    def test_bad_flags_are_400_with_a_message(self, project, crowdworker, worker2):
        submitted_paragraph(project, crowdworker)
        client = api_client(worker2)
        session = _start(client, project)
        url = reverse("annotation_api:second_pass_flag", args=[session["id"]])
        question_id = session["questions"][0]["id"]
        unanswered = client.post(url, {"question_id": question_id, "proposal": "remove_question"}, format="json")
        assert unanswered.status_code == 400 and "Answer the question first" in str(unanswered.json())
        unknown = client.post(url, {"question_id": question_id, "proposal": "burn_it"}, format="json")
        assert unknown.status_code == 400 and "proposal" in unknown.json()
        extra = client.post(url, {"question_id": question_id, "proposal": "remove_question", "is_impossible": True},
                            format="json")
        assert extra.status_code == 400 and "is_impossible" in extra.json()
        assert not QuestionFlag.objects.exists()
