"""Inference engines for the live model: plain torch, int8 torch, ONNX Runtime float32 / int8.

An engine turns a loaded transformers model into a :class:`SequenceRunner`: a callable from
the tokenizer's tensors (``input_ids``, ``attention_mask`` and, for BERT, ``token_type_ids``)
to one output tensor, ``logits`` of a multiple-choice model or ``last_hidden_state`` of an
encoder. Engines differ in speed and in float rounding, never in what they compute:

* ``torch`` - the model as loaded, float32, under ``torch.inference_mode``.
* ``torch-int8`` - ``torch.ao.quantization.quantize_dynamic`` of every ``nn.Linear`` (int8
  weights, activations quantized per call).
* ``onnx`` - the model exported with ``torch.onnx.export`` and run by ONNX Runtime's CPU
  provider (float32, graph optimisations on).
* ``onnx-int8`` - the same graph after ONNX Runtime's dynamic int8 quantization.

``auto`` resolves to :data:`AUTO_ENGINE` when its package is installed, otherwise to ``torch``
(the fallback); ``benchmarks/inference_engines.py`` measures speed and CODAH accuracy of each
on the machine it runs on. onnxruntime is imported only when an ONNX engine is built.
"""

from __future__ import annotations

import importlib.util
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import torch

from mlcore.models.engine_cache import EngineCache, engine_key

__all__ = [
    "AUTO_ENGINE",
    "ENGINES",
    "ENGINE_CHOICES",
    "EngineUnavailable",
    "SequenceRunner",
    "build_runner",
    "engine_available",
    "resolve_engine",
]

ENGINES: tuple[str, ...] = ("torch", "torch-int8", "onnx", "onnx-int8")
ENGINE_CHOICES: tuple[str, ...] = ("auto", *ENGINES)
#: What ``auto`` runs when onnxruntime is installed; chosen with benchmarks/inference_engines.py:
#: the fastest engine whose CODAH fold-0 test accuracy is within 0.5 points of float32 torch. ONNX
#: Runtime float32 kept torch's accuracy and was the fastest such engine on the live path; both
#: int8 engines were faster still but lost more than 0.5 points, so they are opt-in.
AUTO_ENGINE = "onnx"

Output = Literal["logits", "last_hidden_state"]
#: ``dict`` of int64 tensors, each ``(batch, seq)`` or ``(batch, choices, seq)``, -> output tensor.
SequenceRunner = Callable[[dict[str, torch.Tensor]], torch.Tensor]


class EngineUnavailable(Exception):
    """The requested engine's package is not installed, or the model cannot run on it."""


def engine_available(engine: str) -> bool:
    """True if ``engine`` can be built in this process (ONNX engines need onnxruntime and onnx)."""
    if engine.startswith("onnx"):
        return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))
    return engine in ENGINES


def resolve_engine(requested: str) -> str:
    """The engine that ``requested`` (one of :data:`ENGINE_CHOICES`) means in this process.

    Examples
    --------
    >>> resolve_engine("torch")
    'torch'
    >>> resolve_engine("auto") in ENGINES
    True
    """
    if requested not in ENGINE_CHOICES:
        raise ValueError(f"unknown inference engine {requested!r}; expected one of {', '.join(ENGINE_CHOICES)}")
    if requested == "auto":
        return AUTO_ENGINE if engine_available(AUTO_ENGINE) else "torch"
    return requested


