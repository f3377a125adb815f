"""Which precision and how many threads training uses on this CPU: detect, measure, decide.

bfloat16 autocast roughly halves a training step on CPUs that compute in bfloat16 natively
(AVX512-BF16 or AMX) and makes it many times slower on CPUs that emulate it: one MiniLM step on
an AVX2-only AMD EPYC took 8.1 s under bfloat16 against 0.47 s in float32. The instruction flags
alone do not settle it, because torch and oneDNN may be limited below what the CPU offers
(``ATEN_CPU_CAPABILITY=avx2``, ``ONEDNN_MAX_CPU_ISA=AVX2``): ``torch.cpu`` still reports the
flags, while the kernels that run are AVX2 ones. So the ``auto`` setting first asks torch what it
will really run (its CPU capability and whether oneDNN accepts bfloat16), and only where both say
"native" times a tiny training-like probe (one small transformer layer forward and backward,
float32 against bfloat16 autocast), once per process; bfloat16 is used only where it measured
faster.

Detection and measurement are impure and cached per process (:func:`detect_cpu`,
:func:`measure_precision_probe`); the decision is the pure function :func:`resolve_precision`
(and :func:`resolve_threads`), so it is tested on any machine. :func:`hardware_for` combines them
for a trainer. ``python -m mlcore.models.hardware`` prints this machine's resolution as JSON.
"""

from __future__ import annotations

import functools
import json
import platform
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from mlcore.configs import BF16_SETTINGS
from mlcore.threads import available_cpus

__all__ = [
    "BF16_MIN_SPEEDUP",
    "CpuReport",
    "HardwareResolution",
    "PrecisionProbe",
    "THREADS_MIN_GAIN",
    "ThreadProbe",
    "detect_cpu",
    "hardware_for",
    "measure_precision_probe",
    "measure_thread_probe",
    "resolve_precision",
    "resolve_threads",
    "training_threads",
]

#: ``auto`` picks bfloat16 only if the probe ran at least this much faster than float32: the
#: probe is short and the machine may be shared, so a tie must not flip the choice.
BF16_MIN_SPEEDUP = 1.1
#: ``threads = 0`` uses every CPU only if that ran at least this much faster than one thread.
THREADS_MIN_GAIN = 1.2
#: Flags (``CpuReport.flags``) meaning the CPU computes bfloat16 natively.
_NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_tile")
#: torch CPU capabilities whose ATen kernels handle bfloat16 tensors without emulation.
_BF16_CAPABILITIES = ("AVX512", "AVX512_BF16", "AMX")
_MEASURE_LOCK = threading.Lock()


@dataclass(frozen=True)
class CpuReport:
    """What this process can use: the CPU and what torch will run on it.

    ``capability`` is ``torch.backends.cpu.get_cpu_capability()`` (e.g. ``"AVX2"``,
    ``"AVX512"``; honours ``ATEN_CPU_CAPABILITY``). ``flags`` lists the ones that matter here:
    ``avx2``, ``avx512``, ``avx512_bf16``, ``amx_tile`` (instructions the CPU has) and
    ``onednn_bf16`` (oneDNN accepts bfloat16; honours ``ONEDNN_MAX_CPU_ISA``).
    """

    model_name: str
    capability: str
    flags: tuple[str, ...]
    cpus: int
    torch_version: str

    def __post_init__(self) -> None:
        if not isinstance(self.flags, tuple):
            object.__setattr__(self, "flags", tuple(self.flags))

    @property
    def bf16_instructions(self) -> bool:
        """The CPU has AVX512-BF16 or AMX (whether or not torch may use them)."""
        return any(flag in self.flags for flag in _NATIVE_BF16_FLAGS)

    def bf16_obstacle(self) -> str:
        """Why bfloat16 is emulated here, or ``""`` if torch can run it natively."""
        if not self.bf16_instructions:
            return "the CPU has no AVX512-BF16 or AMX"
        if self.capability.upper() not in _BF16_CAPABILITIES:
            return f"torch runs {self.capability} kernels (ATEN_CPU_CAPABILITY)"
        if "onednn_bf16" not in self.flags:
            return "oneDNN is limited below bfloat16 (ONEDNN_MAX_CPU_ISA)"
        return ""


