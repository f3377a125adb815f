"""The worker APIs answer in the language of the worker's page: the worker's choice (the
``django_language`` cookie), else the project's; Persian with Persian digits (annotation.apis.worker_language)."""
import pytest
from django.urls import reverse

from annotation.tests.factories import (
    FA_CONTEXT,
    ZWNJ,
    add_paragraphs,
    answer,
    api_client,
    submitted_paragraph,
    task_next,
)

pytestmark = pytest.mark.django_db


def _session(client, project, kind="authoring") -> int:
    return task_next(client, project, kind=kind).json()["session"]["id"]


def _add(client, session_id, **body):
    return client.post(reverse("annotation_api:question_add", args=[session_id]), body, format="json")


def test_a_persian_projects_validation_messages_are_persian_with_persian_digits(fa_project, fa_paragraph,
                                                                                crowdworker):
    client = api_client(crowdworker)
    session_id = _session(client, fa_project)
    empty = _add(client, session_id, question=" ")
    assert empty.status_code == 400 and empty.json() == {"question": ["پرسش خالی است."]}
    assert empty["Content-Language"] == "fa"
    assert _add(client, session_id, question="x" * 301).json() == \
        {"question": ["پرسش بیش از اندازه بلند است (حداکثر ۳۰۰ نویسه)."]}
    assert _add(client, session_id, question="کجا؟").json() == \
        {"answer": ["پاسخ را در پاراگراف علامت بزنید، یا پرسش را بی" + ZWNJ + "پاسخ علامت بزنید."]}
    wrong = _add(client, session_id, question="کجا؟", answer={"text": "تهران", "answer_start": 3})
    assert wrong.json()["answer"] == ["پاسخ 'تهران' با پاراگراف در جایگاه ۳ جور نیست؛ آنجا 'ان پا' آمده است."]
    assert _add(client, session_id).json() == {"question": ["این مقدار لازم است."]}  # DRF's own, in Persian too
    submit = client.post(reverse("annotation_api:session_submit", args=[session_id]), {}, format="json")
    assert submit.json() == {"questions": ["روی این پاراگراف ۲ تا ۴ پرسش بنویسید (اکنون ۰ پرسش دارید)."]}


def test_someone_elses_session_is_refused_in_the_projects_language(fa_project, fa_paragraph, crowdworker, worker2):
    session_id = _session(api_client(crowdworker), fa_project)
    response = _add(api_client(worker2), session_id, question="کجا؟")
    assert response.status_code == 403
    assert response.json() == {"detail": "این کار برچسب" + ZWNJ + "گذاری از آنِ شما نیست."}


def test_the_workers_choice_wins_both_ways(fa_project, fa_paragraph, project, paragraph, crowdworker):
    english = api_client(crowdworker, "en")
    response = _add(english, _session(english, fa_project), question=" ")
    assert response.json() == {"question": ["The question is empty."]} and response["Content-Language"] == "en"
    persian = api_client(crowdworker, "fa")
    assert _add(persian, _session(persian, project), question=" ").json() == {"question": ["پرسش خالی است."]}
    assert _add(api_client(crowdworker), _session(api_client(crowdworker), project), question=" ").json() == \
        {"question": ["The question is empty."]}  # an English project without a choice stays English


def test_nothing_left_and_the_final_second_pass_answer_in_persian(fa_project, crowdworker, worker2):
    client = api_client(worker2)
    assert client.post(reverse("annotation_api:task_next", args=[fa_project.pk]), {}, format="json").json() == \
        {"session": None, "detail": "فعلاً هیچ پاراگرافی به این نوع کار نیاز ندارد."}
    context = FA_CONTEXT
    submitted_paragraph(fa_project, crowdworker, [context], questions=[
        {"question": "پایتخت ایران کجاست؟", "answer": answer(context, "تهران")},
        {"question": "کتاب" + ZWNJ + "خانه" + ZWNJ + "ها چند کتاب دارند؟", "answer": answer(context, "۲ میلیون")}])
    session_id = _session(client, fa_project, kind="second_pass")
    session = client.get(reverse("annotation_api:session_detail", args=[session_id])).json()
    url = reverse("annotation_api:second_pass_answer", args=[session_id])
    question_id = session["questions"][0]["id"]
    assert client.post(url, {"question_id": question_id, "is_impossible": True}, format="json").status_code == 201
    again = client.post(url, {"question_id": question_id, "is_impossible": True}, format="json")
    assert again.status_code == 409 and again.json()["detail"].startswith("شما پیش" + ZWNJ + "تر به این پرسش پاسخ")
    submit = client.post(reverse("annotation_api:session_submit", args=[session_id]), {}, format="json")
    assert submit.json() == {"questions": ["نخست به همهٔ پرسش" + ZWNJ + "ها پاسخ دهید (۱ پرسش مانده است)."]}


def test_the_heartbeat_of_someone_elses_session_is_refused_in_persian(fa_project, crowdworker, worker2):
    add_paragraphs(fa_project, [FA_CONTEXT], title="تهران")
    session_id = _session(api_client(crowdworker), fa_project)
    response = api_client(worker2).post(reverse("annotation_api:session_heartbeat", args=[session_id]))
    assert response.status_code == 403 and response.json()["detail"].startswith("این کار برچسب")


def test_an_owner_api_is_left_to_the_browser_language(project, paragraph, owner):
    """Only the worker APIs follow the worker's page; the owner's pages and APIs stay English."""
    response = api_client(owner).post(reverse("annotation_api:project_settings_update", args=[project.pk]),
                                      {"questions_min": 0}, format="json")
    assert response.status_code == 400 and response["Content-Language"] == "en"
