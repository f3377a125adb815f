"""``services/hardware.py``: workers report what bf16=auto resolves to on their CPU (and ``selectors/hardware.py`` reads the latest)."""
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from collector.models import WorkerHardware
from collector.selectors.hardware import worker_hardware_latest
from collector.services.hardware import worker_hardware_record, worker_hardware_report
from mlcore.models.hardware import CpuReport, HardwareResolution, PrecisionProbe, hardware_for, resolve_precision

pytestmark = pytest.mark.django_db


AVX2 = CpuReport("AMD EPYC 7B12", "AVX2", ("avx2",), 2, "2.13.0")
ZEN4 = CpuReport("AMD EPYC 9B14", "AVX512", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), 8, "2.13.0")
FAST = PrecisionProbe(float32_ms=30.0, bfloat16_ms=15.0)


def test_record_keeps_one_latest_report_per_host():
    worker_hardware_record(resolution=resolve_precision("auto", AVX2), host="w1")
    later = worker_hardware_record(resolution=resolve_precision("auto", ZEN4, FAST), host="w1")
    assert WorkerHardware.objects.count() == 1
    assert HardwareResolution.from_dict(WorkerHardware.objects.get().resolution) == resolve_precision("auto", ZEN4, FAST)
    WorkerHardware.objects.filter(pk=later.pk).update(reported_at=timezone.now() - timedelta(hours=1))
    worker_hardware_record(resolution=resolve_precision("auto", AVX2), host="w2")
    assert [report.host for report in worker_hardware_latest()] == ["w2", "w1"]
    assert len(worker_hardware_latest(limit=1)) == 1


def test_report_records_this_process_under_its_host_name():
    with mock.patch("collector.services.hardware.socket.gethostname", return_value="worker-7"):
        report = worker_hardware_report()
    assert report.host == "worker-7"
    assert HardwareResolution.from_dict(report.resolution) == hardware_for("auto")


def test_a_failing_report_is_logged_not_raised(caplog):
    with mock.patch("collector.services.hardware.hardware_for", side_effect=RuntimeError("no torch")):
        assert worker_hardware_report() is None
    assert "Could not record this worker's hardware" in caplog.text and not WorkerHardware.objects.exists()