@dataclass(frozen=True)
class PrecisionProbe:
    """Best time of one probe step in float32 and under bfloat16 autocast, in milliseconds."""

    float32_ms: float
    bfloat16_ms: float

    @property
    def speedup(self) -> float:
        """How many times faster bfloat16 ran (below 1: slower)."""
        return self.float32_ms / self.bfloat16_ms


@dataclass(frozen=True)
class HardwareResolution:
    """What a precision setting resolved to on one machine, and why.

    Attributes
    ----------
    setting : str
        ``"auto"``, ``"on"`` or ``"off"`` (``FineTuneConfig.bf16``).
    precision : str
        ``"bfloat16"`` (autocast) or ``"float32"``.
    native_bf16 : bool
        bfloat16 is native here: instructions present, torch and oneDNN use them, and the probe
        (when one ran) measured it faster.
    reason : str
        One sentence for people.
    cpu : CpuReport
    probe : PrecisionProbe or None
        ``None`` when no measurement was needed.
    """

    setting: str
    precision: str
    native_bf16: bool
    reason: str
    cpu: CpuReport
    probe: PrecisionProbe | None = None

    @property
    def uses_bf16(self) -> bool:
        return self.precision == "bfloat16"

    @property
    def emulated_bf16(self) -> bool:
        """bfloat16 is used although this CPU emulates it (``on`` forced on the wrong machine)."""
        return self.uses_bf16 and not self.native_bf16

    def summary(self) -> str:
        """Short form for pages and logs, e.g. ``"float32 (AVX2, no native bfloat16)"``."""
        native = "native bfloat16" if self.native_bf16 else "no native bfloat16"
        return f"{self.precision} ({self.cpu.capability}, {native})"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (see :meth:`from_dict`)."""
        data = asdict(self)
        data["cpu"]["flags"] = list(self.cpu.flags)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HardwareResolution:
        """Inverse of :meth:`as_dict`."""
        probe = data.get("probe")
        return cls(setting=data["setting"], precision=data["precision"], native_bf16=data["native_bf16"],
                   reason=data["reason"], cpu=CpuReport(**data["cpu"]),
                   probe=PrecisionProbe(**probe) if probe else None)


def resolve_precision(setting: str, cpu: CpuReport, probe: PrecisionProbe | None = None, *,
                      min_speedup: float = BF16_MIN_SPEEDUP) -> HardwareResolution:
    """Decide float32 or bfloat16 for a setting on a CPU (pure; no torch needed).

    Parameters
    ----------
    setting : {"auto", "on", "off"}
        ``auto``: bfloat16 only where it is native and the probe measured it at least
        ``min_speedup`` times faster; ``on``: always bfloat16 (``native_bf16`` tells whether that
        is emulated); ``off``: always float32.
    cpu : CpuReport
    probe : PrecisionProbe, optional
        Needed for ``auto`` when ``cpu`` has no obstacle to native bfloat16.
    min_speedup : float

    Raises
    ------
    ValueError
        For an unknown setting, or ``auto`` on a bfloat16-capable CPU without a probe.

    Examples
    --------
    >>> avx2 = CpuReport("AMD EPYC", "AVX2", ("avx2",), 2, "2.13.0")
    >>> resolve_precision("auto", avx2).summary()
    'float32 (AVX2, no native bfloat16)'
    >>> zen4 = CpuReport("AMD EPYC", "AVX512", ("avx2", "avx512", "avx512_bf16", "onednn_bf16"), 2, "2.13.0")
    >>> resolve_precision("auto", zen4, PrecisionProbe(float32_ms=30.0, bfloat16_ms=15.0)).precision
    'bfloat16'
    >>> resolve_precision("on", avx2).emulated_bf16
    True
    """
    if setting not in BF16_SETTINGS:
        raise ValueError(f"bf16 setting must be one of {BF16_SETTINGS}, got {setting!r}")
    obstacle = cpu.bf16_obstacle()
    measured_slow = probe is not None and probe.speedup < min_speedup
    native = not obstacle and not measured_slow
    if obstacle:
        why = f"no native bfloat16: {obstacle}"
    elif probe is None:
        why = "bfloat16 instructions present (not measured)"
    else:
        verdict = "faster" if probe.speedup >= 1 else "slower"
        why = (f"bfloat16 instructions present, measured {probe.speedup:.2f}x {verdict} than float32 "
               f"(needs {min_speedup:g}x)" if measured_slow else
               f"native bfloat16, measured {probe.speedup:.2f}x faster than float32")
    if setting == "off":
        return HardwareResolution(setting, "float32", native, f"bfloat16 switched off; {why}", cpu, probe)
    if setting == "on":
        warning = "" if native else " (emulated: expect training to be several times slower)"
        return HardwareResolution(setting, "bfloat16", native, f"bfloat16 forced on; {why}{warning}", cpu, probe)
    if not obstacle and probe is None:
        raise ValueError("auto needs a measured probe on a CPU that may run bfloat16 natively")
    return HardwareResolution(setting, "bfloat16" if native else "float32", native, why, cpu, probe)


@dataclass(frozen=True)
class ThreadProbe:
    """Best time of one float32 probe step on one thread and on ``threads`` threads, in milliseconds."""

    one_thread_ms: float
    threads: int
    all_threads_ms: float

    @property
    def gain(self) -> float:
        """How many times faster ``threads`` threads ran than one."""
        return self.one_thread_ms / self.all_threads_ms


def resolve_threads(requested: int, cpus: int, probe: ThreadProbe | None = None, *,
                    min_gain: float = THREADS_MIN_GAIN) -> int:
    """Threads for training: ``requested``, or for ``0`` (auto) all ``cpus`` unless one is faster.

    On a busy machine a second thread can make each step slower, not faster: the threads meet
    at a barrier after every operation, and one of them is often waiting for a CPU. With a
    ``probe``, auto uses every CPU only if that measured at least ``min_gain`` times faster than
    one thread, otherwise one.

    Examples
    --------
    >>> resolve_threads(3, cpus=4), resolve_threads(0, cpus=4)
    (3, 4)
    >>> resolve_threads(0, cpus=2, probe=ThreadProbe(one_thread_ms=40.0, threads=2, all_threads_ms=90.0))
    1
    """
    if requested < 0 or cpus < 1:
        raise ValueError(f"threads must be >= 0 (0 = auto) and cpus >= 1, got {requested}, {cpus}")
    if requested:
        return requested
    if probe is not None and probe.gain < min_gain:
        return 1
    return cpus


def training_threads(requested: int) -> int:
    """:func:`resolve_threads` for this process now (``FineTuneConfig.threads``; 0 = auto).

    Auto measures (:func:`measure_thread_probe`) on every call, since the load on the machine
    changes; a training run calls it once, when it starts.
    """
    cpus = available_cpus()
    if requested or cpus == 1:
        return resolve_threads(requested, cpus)
    with _MEASURE_LOCK:
        probe = measure_thread_probe(cpus)
    return resolve_threads(0, cpus, probe)


def _cpu_model_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            for line in stream:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


@functools.lru_cache(maxsize=1)
def detect_cpu() -> CpuReport:
    """This process's :class:`CpuReport` (cached: it cannot change while the process runs)."""
    import torch

    checks = {
        "avx2": "_is_avx2_supported", "avx512": "_is_avx512_supported",
        "avx512_bf16": "_is_avx512_bf16_supported", "amx_tile": "_is_amx_tile_supported",
    }
    # Private but stable helpers (torch >= 2.3); a missing one counts as "no".
    flags = [name for name, fn in checks.items() if getattr(torch.cpu, fn, lambda: False)()]
    if torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported():
        flags.append("onednn_bf16")
    return CpuReport(model_name=_cpu_model_name(), capability=torch.backends.cpu.get_cpu_capability(),
                     flags=tuple(flags), cpus=available_cpus(), torch_version=torch.__version__)


