"""The inference queues' metrics, read at each Prometheus scrape (``core.metrics.register_collector``)."""

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from modelhub.inference import inference_service, qa_inference_service


def inference_queue_metrics() -> Iterator[Metric]:
    """Per model version and kind of model: drafts waiting now, and counters since this process started."""
    depth = GaugeMetricFamily("stumper_inference_queue_depth", "Drafts waiting for the model's next batch.",
                              labels=["family", "model_version"])
    totals = CounterMetricFamily("stumper_inference_drafts", "Drafts a model's batcher took in, by outcome: "
                                 "completed, failed, or dropped (a newer draft of the same author replaced it).",
                                 labels=["family", "model_version", "outcome"])
    batches = CounterMetricFamily("stumper_inference_batches", "Batches the model ran.", labels=["family", "model_version"])
    for family, service in (("multiple_choice", inference_service), ("qa", qa_inference_service)):
        for version_id, waiting, stats in service.queues():
            labels = [family, str(version_id)]
            depth.add_metric(labels, waiting)
            for outcome in ("completed", "failed", "dropped"):
                totals.add_metric([*labels, outcome], getattr(stats, outcome))
            batches.add_metric(labels, stats.batches_run)
    yield from (depth, totals, batches)
