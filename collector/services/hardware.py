"""Workers report what ``bf16 = auto`` resolves to on their CPU; the settings page shows it.

The web process cannot know the worker's CPU (they may be different machines), so each worker
records ``mlcore.models.hardware.hardware_for("auto")`` under its host name when it starts and when it
runs a training job (``worker_hardware_report``). ``selectors.hardware.worker_hardware_latest``
reads the latest reports and ``presentation.hardware.precision_note`` words them for the round
settings page and API.
"""
import logging
import socket

from django.utils import timezone

from collector.models import WorkerHardware
from mlcore.models.hardware import HardwareResolution, hardware_for

logger = logging.getLogger(__name__)


def worker_hardware_record(*, resolution: HardwareResolution, host: str | None = None) -> WorkerHardware:
    """Store ``resolution`` as the latest report of ``host`` (default: this machine's name)."""
    report, _ = WorkerHardware.objects.update_or_create(
        host=host or socket.gethostname(),
        defaults={"reported_at": timezone.now(), "resolution": resolution.as_dict()},
    )
    return report


def worker_hardware_report() -> WorkerHardware | None:
    """Resolve ``auto`` in this (worker) process and record it; logs and returns None on failure.

    The first call in a process imports torch and may run the bfloat16 probe (about a second);
    later calls reuse the cached result.
    """
    try:
        resolution = hardware_for("auto")
        return worker_hardware_record(resolution=resolution)
    except Exception:  # a report is informative only: never stop a worker or a job for it
        logger.warning("Could not record this worker's hardware", exc_info=True)
        return None
