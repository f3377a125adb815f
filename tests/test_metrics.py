"""The operator's Prometheus metrics (core.metrics, /metrics): who may read them, and that they count
what happened: drafts answered through a real author socket, background jobs by state and age, the
inference queues. The database pool's figures are read from a real pooled server in
tests/test_database_pool.py."""
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from collector.models import ScoringRun
from collector.tests.factories import DRAFT, connect_author_socket, draft_prediction
from core.metrics import job_metrics

TOKEN = "a-scraper-token-for-tests-only"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, keyed by (name, sorted labels)."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("who, header, allowed", [
    (None, "", False),
    ("student", "", False),
    ("instructor", "", False),
    ("staff", "", True),
    (None, f"Bearer {TOKEN}", True),
    (None, "Bearer wrong-token", False),
    (None, TOKEN, False),
])
@override_settings(STUMPER_METRICS_TOKEN=TOKEN)
def test_only_staff_and_the_configured_scraper_read_metrics(client, request, who, header, allowed):
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.get("/metrics", HTTP_AUTHORIZATION=header) if header else client.get("/metrics")
    assert response.status_code == (200 if allowed else 404)
    if allowed:
        assert b"stumper_jobs" in response.content


@pytest.mark.django_db
@override_settings(STUMPER_METRICS_TOKEN="")
def test_without_a_token_setting_no_header_opens_the_metrics(client):
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer").status_code == 404


@pytest.mark.django_db
def test_jobs_are_counted_by_state_with_their_waits_and_heartbeats(course):
    from collector.services.rounds import round_create

    now = timezone.now()
    rounds = [round_create(course=course, name=f"r{n}", title=f"Round {n}") for n in range(4)]
    ScoringRun.objects.create(round=rounds[0], status="queued")
    queued = ScoringRun.objects.create(round=rounds[1], status="queued")
    ScoringRun.objects.filter(pk=queued.pk).update(created_at=now - timedelta(seconds=90))
    ScoringRun.objects.create(round=rounds[2], status="running", started_at=now - timedelta(seconds=50),
                              heartbeat_at=now - timedelta(seconds=40))
    ScoringRun.objects.create(round=rounds[3], status="failed", started_at=now - timedelta(seconds=30),
                              finished_at=now - timedelta(seconds=5))
    families = {family.name: family for family in job_metrics(now)}

    def value(name, **labels):
        return next(s.value for s in families[name].samples if s.labels == labels)

    job = ScoringRun._meta.label_lower
    assert value("stumper_jobs", job=job, state="queued") == 2
    assert value("stumper_jobs", job=job, state="running") == 1
    assert value("stumper_jobs", job=job, state="failed") == 1
    assert value("stumper_job_oldest_queued_seconds", job=job) == pytest.approx(90, abs=1)
    assert value("stumper_job_heartbeat_age_seconds", job=job) == pytest.approx(40, abs=1)
    assert value("stumper_job_last_hour_max_duration_seconds", job=job, state="failed") == pytest.approx(25, abs=1)
    assert value("stumper_job_last_hour_max_duration_seconds", job=job, state="done") == 0


@pytest.mark.django_db(transaction=True)
async def test_an_answered_draft_is_timed_under_its_model(client, student, open_round, staff):
    from asgiref.sync import sync_to_async

    async def scrape():
        await sync_to_async(client.force_login)(staff)
        return samples((await sync_to_async(client.get)("/metrics")).content.decode())

    model = open_round.live_model.name
    key = ("stumper_draft_latency_seconds_count", (("model", model),))
    before = (await scrape()).get(key, 0.0)
    communicator = await connect_author_socket(student, open_round.pk)
    await draft_prediction(communicator, DRAFT)
    await communicator.disconnect()
    after = await scrape()
    assert after[key] == before + 1
    assert after[("stumper_draft_latency_seconds_sum", (("model", model),))] > 0
    queue = {k: v for k, v in after.items() if k[0] == "stumper_inference_drafts_total"
             and ("outcome", "completed") in k[1] and ("family", "multiple_choice") in k[1]}
    assert sum(queue.values()) >= 1, "the batcher that answered reports its completed drafts"
