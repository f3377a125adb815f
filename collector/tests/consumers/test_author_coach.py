"""The artifact coach on the author websocket (real consumer, tiny BERT), and the draft rate limit."""
import uuid

import pytest
from channels.db import database_sync_to_async

from collector.models import CoachWarning, Round
from collector.services.questions import question_submit
from collector.tests.factories import DRAFT as PLAIN_DRAFT
from collector.tests.factories import connect_author_socket, draft_prediction, question_data
from mlcore.configs import MCExample
from modelhub.inference import predict_examples
from modelhub.services import model_version_register

pytestmark = pytest.mark.django_db(transaction=True)
connect = connect_author_socket

# The right completion is far longer than the others: the length coach warns about it.
DRAFT = {
    **PLAIN_DRAFT,
    "choices": ["got wet on the long walk home from the station that night.", "sang.", "flew.", "ate."],
    "answer": 0,
}


async def test_warnings_arrive_with_the_prediction_and_are_recorded_once(student, open_round):
    token = uuid.uuid4()
    communicator = await connect(student, open_round.pk)
    reply = await draft_prediction(communicator, {**DRAFT, "token": str(token), "seq": 1})
    assert reply["seq"] == 1 and len(reply["probs"]) == 4  # the prediction itself is unchanged
    warnings = reply["coach"]["warnings"]
    assert [w["kind"] for w in warnings] == ["length"] and "much longer" in warnings[0]["message"]
    await draft_prediction(communicator, {**DRAFT, "token": str(token), "prompt": "Tom forgot it. He"})
    rows = await database_sync_to_async(list)(CoachWarning.objects.values_list("client_token", "kind", "question"))
    assert rows == [(token, "length", None)]
    # Marking a short completion as right: the warning goes away.
    assert (await draft_prediction(communicator, {**DRAFT, "answer": 1}))["coach"] == {"warnings": []}
    await communicator.disconnect()


async def test_a_draft_like_an_existing_question_is_flagged(student, open_round):
    await database_sync_to_async(question_submit)(user=student, round_id=open_round.pk, **question_data())
    communicator = await connect(student, open_round.pk)
    copy = question_data()
    reply = await draft_prediction(communicator, {"type": "draft", "prompt": copy["prompt"].upper(),
                                            "choices": list(reversed(copy["choices"])), "answer": None})
    assert [w["kind"] for w in reply["coach"]["warnings"]] == ["duplicate"]
    assert "your own question" in reply["coach"]["warnings"][0]["message"]
    await communicator.disconnect()


async def test_the_answer_only_model_warns_when_it_finds_the_answer(student, open_round, tiny_model_dir):
    answer_only = await database_sync_to_async(model_version_register)(
        name="tiny-answer-only", kind="multiple_choice", path=str(tiny_model_dir))
    await database_sync_to_async(Round.objects.filter(pk=open_round.pk).update)(answer_only_model=answer_only)
    choices = PLAIN_DRAFT["choices"]
    example = MCExample(prompt=DRAFT["prompt"], choices=tuple(choices))
    pick = (await database_sync_to_async(predict_examples)(answer_only, [example]))[0].predicted
    communicator = await connect(student, open_round.pk)
    found = await draft_prediction(communicator, {**DRAFT, "choices": choices, "answer": pick})
    assert [w["kind"] for w in found["coach"]["warnings"]] == ["answer_only"]
    assert found["coach"]["warnings"][0]["message"] == "The model can find your answer without reading the prompt."
    missed = await draft_prediction(communicator, {**DRAFT, "choices": choices, "answer": (pick + 1) % 4})
    assert missed["coach"]["warnings"] == []
    await database_sync_to_async(Round.objects.filter(pk=open_round.pk).update)(coach_answer_only=False)
    communicator2 = await connect(student, open_round.pk)
    again = await draft_prediction(communicator2, {**DRAFT, "choices": choices, "answer": pick})
    assert again["coach"]["warnings"] == []
    await communicator.disconnect()
    await communicator2.disconnect()


async def test_junk_completions_are_flagged_while_typing_and_not_recorded(student, open_round):
    token = uuid.uuid4()
    communicator = await connect(student, open_round.pk)
    choices = ["got wet.", "qzxv bnmk", "flew.", "a" * 200]
    reply = await draft_prediction(communicator, {**PLAIN_DRAFT, "choices": choices, "answer": None,
                                                  "token": str(token)})
    [junk] = reply["coach"]["warnings"]
    assert junk["kind"] == "junk" and junk["completions"] == [1, 3] and junk["reasons"] == ["no_word", "repeated"]
    assert "completion B has no word of the language; completion D is one character repeated" in junk["message"]
    assert "earns no live credit until a validator accepts it" in junk["message"]
    assert not await database_sync_to_async(CoachWarning.objects.exists)()  # it decides credit; it is not advice
    honest = await draft_prediction(communicator, {**PLAIN_DRAFT, "answer": None})
    assert honest["coach"]["warnings"] == []
    await communicator.disconnect()


async def test_a_bad_token_is_an_error_and_the_socket_stays_usable(student, open_round):
    communicator = await connect(student, open_round.pk)
    await communicator.send_json_to({**DRAFT, "token": "not-a-uuid"})
    reply = await communicator.receive_json_from(timeout=10)
    assert reply["type"] == "error" and "token" in reply["message"]
    await draft_prediction(communicator, DRAFT)
    await communicator.disconnect()


async def test_drafts_beyond_the_rate_limit_are_skipped_with_a_status(student, open_round, settings):
    settings.STUMPER_DRAFT_BURST = 2
    settings.STUMPER_DRAFT_RATE = 0.01
    communicator = await connect(student, open_round.pk)
    await draft_prediction(communicator, {**DRAFT, "seq": 1})
    await draft_prediction(communicator, {**DRAFT, "seq": 2, "answer": 1})
    await communicator.send_json_to({**DRAFT, "seq": 3})
    reply = await communicator.receive_json_from(timeout=10)
    assert reply == {"type": "status", "state": "rate_limited", "seq": 3, "message": reply["message"]}
    assert "faster" in reply["message"]
    # The limit is per user: a second connection of the same user shares it.
    other = await connect(student, open_round.pk)
    await other.send_json_to({**DRAFT, "seq": 4})
    assert (await other.receive_json_from(timeout=10))["state"] == "rate_limited"
    await communicator.disconnect()
    await other.disconnect()
