"""What each worker machine's hardware makes of the precision settings (re-exported by
``collector/models/__init__.py``, where Django finds it)."""
from django.db import models


class WorkerHardware(models.Model):
    """The latest report of one worker host: its CPU and what ``bf16 = auto`` resolves to there.

    Written by ``collector.services.hardware.worker_hardware_report`` when a worker starts and when
    it runs a training job; ``resolution`` is ``mlcore.models.hardware.HardwareResolution.as_dict()``.
    The round settings page shows it next to the bfloat16 setting.
    """

    host = models.CharField(max_length=255, unique=True)
    reported_at = models.DateTimeField()
    resolution = models.JSONField(help_text="mlcore.models.hardware.HardwareResolution.as_dict() for bf16=auto")

    class Meta:
        ordering = ["-reported_at"]
        verbose_name_plural = "worker hardware"

    def __str__(self) -> str:
        return f"{self.host} ({self.resolution.get('precision', '?')})"