def build_runner(model: Any, *, engine: str, output: Output, input_names: Sequence[str],
                 threads: int | None = None, cache_dir: Path | None = None) -> SequenceRunner:
    """A runner computing ``model``'s ``output`` with ``engine`` (not ``auto``: resolve it first).

    Parameters
    ----------
    model : transformers.PreTrainedModel
        In eval mode; it is not modified (the int8 engines quantize a copy).
    engine : str
        One of :data:`ENGINES`.
    output : {"logits", "last_hidden_state"}
        Which output the runner returns.
    input_names : sequence of str
        The tokenizer's tensors the model takes, e.g. ``tokenizer.model_input_names``.
    threads : int or None
        Intra-op threads of an ONNX Runtime session (default: ``torch.get_num_threads()``).
    cache_dir : Path or None
        Where exported ONNX graphs are kept between processes (default: the folder named by the
        environment variable ``STUMPER_ENGINE_CACHE_DIR``; unset, nothing is kept). A graph is
        found again only for the same weights, configuration, engine, output and library
        versions (:func:`mlcore.models.engine_cache.engine_key`), so a restart skips the export.

    Raises
    ------
    EngineUnavailable
        If onnxruntime is missing for an ONNX engine, or the export fails.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown inference engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if engine == "torch":
        return _torch_runner(model, output)
    if engine == "torch-int8":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.ao.quantization announces its move to torchao
            quantized = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        return _torch_runner(quantized, output)
    if not engine_available(engine):
        raise EngineUnavailable(f"engine {engine!r} needs the onnxruntime and onnx packages")
    return _onnx_runner(model, output, list(input_names), quantize=engine == "onnx-int8",
                        threads=threads or torch.get_num_threads(), cache=EngineCache.at(cache_dir))


def _torch_runner(model: Any, output: Output) -> SequenceRunner:
    def run(inputs: dict[str, torch.Tensor]) -> torch.Tensor:
        with torch.inference_mode():
            result: torch.Tensor = getattr(model(**inputs), output)
        return result

    return run


class _OutputOnly(torch.nn.Module):
    """Positional inputs in ``input_names`` order -> one output (what the ONNX exporter wants)."""

    def __init__(self, model: Any, output: Output, input_names: list[str]) -> None:
        super().__init__()
        self.model, self.output, self.input_names = model, output, input_names

    def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
        result: torch.Tensor = getattr(self.model(**dict(zip(self.input_names, tensors))), self.output)
        return result


def _export_inputs(model: Any, output: Output, input_names: list[str]) -> tuple[torch.Tensor, ...]:
    # Two rows of different lengths, the shorter one padded: the attention mask must be traced as
    # a real input (with an all-ones mask transformers skips building it, and the graph would
    # ignore padding).
    ids = torch.tensor([[101, 2023, 2003, 1037, 3231, 102], [101, 2023, 102, 0, 0, 0]])  # (2, seq)
    ids = ids.clamp(max=model.config.vocab_size - 1)
    dummies = {
        "input_ids": ids,
        "attention_mask": (ids != 0).long(),
        "token_type_ids": torch.zeros_like(ids),
    }
    tensors = [dummies[name] for name in input_names]
    if output == "logits":  # multiple choice: (batch, choices, seq), here one question of two choices
        tensors = [t.unsqueeze(0) for t in tensors]
    return tuple(tensors)


def _onnx_runner(model: Any, output: Output, input_names: list[str], *, quantize: bool, threads: int,
                 cache: EngineCache | None) -> SequenceRunner:
    unknown = [name for name in input_names if name not in ("input_ids", "attention_mask", "token_type_ids")]
    if unknown:
        raise EngineUnavailable(f"cannot export a model taking {unknown} to ONNX")
    key = engine_key(model, engine="onnx-int8" if quantize else "onnx", output=output, input_names=input_names)
    cached = cache.find(key) if cache is not None else None
    if cached is not None:
        return _onnx_session_runner(cached, input_names, threads)
    with tempfile.TemporaryDirectory(prefix="mlcore-onnx-") as tmp:
        path = _export_onnx(model, output, input_names, quantize=quantize, folder=Path(tmp))
        if cache is not None:
            path = cache.keep(key, path)
        return _onnx_session_runner(path, input_names, threads)


def _export_onnx(model: Any, output: Output, input_names: list[str], *, quantize: bool, folder: Path) -> Path:
    """The ONNX graph of ``model``'s ``output``, written in ``folder`` (quantized to int8 if asked)."""
    axes = {0: "batch", 1: "choices", 2: "seq"} if output == "logits" else {0: "batch", 1: "seq"}
    out_axes = {0: "batch", 1: "choices"} if output == "logits" else {0: "batch", 1: "seq"}
    path = folder / "model.onnx"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer warnings about Python control flow on shapes
            torch.onnx.export(
                _OutputOnly(model, output, input_names).eval(), _export_inputs(model, output, input_names),
                str(path), dynamo=False, input_names=input_names, output_names=[output], opset_version=17,
                dynamic_axes={**dict.fromkeys(input_names, axes), output: out_axes},
            )
        if quantize:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            quantized = folder / "model.int8.onnx"
            quantize_dynamic(str(path), str(quantized), weight_type=QuantType.QInt8)
            path = quantized
    except Exception as exc:  # the exporter raises many types; all mean "not on this engine"
        raise EngineUnavailable(f"could not export the model to ONNX: {type(exc).__name__}: {exc}") from exc
    return path


def _onnx_session_runner(path: Path, input_names: list[str], threads: int) -> SequenceRunner:
    """A runner over an ONNX Runtime session of the graph at ``path`` (read once, here)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # No busy-waiting between ops: the web process's event loop and the other processes need
    # the cores (measured with 2 threads on a shared 2-core machine: spinning doubled a forward).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def run(inputs: dict[str, torch.Tensor]) -> torch.Tensor:
        feed = {name: inputs[name].numpy() for name in input_names}
        return torch.from_numpy(session.run(None, feed)[0])

    return run
