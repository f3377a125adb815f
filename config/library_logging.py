"""Keep the model libraries' own output out of the log above DEBUG.

transformers draws tqdm progress bars while it loads or saves weights ("Loading weights: 100%|███|")
and prints a "LOAD REPORT" table of missing and unexpected keys; huggingface_hub draws bars for
downloads. They write to stderr through their own handlers, past ``LOGGING``, so the worker's log
fills with bars each time a fold or a job loads a model. At ``LOG_LEVEL=DEBUG`` they stay on, for
looking into a load that goes wrong; real errors (``logger.error``) are always shown.
"""
import logging


def quiet_model_loading(*, level: str) -> bool:
    """Silence progress bars and load reports of transformers and huggingface_hub unless ``level``
    is DEBUG (or lower); returns whether it did. Imports the libraries only when it acts."""
    if logging.getLevelName(level.upper()) <= logging.DEBUG:
        return False
    from huggingface_hub.utils import disable_progress_bars
    from transformers.utils import logging as transformers_logging

    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    disable_progress_bars()
    return True


def quiet_model_loading_as_configured() -> bool:
    """``quiet_model_loading`` at the level of the settings' ``LOGGING`` (its console handler)."""
    from django.conf import settings

    return quiet_model_loading(level=str(settings.LOGGING["handlers"]["console"].get("level", "INFO")))
