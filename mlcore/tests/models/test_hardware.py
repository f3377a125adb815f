"""Tests for mlcore.models.hardware: the pure decision on made-up CPUs, detection and the probe on this one."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mlcore.models.hardware import (
    BF16_MIN_SPEEDUP,
    THREADS_MIN_GAIN,
    CpuReport,
    HardwareResolution,
    PrecisionProbe,
    ThreadProbe,
    detect_cpu,
    hardware_for,
    measure_thread_probe,
    resolve_precision,
    resolve_threads,
    training_threads,
)

ROOT = Path(__file__).resolve().parents[2]
AVX2 = CpuReport("AMD EPYC 7B12", "AVX2", ("avx2",), 2, "2.13.0")
ZEN4 = CpuReport("AMD EPYC 9B14", "AVX512", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), 2, "2.13.0")
FAST = PrecisionProbe(float32_ms=30.0, bfloat16_ms=15.0)


def test_auto_is_float32_without_native_bfloat16() -> None:
    resolution = resolve_precision("auto", AVX2)
    assert (resolution.precision, resolution.native_bf16, resolution.probe) == ("float32", False, None)
    assert "no AVX512-BF16 or AMX" in resolution.reason
    assert resolution.summary() == "float32 (AVX2, no native bfloat16)"


@pytest.mark.parametrize(("capability", "flags", "obstacle"), [
    ("AVX2", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), "ATEN_CPU_CAPABILITY"),
    ("AVX512", ("avx2", "avx512", "avx512_bf16"), "ONEDNN_MAX_CPU_ISA"),
    ("AVX512", ("avx2", "avx512", "onednn_bf16"), "no AVX512-BF16 or AMX"),  # e.g. Skylake-X
])
def test_limits_below_the_instructions_count_as_emulated(capability: str, flags: tuple[str, ...], obstacle: str) -> None:
    cpu = CpuReport("x", capability, flags, 2, "2.13.0")
    resolution = resolve_precision("auto", cpu, FAST)  # even a fast probe cannot override an obstacle
    assert resolution.precision == "float32" and obstacle in resolution.reason


def test_auto_follows_the_probe_where_bfloat16_may_be_native() -> None:
    assert resolve_precision("auto", ZEN4, FAST).precision == "bfloat16"
    # Null: equal speed, or a gain inside the noise margin, must not switch to bfloat16.
    for ratio in (1.0, 1.05, BF16_MIN_SPEEDUP - 0.01, 0.3):
        probe = PrecisionProbe(float32_ms=10.0 * ratio, bfloat16_ms=10.0)
        resolution = resolve_precision("auto", ZEN4, probe)
        assert resolution.precision == "float32" and not resolution.native_bf16, ratio
    with pytest.raises(ValueError, match="needs a measured probe"):
        resolve_precision("auto", ZEN4)
    amx = CpuReport("Intel Xeon", "AVX512", ("avx512", "amx_tile", "onednn_bf16"), 8, "2.13.0")
    assert resolve_precision("auto", amx, FAST).uses_bf16


def test_on_and_off() -> None:
    forced = resolve_precision("on", AVX2)
    assert forced.uses_bf16 and forced.emulated_bf16 and "emulated" in forced.reason
    native = resolve_precision("on", ZEN4, FAST)
    assert native.uses_bf16 and not native.emulated_bf16
    off = resolve_precision("off", ZEN4)
    assert off.precision == "float32" and off.native_bf16 and not off.emulated_bf16
    with pytest.raises(ValueError, match="bf16 setting"):
        resolve_precision("yes", AVX2)


def test_resolution_round_trips_through_json() -> None:
    resolution = resolve_precision("auto", ZEN4, FAST)
    again = HardwareResolution.from_dict(json.loads(json.dumps(resolution.as_dict())))
    assert again == resolution and again.probe.speedup == 2.0
    assert HardwareResolution.from_dict(resolve_precision("off", AVX2).as_dict()).probe is None


def test_resolve_threads() -> None:
    assert resolve_threads(0, cpus=4) == 4 and resolve_threads(3, cpus=4) == 3
    busy = ThreadProbe(one_thread_ms=40.0, threads=4, all_threads_ms=90.0)  # the others wait for a CPU
    quiet = ThreadProbe(one_thread_ms=40.0, threads=4, all_threads_ms=15.0)
    assert resolve_threads(0, cpus=4, probe=busy) == 1 and resolve_threads(0, cpus=4, probe=quiet) == 4
    assert resolve_threads(2, cpus=4, probe=busy) == 2  # an explicit count is never overridden
    # Null: no gain, or one inside the margin, keeps one thread.
    for gain in (1.0, THREADS_MIN_GAIN - 0.01):
        assert resolve_threads(0, cpus=2, probe=ThreadProbe(40.0 * gain, 2, 40.0)) == 1
    with pytest.raises(ValueError):
        resolve_threads(-1, cpus=4)


def test_thread_probe_measures_and_training_threads_chooses() -> None:
    before = torch.get_num_threads()
    try:
        probe = measure_thread_probe(2, repeats=1)
        assert probe.threads == 2 and probe.one_thread_ms > 0 and probe.all_threads_ms > 0
        assert training_threads(3) == 3 and 1 <= training_threads(0) <= max(detect_cpu().cpus, 1)
    finally:
        torch.set_num_threads(before)


def test_detects_what_torch_reports() -> None:
    cpu = detect_cpu()
    assert cpu.capability == torch.backends.cpu.get_cpu_capability()
    assert cpu.model_name and cpu.cpus >= 1 and cpu.torch_version == torch.__version__
    resolution = hardware_for("auto")
    assert resolution.cpu is cpu and resolution.precision in ("float32", "bfloat16")
    assert (resolution.probe is None) == bool(cpu.bf16_obstacle())
    assert hardware_for("off").probe is None


def _run_limited_to_avx2(code: str) -> dict:
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                            check=True)
    return json.loads(result.stdout)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 instruction sets only")
def test_an_avx2_limited_process_resolves_to_float32_and_measures_bfloat16_slower() -> None:
    # The configuration of an AVX2-only machine, on whatever x86 CPU runs the tests. The probe
    # is run even though auto would skip it: emulated bfloat16 (the planted effect) must be
    # measured slower, far outside the margin.
    data = _run_limited_to_avx2(
        "import json; from mlcore.models.hardware import hardware_for, measure_precision_probe as m;"
        "print(json.dumps({'auto': hardware_for('auto').as_dict(), 'probe': m().speedup}))"
    )
    auto = HardwareResolution.from_dict(data["auto"])
    assert auto.cpu.capability == "AVX2" and "onednn_bf16" not in auto.cpu.flags
    assert auto.precision == "float32" and auto.probe is None
    assert data["probe"] < 1 / BF16_MIN_SPEEDUP
