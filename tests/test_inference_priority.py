"""Draft batches go before submission scoring on the inference queue, which cannot starve drafts.

The routing is checked on every pass; on the PostgreSQL + Redis pass the messages are really sent
through Redis (no worker), and the order a worker's BRPOP would take them in is read back.
"""
import os

import pytest
from celery import current_app
from django.conf import settings


def _route(name: str) -> dict:
    return current_app.amqp.router.route({}, name, (), {})


def test_submissions_are_routed_below_the_draft_batches() -> None:
    for submission in ("collector.prediction_compute", "annotation.predict_question_answer"):
        route = _route(submission)
        assert route["queue"].name == "inference" and route["priority"] == settings.SUBMISSION_SCORING_PRIORITY > 0
    # The draft tasks, and the names they had before (modelhub/tasks.py keeps them for an upgrade).
    for drafts in ("modelhub.predict_mc_drafts", "modelhub.predict_qa_drafts", "collector.predict_drafts",
                   "annotation.predict_drafts"):
        route = _route(drafts)
        assert route["queue"].name == "inference" and not route.get("priority")  # 0: served first


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (the PostgreSQL + Redis pass)")
def test_through_redis_a_draft_batch_sent_after_submissions_is_taken_first() -> None:
    import redis

    from collector.tasks import prediction_compute_task
    from modelhub.tasks import predict_drafts_task
    from tests.faults import celery_broker

    client = redis.Redis.from_url(settings.REDIS_URL)
    with celery_broker(settings.REDIS_URL), current_app.connection_for_write() as connection:
        channel = connection.default_channel
        keys = [channel._q_for_pri("inference", pri) for pri in channel.priority_steps]  # a worker's BRPOP order
        before = {key: client.llen(key) for key in keys}
        sent = [prediction_compute_task.apply_async((10**9 + i,), connection=connection) for i in range(3)]
        sent.append(predict_drafts_task.apply_async((10**9, []), connection=connection))
        try:
            added = {key: client.llen(key) - before[key] for key in keys}
            first = next(key for key in keys if added[key])
            assert added[first] == 1  # the draft batch, although sent last
            assert added[channel._q_for_pri("inference", settings.SUBMISSION_SCORING_PRIORITY)] == 3
        finally:
            ids = {result.id for result in sent}
            for key in keys:  # take back exactly what this test sent
                for raw in client.lrange(key, 0, -1):
                    if any(task_id.encode() in raw for task_id in ids):
                        client.lrem(key, 1, raw)
