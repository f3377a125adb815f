"""The workers' hardware reports (``services/hardware.py`` writes them), for the round settings page."""
from collector.models import WorkerHardware

#: Workers listed on the settings page (most recent reports first).
SHOWN_WORKERS = 5


def worker_hardware_latest(*, limit: int = SHOWN_WORKERS) -> list[WorkerHardware]:
    """The most recent reports, newest first."""
    return list(WorkerHardware.objects.order_by("-reported_at")[:limit])
