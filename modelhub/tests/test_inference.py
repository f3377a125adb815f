"""The draft inference service: where a batch runs (STUMPER_INFERENCE_MODE) and the JSON that
carries a batch to an inference worker and its predictions back.

Test settings run Celery eagerly, so in "worker" mode the task runs here and ``.get()`` reads an
``EagerResult``; tests/test_draft_inference_worker.py runs a real web process and worker.
"""
import json
from unittest import mock

import pytest
from celery import current_app
from celery.exceptions import TimeoutError as CeleryTimeoutError

from mlcore.configs import MCExample, MCPrediction
from modelhub import tasks
from modelhub.inference import inference_service, predict_examples, record_from_json, record_to_json

EXAMPLE = MCExample(prompt="Tom forgot his umbrella. He", choices=("got wet.", "stayed dry.", "flew home.", "ate the rain."))
OTHER = MCExample(prompt="The soup was too hot. She", choices=("waited.", "froze it.", "sang.", "drove off."))
PREDICTION = MCPrediction(probs=(0.1, 0.2, 0.3, 0.4), predicted=3, model_name="tiny", model_revision="abc123")


def over_the_wire(value):
    """What the other side of the broker sees (Celery's JSON serializer)."""
    return json.loads(json.dumps(value))


def answered(answers: list[dict]) -> mock.MagicMock:
    """A stand-in for a sent task's AsyncResult whose ``get`` answers ``answers``."""
    result = mock.MagicMock()
    result.get.return_value = over_the_wire(answers)
    return result


def test_examples_and_predictions_survive_the_json_round_trip():
    assert record_from_json(MCExample, over_the_wire(record_to_json(EXAMPLE))) == EXAMPLE
    assert over_the_wire(record_to_json(EXAMPLE))["choices"] == list(EXAMPLE.choices)
    decoded = record_from_json(MCPrediction, over_the_wire(record_to_json(PREDICTION)))
    assert decoded == PREDICTION and isinstance(decoded.probs, tuple)


def test_unknown_or_missing_fields_are_refused():
    with pytest.raises(TypeError):
        record_from_json(MCExample, {**record_to_json(EXAMPLE), "secret": 1})
    with pytest.raises(TypeError):
        record_from_json(MCPrediction, {"probs": [1, 0, 0, 0], "predicted": 0})


def test_the_draft_task_goes_to_the_inference_queue_and_keeps_its_result():
    assert current_app.amqp.router.route({}, "modelhub.predict_mc_drafts")["queue"].name == "inference"
    assert tasks.predict_drafts_task.ignore_result is False
    assert tasks.predict_drafts_task.acks_late is False



def test_the_previous_task_names_run_the_same_functions():
    # A web process of the previous release sends these names while the workers are upgraded first.
    assert tasks.predict_drafts_task.name == "modelhub.predict_mc_drafts"
    assert tasks.qa_predict_drafts_task.name == "modelhub.predict_qa_drafts"
    for old, new in [("collector.predict_drafts", tasks.predict_drafts_task),
                     ("annotation.predict_drafts", tasks.qa_predict_drafts_task)]:
        alias = current_app.tasks[old]
        assert alias.run is new.run and alias.ignore_result is False and alias.acks_late is False


@pytest.mark.django_db
def test_the_task_answers_a_json_batch_with_json_predictions(tiny_model_version):
    answers = tasks.predict_drafts_task(tiny_model_version.pk, over_the_wire([record_to_json(EXAMPLE)]))
    assert over_the_wire(answers) == answers
    assert [record_from_json(MCPrediction, a) for a in answers] == predict_examples(tiny_model_version, [EXAMPLE])


@pytest.mark.django_db
def test_local_mode_runs_the_model_in_this_process(settings, tiny_model_version):
    settings.STUMPER_INFERENCE_MODE = "local"
    with mock.patch.object(tasks.predict_drafts_task, "apply_async") as send:
        predictions = inference_service.predict_batch(tiny_model_version, [EXAMPLE])
    send.assert_not_called()
    assert predictions == predict_examples(tiny_model_version, [EXAMPLE])


@pytest.mark.django_db
def test_worker_mode_sends_one_task_per_batch_and_decodes_its_answer(settings, tiny_model_version):
    settings.STUMPER_INFERENCE_MODE = "worker"
    task = tasks.predict_drafts_task
    with mock.patch.object(task, "apply_async", wraps=task.apply_async) as send:  # eager: runs here
        predictions = inference_service.predict_batch(tiny_model_version, [EXAMPLE, OTHER])
    send.assert_called_once()
    version_id, examples = send.call_args.args[0]
    assert version_id == tiny_model_version.pk
    assert over_the_wire(examples) == [record_to_json(EXAMPLE), record_to_json(OTHER)]  # plain JSON, no ids
    assert send.call_args.kwargs == {"expires": settings.STUMPER_INFERENCE_TIMEOUT, "retry": False}
    assert predictions == predict_examples(tiny_model_version, [EXAMPLE, OTHER])


@pytest.mark.django_db
def test_worker_mode_never_loads_the_model_in_the_web_process(settings, tiny_model_version):
    settings.STUMPER_INFERENCE_MODE = "worker"
    result = answered([record_to_json(PREDICTION)])
    with mock.patch("modelhub.inference.live_model", side_effect=AssertionError("loaded here")) as load, \
            mock.patch.object(tasks.predict_drafts_task, "apply_async", return_value=result):
        inference_service.warm_up(tiny_model_version)  # no model, no event loop needed
        assert inference_service.predict_batch(tiny_model_version, [EXAMPLE]) == [PREDICTION]
    load.assert_not_called()
    result.get.assert_called_once_with(timeout=settings.STUMPER_INFERENCE_TIMEOUT)
    result.forget.assert_called_once()


@pytest.mark.django_db
def test_worker_mode_timeout_is_raised_and_the_result_forgotten(settings, tiny_model_version):
    settings.STUMPER_INFERENCE_MODE = "worker"
    result = mock.MagicMock()
    result.get.side_effect = CeleryTimeoutError("no worker")
    with mock.patch.object(tasks.predict_drafts_task, "apply_async", return_value=result), \
            pytest.raises(CeleryTimeoutError):
        inference_service.predict_batch(tiny_model_version, [EXAMPLE])
    result.forget.assert_called_once()


@pytest.mark.django_db
def test_a_worker_error_is_raised_to_the_batcher(settings, tiny_model_version):
    settings.STUMPER_INFERENCE_MODE = "worker"
    with mock.patch("modelhub.inference.live_model", side_effect=OSError("no weights")), \
            pytest.raises(OSError, match="no weights"):
        inference_service.predict_batch(tiny_model_version, [EXAMPLE])
