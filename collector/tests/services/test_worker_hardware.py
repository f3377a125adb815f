"""Workers report what bf16=auto resolves to on their CPU; the settings page turns it into a note."""
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from collector.models import WorkerHardware
from collector.presentation.hardware import precision_note
from collector.selectors.hardware import worker_hardware_latest
from collector.services.hardware import worker_hardware_record, worker_hardware_report
from mlcore.models.hardware import CpuReport, HardwareResolution, PrecisionProbe, hardware_for, resolve_precision

AVX2 = CpuReport("AMD EPYC 7B12", "AVX2", ("avx2",), 2, "2.13.0")
ZEN4 = CpuReport("AMD EPYC 9B14", "AVX512", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), 8, "2.13.0")
FAST = PrecisionProbe(float32_ms=30.0, bfloat16_ms=15.0)

pytestmark = pytest.mark.django_db


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
    with mock.patch("mlcore.models.hardware.hardware_for", side_effect=RuntimeError("no torch")):
        assert worker_hardware_report() is None
    assert "Could not record this worker's hardware" in caplog.text and not WorkerHardware.objects.exists()


def test_note_before_any_worker_reported():
    assert precision_note(setting="auto", reports=[]).text == "auto → not yet known: no worker has reported its hardware."


def test_note_says_what_auto_resolved_to_on_each_worker():
    avx2 = worker_hardware_record(resolution=resolve_precision("auto", AVX2), host="w1")
    zen4 = worker_hardware_record(resolution=resolve_precision("auto", ZEN4, FAST), host="w2")
    note = precision_note(setting="auto", reports=[zen4, avx2])
    assert note.text == ("auto → bfloat16 (AVX512, native bfloat16) on worker w2; "
                         "float32 (AVX2, no native bfloat16) on worker w1.")
    assert note.warning == ""
    assert precision_note(setting="off", reports=[avx2]).as_dict() == {"text": "off → float32 on every worker.",
                                                                        "warning": ""}


def test_forcing_bfloat16_on_warns_only_where_a_worker_emulates_it():
    zen4 = worker_hardware_record(resolution=resolve_precision("auto", ZEN4, FAST), host="w2")
    assert precision_note(setting="on", reports=[zen4]).warning == ""
    slow_probe = worker_hardware_record(resolution=resolve_precision(
        "auto", ZEN4, PrecisionProbe(float32_ms=10.0, bfloat16_ms=12.0)), host="w3")
    avx2 = worker_hardware_record(resolution=resolve_precision("auto", AVX2), host="w1")
    warning = precision_note(setting="on", reports=[zen4, slow_probe, avx2]).warning
    assert warning.startswith("bfloat16 is forced on, but w3, w1 emulate it (w3: AVX512, bfloat16 instructions "
                              "present, measured 0.83x slower")
    assert "w1: AVX2, no native bfloat16: the CPU has no AVX512-BF16 or AMX" in warning
    assert "Choose auto." in warning and "w2" not in warning