def _probe_step() -> Callable[[bool], float]:
    """A timer of one forward + backward of a MiniLM-sized layer (width 384, 12 heads, feed-forward
    1536) on 16 sequences of 16 tokens; ``step(bf16)`` returns seconds."""
    import torch

    generator = torch.Generator().manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(384, 12, 1536, dropout=0.0, activation="gelu", batch_first=True)
    inputs = torch.randn(16, 16, 384, generator=generator)  # (sequences, tokens, hidden)

    def step(bf16: bool) -> float:
        started = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            out = layer(inputs)
        out.float().square().mean().backward()
        layer.zero_grad(set_to_none=True)
        return time.perf_counter() - started

    return step


def _best_of_alternating(first: Callable[[], float], second: Callable[[], float], repeats: int,
                         budget_seconds: float = 2.0) -> tuple[float, float]:
    """Best times (ms) of two timers run in turns after a warm-up each, so a busy neighbour slows
    both alike; stops early once ``budget_seconds`` are spent (a very slow side is slow enough)."""
    started = time.perf_counter()
    first(), second()  # warm-up: first calls pick and prepare kernels
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        best = [min(best[0], first()), min(best[1], second())]
        if time.perf_counter() - started > budget_seconds:
            break
    return round(best[0] * 1e3, 3), round(best[1] * 1e3, 3)


