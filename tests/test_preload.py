"""Cold start: a process loads the open rounds' models when it starts (``config.preload``, ``config.asgi``)."""
from datetime import timedelta
from unittest import mock

import pytest
from asgiref.testing import ApplicationCommunicator
from django.utils import timezone

from collector.services.rounds import round_create
from config import preload
from config.asgi import PreloadModels
from mlcore.models.live import clear_live_models
from modelhub.inference import inference_service


@pytest.mark.django_db
def test_preload_loads_the_live_models_of_open_rounds_only(course, open_round, tiny_model_dir, settings):
    from modelhub.services import model_version_register

    closed_model = model_version_register(name="closed-round-model", kind="multiple_choice",
                                          path=str(tiny_model_dir), revision="closed")
    round_create(course=course, name="old", live_model=closed_model, opens_at=timezone.now() - timedelta(days=9),
                 closes_at=timezone.now() - timedelta(days=2))
    clear_live_models()
    assert not inference_service.model_ready(open_round.live_model)
    assert preload.preload_models() == [open_round.live_model.name]
    assert inference_service.model_ready(open_round.live_model)
    assert not inference_service.model_ready(closed_model)
    clear_live_models()


@pytest.mark.django_db
def test_in_worker_mode_the_web_process_preloads_nothing_but_an_inference_worker_does(open_round, settings):
    settings.STUMPER_INFERENCE_MODE = "worker"
    with mock.patch("modelhub.inference.live_model") as load:
        assert preload.preload_models() == []
        load.assert_not_called()
        assert preload.preload_models(local_only=False) == [open_round.live_model.name]
        load.assert_called_once()


@pytest.mark.django_db
def test_a_model_that_fails_to_load_is_logged_in_one_line_and_the_others_still_load(open_round, caplog):
    with mock.patch("modelhub.inference.live_model", side_effect=OSError("no weights")):
        assert preload.preload_models() == []
    [record] = [r for r in caplog.records if r.name == "config.preload"]
    assert record.levelname == "WARNING" and "no weights" in record.getMessage() and record.exc_info is None


async def test_the_first_event_starts_the_preload_once_and_lifespan_is_answered(settings):
    settings.STUMPER_PRELOAD_MODELS = True
    inner = mock.AsyncMock()
    app = PreloadModels(inner)
    with mock.patch("config.asgi.preload_in_background") as start:
        communicator = ApplicationCommunicator(app, {"type": "lifespan"})
        await communicator.send_input({"type": "lifespan.startup"})
        assert await communicator.receive_output(timeout=5) == {"type": "lifespan.startup.complete"}
        await communicator.send_input({"type": "lifespan.shutdown"})
        assert await communicator.receive_output(timeout=5) == {"type": "lifespan.shutdown.complete"}
        await app({"type": "http"}, None, None)
        await app({"type": "http"}, None, None)
    start.assert_called_once_with()
    assert inner.await_count == 2  # requests go on to the application; lifespan is answered here


async def test_preload_can_be_switched_off(settings):
    settings.STUMPER_PRELOAD_MODELS = False
    app = PreloadModels(mock.AsyncMock())
    with mock.patch("config.asgi.preload_in_background") as start:
        await app({"type": "http"}, None, None)
    start.assert_not_called()
