"""Workers report what ``bf16 = auto`` resolves to on their CPU; the settings page shows it.

The web process cannot know the worker's CPU (they may be different machines), so each worker
records ``mlcore.models.hardware.hardware_for("auto")`` under its host name when it starts and when it
runs a training job (``worker_hardware_report``). ``precision_note`` turns the latest reports
and a round's setting into the sentence the round settings page and API show, with a warning
when bfloat16 is forced on where a worker emulates it.
"""
import logging
import socket
from dataclasses import dataclass

from django.utils import timezone

from collector.models import WorkerHardware
from mlcore.models.hardware import HardwareResolution

logger = logging.getLogger(__name__)
#: Workers listed on the settings page (most recent reports first).
SHOWN_WORKERS = 5


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
    from mlcore.models.hardware import hardware_for

    try:
        resolution = hardware_for("auto")
        return worker_hardware_record(resolution=resolution)
    except Exception:  # a report is informative only: never stop a worker or a job for it
        logger.warning("Could not record this worker's hardware", exc_info=True)
        return None


def worker_hardware_latest(*, limit: int = SHOWN_WORKERS) -> list[WorkerHardware]:
    """The most recent reports, newest first."""
    return list(WorkerHardware.objects.order_by("-reported_at")[:limit])


@dataclass(frozen=True)
class PrecisionNote:
    """What a round's bfloat16 setting means on the workers that reported."""

    text: str
    warning: str = ""

    def as_dict(self) -> dict:
        return {"text": self.text, "warning": self.warning}


def precision_note(*, setting: str, reports: list[WorkerHardware]) -> PrecisionNote:
    """The sentence for the settings page, e.g. ``auto → float32 on worker w1 (AVX2, no native bfloat16)``."""
    if not reports:
        return PrecisionNote(f"{setting} → not yet known: no worker has reported its hardware.")
    resolved = [(report, HardwareResolution.from_dict(report.resolution)) for report in reports]
    if setting == "auto":
        where = "; ".join(f"{r.summary()} on worker {report.host}" for report, r in resolved)
        return PrecisionNote(f"auto → {where}.")
    if setting == "off":
        return PrecisionNote("off → float32 on every worker.")
    emulating = [report.host for report, r in resolved if not r.native_bf16]
    if not emulating:
        return PrecisionNote("on → bfloat16, native on every worker that reported.")
    detail = "; ".join(f"{report.host}: {r.cpu.capability}, {r.reason}" for report, r in resolved if not r.native_bf16)
    return PrecisionNote(
        "on → bfloat16.",
        warning=f"bfloat16 is forced on, but {', '.join(emulating)} emulate{'s' if len(emulating) == 1 else ''} it "
                f"({detail}): training there is several times slower than in float32. Choose auto.",
    )
