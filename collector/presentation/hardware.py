"""What a round's bfloat16 setting means on the workers that reported their hardware, in words.

``precision_note`` turns the latest reports (``selectors.hardware.worker_hardware_latest``) and a
round's setting into the sentence the round settings page and API show, with a warning when
bfloat16 is forced on where a worker emulates it.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from collector.models import WorkerHardware
from mlcore.models.hardware import HardwareResolution


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
        return PrecisionNote(_("%(setting)s → not yet known: no worker has reported its hardware.") % {"setting": setting})
    resolved = [(report, HardwareResolution.from_dict(report.resolution)) for report in reports]
    if setting == "auto":
        where = "; ".join(f"{r.summary()} on worker {report.host}" for report, r in resolved)
        return PrecisionNote(f"auto → {where}.")
    if setting == "off":
        return PrecisionNote(_("off → float32 on every worker."))
    emulating = [report.host for report, r in resolved if not r.native_bf16]
    if not emulating:
        return PrecisionNote(_("on → bfloat16, native on every worker that reported."))
    detail = "; ".join(f"{report.host}: {r.cpu.capability}, {r.reason}" for report, r in resolved if not r.native_bf16)
    return PrecisionNote(
        "on → bfloat16.",
        warning=f"bfloat16 is forced on, but {', '.join(emulating)} emulate{'s' if len(emulating) == 1 else ''} it "
                f"({detail}): training there is several times slower than in float32. Choose auto.",
    )
