"""Celery application; configuration comes from Django settings (CELERY_*)."""
import logging
import os

from celery import Celery
from celery.signals import celeryd_after_setup, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("stumper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _ensure_broker_folders(sender: Celery, **kwargs) -> None:
    """The filesystem transport needs its folders before the first message."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            os.makedirs(options[key], exist_ok=True)


@celeryd_after_setup.connect
@worker_process_init.connect
def _quiet_model_loading(**kwargs) -> None:
    """No weight-loading progress bars or load reports in the worker's log at INFO (config/library_logging.py)."""
    from config.library_logging import quiet_model_loading_as_configured

    quiet_model_loading_as_configured()


@worker_ready.connect
def _preload_models(sender=None, **kwargs) -> None:
    """An inference worker loads the live models when it starts, not on the first draft batch."""
    from django.conf import settings

    from config.preload import preload_in_background

    queues = set()
    try:
        queues = set(sender.app.amqp.queues.consume_from)
    except AttributeError:  # a worker whose queues cannot be read serves every queue
        queues = {"inference"}
    if settings.STUMPER_PRELOAD_MODELS and "inference" in queues:
        preload_in_background(local_only=False)


@worker_ready.connect
def _warn_when_progress_cannot_reach_pages(**kwargs) -> None:
    """On the in-memory channel layer without STUMPER_JOB_PUSH_URL, this worker's job pushes reach
    no page (core.job_relay): say so once, where the operator looks."""
    from core.jobs import job_pushes_reach_web

    if not job_pushes_reach_web():
        logging.getLogger(__name__).warning(
            "Job progress of this worker reaches no page: the channel layer is in-memory and STUMPER_JOB_PUSH_URL "
            "is unset. Set REDIS_URL, or STUMPER_JOB_PUSH_URL to the web server's /internal/jobs/push/.")
