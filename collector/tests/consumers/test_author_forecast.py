"""The survival forecast on the live-authoring socket and the round page's progress socket (issue 29 §1)."""
import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from collector.models import SurvivalForecastJob
from collector.routing import websocket_urlpatterns
from collector.tests.factories import DRAFT, connect_author_socket, draft_prediction
from core.jobs import job_done
from mlcore.stats.survival import FEATURE_NAMES

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = len(FEATURE_NAMES)


def stored_forecast(round_, *, intercept: float, usable: bool = True, brier: float = 0.15) -> SurvivalForecastJob:
    """A finished forecast whose only term is the intercept: every draft gets expit(intercept)."""
    params = {"feature_names": list(FEATURE_NAMES), "coefficients": [0.0] * WIDTH, "intercept": intercept,
              "means": [0.0] * WIDTH, "scales": [1.0] * WIDTH, "base_rate": 0.3}
    return SurvivalForecastJob.objects.create(
        course=round_.course, round=round_, status="done", finished_at=timezone.now(), params=params, n_train=300,
        usable=usable, brier=brier, brier_base=0.21, log_loss=0.5, log_loss_base=0.6, auc=0.8, calibration_slope=1.0)


async def test_a_shown_forecast_comes_with_the_prediction(student, open_round):
    await database_sync_to_async(stored_forecast)(open_round, intercept=0.85)  # expit(0.85) = 0.70
    communicator = await connect_author_socket(student, open_round.pk)
    reply = await draft_prediction(communicator, DRAFT)
    assert reply["survival"] == {"state": "forecast", "likely": True, "percent": 70,
                                 "message": "Likely to survive cross-validation (about 70%)."}
    await communicator.disconnect()


async def test_an_unlikely_forecast(student, open_round):
    await database_sync_to_async(stored_forecast)(open_round, intercept=-1.4)  # expit(-1.4) = 0.198
    communicator = await connect_author_socket(student, open_round.pk)
    survival = (await draft_prediction(communicator, DRAFT))["survival"]
    assert (survival["likely"], survival["percent"]) == (False, 20)
    assert survival["message"] == "Unlikely to survive cross-validation (about 20%)."
    await communicator.disconnect()


@pytest.mark.parametrize("usable, brier", [(False, 0.15), (True, 0.25)])
async def test_a_forecast_that_does_not_beat_the_base_rate_is_not_shown(student, open_round, usable, brier):
    await database_sync_to_async(stored_forecast)(open_round, intercept=0.85, usable=usable, brier=brier)
    communicator = await connect_author_socket(student, open_round.pk)
    survival = (await draft_prediction(communicator, DRAFT))["survival"]
    assert survival == {"state": "none", "message": "Survival forecast: not enough scored questions yet."}
    await communicator.disconnect()


async def test_no_forecast_and_no_answer(student, open_round):
    communicator = await connect_author_socket(student, open_round.pk)
    assert (await draft_prediction(communicator, DRAFT))["survival"]["state"] == "none"
    assert "survival" not in await draft_prediction(communicator, {**DRAFT, "answer": None})
    await communicator.disconnect()


async def test_the_round_socket_pushes_the_forecast_training(instructor, round_):
    job = await database_sync_to_async(SurvivalForecastJob.objects.create)(
        course=round_.course, round=round_, status="running", progress={"stage": "fitting"})
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rounds/{round_.pk}/scoring/")
    communicator.scope["user"] = instructor
    assert (await communicator.connect())[0]
    kinds = {}
    for _ in range(3):
        message = await communicator.receive_json_from(timeout=5)
        kinds[message["type"]] = message
    [payload] = kinds["forecast"]["jobs"]
    assert (payload["id"], payload["job"], payload["status"]) == (job.pk, "collector.survivalforecastjob", "running")
    assert payload["display"]["progress"] == "Fitting the forecast and measuring it on held-out questions."
    await database_sync_to_async(job_done)(job, n_train=12, progress={"stage": "done"})
    [payload] = (await communicator.receive_json_from(timeout=5))["jobs"]
    assert payload["status"] == "done"
    assert "not enough scored questions yet" in payload["display"]["progress"]
    await communicator.disconnect()
