"""Fault: the round's live model cannot be loaded (its files are missing or broken).

Authoring must keep working: the page opens, drafts over the websocket get a clear
"unavailable" status instead of a dead socket, and submissions (form and API) are stored with
the prediction pending and a message saying so. Nothing is mocked: the model version points at
files that really are not a loadable checkpoint.
"""
import html

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from rest_framework.test import APIClient

from collector.consumers import LOADING_MESSAGE, UNAVAILABLE_MESSAGE, AuthorConsumer
from collector.models import Prediction, Question
from collector.services.rounds import round_create
from modelhub.services import model_version_register

DRAFT = {"prompt": "The kettle whistled loudly. She", "choices": ["poured the tea.", "sang to the moon.",
                                                                   "sold the kettle's song.", "froze the water."]}


@pytest.fixture(params=["missing", "corrupt"])
def broken_round(request, course, tmp_path):
    folder = tmp_path / "checkpoint"
    if request.param == "corrupt":
        folder.mkdir()
        (folder / "config.json").write_text("{ this is not json")
    version = model_version_register(name=f"broken-{request.param}", kind="multiple_choice", path=str(folder))
    return round_create(course=course, name=f"broken-{request.param}", live_model=version)


@pytest.mark.django_db(transaction=True)
async def test_drafts_get_a_clear_unavailable_status_and_the_socket_stays_open(broken_round, student):
    communicator = WebsocketCommunicator(AuthorConsumer.as_asgi(), f"/ws/author/{broken_round.pk}/")
    communicator.scope["user"] = student
    communicator.scope["url_route"] = {"kwargs": {"round_id": broken_round.pk}}
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await communicator.send_json_to({"type": "draft", **DRAFT, "answer": 0, "seq": 7})
    status = await communicator.receive_json_from(timeout=30)
    if status["state"] == "loading":
        # The load the socket started on connect had not failed yet when the draft came (a slow
        # machine): the author hears "loading" first, then, once the load fails, "unavailable".
        assert status == {"type": "status", "state": "loading", "message": LOADING_MESSAGE, "seq": 7}
        status = await communicator.receive_json_from(timeout=30)
    assert status == {"type": "status", "state": "unavailable", "message": UNAVAILABLE_MESSAGE, "seq": 7}
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=10) == {"type": "pong"}
    await communicator.disconnect()


@pytest.mark.django_db
def test_the_page_opens_and_a_form_submission_is_stored_pending_with_a_message(broken_round, student, client):
    client.force_login(student)
    url = reverse("collector:round_write", args=[broken_round.pk])
    assert client.get(url).status_code == 200
    form = {"prompt": DRAFT["prompt"], **{f"choice_{i}": c for i, c in enumerate(DRAFT["choices"])}, "answer": "0"}
    response = client.post(url, form, follow=True)
    assert "the model's answer is pending" in html.unescape(response.content.decode())
    prediction = Prediction.objects.get(question__round=broken_round)
    # Tried at submission and by the (eager, in tests) retry task: still pending, with the reason.
    assert prediction.status == Prediction.Status.PENDING and prediction.attempts >= 1
    assert prediction.last_error


@pytest.mark.django_db
def test_an_api_submission_is_stored_and_answered_as_pending(broken_round, student):
    api = APIClient()
    api.force_authenticate(student)
    response = api.post(reverse("api:question_submit"), {"round_id": broken_round.pk, **DRAFT, "correct_index": 0},
                        format="json")
    assert response.status_code == 201
    assert response.data["prediction"]["status"] == "pending" and response.data["prediction"]["probs"] is None
    assert Question.objects.filter(round=broken_round).count() == 1
