"""What an operator watches while a full classroom writes: Prometheus metrics (issue 28 §5).

One place defines them; the code that sees an event records it with one call (``draft_answered``,
``draft_shed``), and what exists anyway is read when Prometheus scrapes, not copied into metrics
as it changes: every job table's rows (``BackgroundJob`` subclasses, found through the app
registry, so ``core`` names no higher app), the database pool's statistics, and whatever the
collectors that higher apps add with :func:`register_collector` report (the inference queues).

``/metrics`` (``core.views.metrics``) serves them to staff and to a scraper that sends
``STUMPER_METRICS_TOKEN``. Each process has its own counters; with several web processes behind
one address set ``PROMETHEUS_MULTIPROC_DIR`` (docs/production.md) or scrape each process.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.apps import apps
from django.db import connections
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from core.models import BackgroundJob

logger = logging.getLogger(__name__)

# Pause-to-answer times of the author and annotation pages: 50 ms to a minute (a loaded machine).
DRAFT_LATENCY = Histogram(
    "stumper_draft_latency_seconds", "Seconds from a draft reaching the model's queue to its prediction.",
    ["model"], buckets=(0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 3.0, 6.0, 12.0, 30.0, 60.0),
)
DRAFTS_SHED = Counter(
    "stumper_drafts_shed", "Drafts not answered: busy (queue full), superseded (a newer draft replaced "
    "it), rate_limited (the author sent faster than allowed) or failed (the model gave no answer).",
    ["reason"],
)


def draft_answered(model: str, seconds: float) -> None:
    DRAFT_LATENCY.labels(model=model).observe(seconds)


def draft_shed(reason: str) -> None:
    DRAFTS_SHED.labels(reason=reason).inc()


_collectors: list[Callable[[], Iterable[Metric]]] = []


def register_collector(collect: Callable[[], Iterable[Metric]]) -> None:
    """Add metrics that are read at each scrape (an app calls this in ``AppConfig.ready``)."""
    if collect not in _collectors:
        _collectors.append(collect)


def job_models() -> list[type[BackgroundJob]]:
    return [model for model in apps.get_models() if issubclass(model, BackgroundJob)]


def job_metrics(now: Any = None) -> Iterator[Metric]:
    """Jobs per table and state, the oldest queued job's wait, the stalest running heartbeat,
    and durations of the jobs that ended in the last hour."""
    now = now or timezone.now()
    jobs = GaugeMetricFamily("stumper_jobs", "Background jobs by table and state.", labels=["job", "state"])
    waiting = GaugeMetricFamily("stumper_job_oldest_queued_seconds", "Age of the oldest queued job.", labels=["job"])
    heartbeat = GaugeMetricFamily(
        "stumper_job_heartbeat_age_seconds", "Seconds since the stalest running job's worker last reported.",
        labels=["job"])
    duration = GaugeMetricFamily(
        "stumper_job_last_hour_max_duration_seconds", "Longest run of the jobs that ended in the last hour.",
        labels=["job", "state"])
    for model in job_models():
        name = model._meta.label_lower
        counts = dict(model.objects.values_list("status").annotate(n=Count("pk")).order_by())
        for state in sorted(counts):
            jobs.add_metric([name, state], counts[state])
        oldest = model.objects.filter(status=BackgroundJob.Status.QUEUED).aggregate(t=Min("created_at"))["t"]
        waiting.add_metric([name], (now - oldest).total_seconds() if oldest else 0.0)
        stalest = model.objects.filter(status=BackgroundJob.Status.RUNNING).aggregate(t=Min("heartbeat_at"))["t"]
        heartbeat.add_metric([name], (now - stalest).total_seconds() if stalest else 0.0)
        recent = model.objects.filter(finished_at__gte=now - timezone.timedelta(hours=1), started_at__isnull=False)
        for state in (BackgroundJob.Status.DONE, BackgroundJob.Status.FAILED):
            seconds = max(((job.finished_at - job.started_at).total_seconds()
                           for job in recent.filter(status=state).only("started_at", "finished_at")), default=0.0)
            duration.add_metric([name, state.value], seconds)
    yield from (jobs, waiting, heartbeat, duration)


def pool_metrics() -> Iterator[Metric]:
    """This process's database pool (PostgreSQL with ``DB_POOL_MAX_SIZE`` > 0; nothing otherwise)."""
    pool = getattr(connections["default"], "pool", None)
    if pool is None:
        return
    stats = pool.get_stats()
    gauge = GaugeMetricFamily("stumper_db_pool_connections", "This process's database pool.", labels=["kind"])
    size, available = stats.get("pool_size", 0), stats.get("pool_available", 0)
    gauge.add_metric(["open"], size)
    gauge.add_metric(["in_use"], size - available)
    gauge.add_metric(["waiting_requests"], stats.get("requests_waiting", 0))
    gauge.add_metric(["max"], pool.max_size)
    yield gauge


class _ScrapeTimeCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        for collect in (job_metrics, pool_metrics, *_collectors):
            try:
                yield from collect()
            except Exception:  # one broken source never hides the others
                logger.exception("Metrics from %s could not be read", getattr(collect, "__name__", collect))


_SCRAPE_TIME = _ScrapeTimeCollector()


def exposition() -> bytes:
    """Every metric in Prometheus' text format."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # every process's counters and histograms
        registry.register(_SCRAPE_TIME)
        return generate_latest(registry)
    return generate_latest(REGISTRY) + generate_latest(_registry_of(_SCRAPE_TIME))


def _registry_of(collector: Collector) -> CollectorRegistry:
    registry = CollectorRegistry()
    registry.register(collector)
    return registry