@functools.lru_cache(maxsize=1)
def measure_precision_probe(repeats: int = 5) -> PrecisionProbe:
    """Time the probe layer (:func:`_probe_step`) in float32 and under bfloat16 autocast.

    On one thread: the question is which kernels run, and on a shared machine a second thread
    mostly adds waiting. Where bfloat16 is emulated it ran 3-10x slower than float32 here, where
    native 1.1-1.4x faster, so the :data:`BF16_MIN_SPEEDUP` margin separates them. Takes well
    under a second where bfloat16 is native; measured once per process (cached).
    """
    import torch

    step = _probe_step()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        float32_ms, bfloat16_ms = _best_of_alternating(lambda: step(False), lambda: step(True), repeats)
    finally:
        torch.set_num_threads(threads)
    return PrecisionProbe(float32_ms=float32_ms, bfloat16_ms=bfloat16_ms)


def measure_thread_probe(threads: int, repeats: int = 3) -> ThreadProbe:
    """Time the float32 probe layer on one thread and on ``threads``; leaves torch on ``threads``."""
    import torch

    step = _probe_step()

    def on(count: int) -> float:
        torch.set_num_threads(count)
        return step(False)

    one_ms, all_ms = _best_of_alternating(lambda: on(1), lambda: on(threads), repeats)
    return ThreadProbe(one_thread_ms=one_ms, threads=threads, all_threads_ms=all_ms)


def hardware_for(setting: str) -> HardwareResolution:
    """:func:`resolve_precision` for this process, probing only where bfloat16 may be native."""
    # A worker with a thread pool may ask from two threads at once: measure once, not twice at a time.
    with _MEASURE_LOCK:
        cpu = detect_cpu()
        probe = measure_precision_probe() if setting != "off" and not cpu.bf16_obstacle() else None
    return resolve_precision(setting, cpu, probe)


def main() -> None:
    """Print what ``auto`` resolves to in this process, as one JSON document."""
    print(json.dumps(hardware_for("auto").as_dict()))


if __name__ == "__main__":
    main()
