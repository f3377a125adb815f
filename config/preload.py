"""Load the models a process will serve as soon as it starts, in the background (cold start).

A fresh web process used to load a model only when the first author's draft asked for it, which
took longer than ``STUMPER_INFERENCE_TIMEOUT``: the first authors heard "unavailable". Now the
ASGI application starts ``preload_in_background`` on its first event (any request, such as the
sign-in page or the load balancer's health check; daphne has no start-up event) and the Celery
inference workers when they are ready. Until a model is there, draft sockets say "loading".
Never at import or in ``AppConfig.ready()``: management commands and tests load no model.
"""
import logging
import threading

from django.db import close_old_connections

logger = logging.getLogger(__name__)

_started = threading.Lock()
_thread: threading.Thread | None = None


def preload_models(*, local_only: bool = True) -> list[str]:
    """Load the open rounds' live (and answer-only) models and the projects' QA models, in this thread.

    With ``local_only`` nothing is loaded when ``STUMPER_INFERENCE_MODE`` is ``worker`` (a web
    process then loads no model); inference workers pass False. Failures are logged, one line
    each, and the next model is loaded. Returns the names of the models loaded.
    """
    from django.conf import settings

    from annotation.selectors.qa_models import qa_model_versions_in_use
    from collector.selectors.rounds import model_versions_live
    from modelhub.inference import inference_service, qa_inference_service

    if local_only and settings.STUMPER_INFERENCE_MODE == "worker":
        return []
    loaded = []
    try:
        work = [(inference_service, v) for v in model_versions_live()]
        work += [(qa_inference_service, v) for v in qa_model_versions_in_use()]
    except Exception as error:  # e.g. the database is not migrated yet: drafts load on demand
        logger.warning("Could not list the models to load at start-up: %s", error)
        return loaded
    finally:
        close_old_connections()
    for service, version in work:
        try:
            service.load_now(version)
        except Exception as error:
            logger.warning("Could not load model %s at start-up: %s", version.name, error)
        else:
            loaded.append(version.name)
    if loaded:
        logger.info("Loaded at start-up: %s", ", ".join(loaded))
    return loaded


def preload_in_background(*, local_only: bool = True) -> threading.Thread | None:
    """Start :func:`preload_models` in a daemon thread, once per process; the thread, or None if started before."""
    global _thread
    with _started:
        if _thread is not None:
            return None
        _thread = threading.Thread(target=preload_models, kwargs={"local_only": local_only}, name="model-preload",
                                   daemon=True)
        _thread.start()
        return _thread
