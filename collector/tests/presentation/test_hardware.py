"""``presentation/hardware.py``: the settings page's note on what the bf16 setting means on each worker."""
import pytest

from collector.presentation.hardware import precision_note
from collector.services.hardware import worker_hardware_record
from mlcore.models.hardware import CpuReport, PrecisionProbe, resolve_precision

pytestmark = pytest.mark.django_db


AVX2 = CpuReport("AMD EPYC 7B12", "AVX2", ("avx2",), 2, "2.13.0")
ZEN4 = CpuReport("AMD EPYC 9B14", "AVX512", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), 8, "2.13.0")
FAST = PrecisionProbe(float32_ms=30.0, bfloat16_ms=15.0)


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
