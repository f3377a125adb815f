"""The span annotation's draft service on an inference worker: the JSON of QA batches, and one
task per batch in "worker" mode (eager Celery in tests, so the task runs here)."""
import json
from unittest import mock

import pytest
from celery import current_app

from annotation.tests.factories import EN_CONTEXT
from mlcore.models.qa import QAExample, QAPrediction
from modelhub import tasks
from modelhub.inference import predict_qa, qa_inference_service, record_from_json, record_to_json

QUESTION = QAExample(question="Where do the rivers meet?", context=EN_CONTEXT)


def over_the_wire(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("record", [
    QUESTION,
    QAPrediction(text="Khartoum", start=42, score=3.5, null_score=-1.25, model_name="tiny-qa", model_revision="r1"),
    QAPrediction(text="", start=None, score=None, null_score=2.0, model_name="tiny-qa", model_revision="r1"),
])
def test_questions_and_answers_survive_the_json_round_trip(record):
    assert record_from_json(type(record), over_the_wire(record_to_json(record))) == record


def test_the_draft_task_goes_to_the_inference_queue_and_keeps_its_result():
    assert current_app.amqp.router.route({}, "modelhub.predict_qa_drafts")["queue"].name == "inference"
    assert tasks.qa_predict_drafts_task.ignore_result is False


@pytest.mark.django_db
def test_worker_mode_sends_the_question_and_its_paragraph_and_decodes_the_answer(settings, qa_version):
    settings.STUMPER_INFERENCE_MODE = "worker"
    task = tasks.qa_predict_drafts_task
    with mock.patch.object(task, "apply_async", wraps=task.apply_async) as send:
        [answer] = qa_inference_service.predict_batch(qa_version, [QUESTION])
    send.assert_called_once()
    version_id, examples = send.call_args.args[0]
    assert version_id == qa_version.pk
    assert examples == [{"question": QUESTION.question, "context": EN_CONTEXT}]
    assert answer == predict_qa(qa_version, [QUESTION])[0]


@pytest.mark.django_db
def test_local_mode_answers_in_this_process(settings, qa_version):
    settings.STUMPER_INFERENCE_MODE = "local"
    with mock.patch.object(tasks.qa_predict_drafts_task, "apply_async") as send:
        [answer] = qa_inference_service.predict_batch(qa_version, [QUESTION])
    send.assert_not_called()
    assert isinstance(answer, QAPrediction)
