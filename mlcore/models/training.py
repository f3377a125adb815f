"""Pieces shared by every training loop: the step clock, seeding, AdamW groups, checkpoints, accuracy.

:mod:`mlcore.models.finetune` (plain), :mod:`mlcore.models.fast_finetune` (frozen-prefix cache) and
:mod:`mlcore.models.qa_finetune` (extractive QA) all build on these, so none imports another.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch
from transformers import get_linear_schedule_with_warmup

from mlcore.configs import FineTuneConfig, MCExample, TrainProgress
from mlcore.models.hardware import HardwareResolution
from mlcore.models.inference import TRAINING_META_FILE, MultipleChoiceScorer

__all__ = [
    "EvalResult",
    "StepClock",
    "adamw_with_schedule",
    "evaluate_accuracy",
    "parameter_groups",
    "save_checkpoint",
    "seed_everything",
    "shuffled_batches",
    "train_epoch",
]

_Item = TypeVar("_Item")


@dataclass(frozen=True)
class EvalResult:
    """Accuracy of a scorer on labelled examples."""

    accuracy: float
    n: int
    correct: int


class StepClock:
    """Counts optimisation steps and reports them through the optional callback."""

    def __init__(self, total_steps: int, progress: Callable[[TrainProgress], None] | None) -> None:
        self.total_steps = total_steps
        self.progress = progress
        self.step = 0
        self.start = time.perf_counter()

    def tick(self, epoch: int, epoch_mean_loss: float) -> None:
        self.step += 1
        if self.progress is not None:
            elapsed = time.perf_counter() - self.start
            self.progress(TrainProgress(epoch, self.step, self.total_steps, epoch_mean_loss, elapsed))


def seed_everything(seed: int) -> None:
    """Seed Python's, NumPy's and torch's generators (a new head's init uses torch's)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def parameter_groups(model: torch.nn.Module, weight_decay: float) -> list[dict[str, Any]]:
    """AdamW groups over the parameters that require grad.

    Standard BERT recipe: no weight decay on biases and LayerNorm weights.
    """
    decay: list[torch.nn.Parameter] = []
    no_decay: list[torch.nn.Parameter] = []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        (no_decay if name.endswith("bias") or "LayerNorm" in name else decay).append(param)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def adamw_with_schedule(params: Any, learning_rate: float, warmup_ratio: float,
                        total_steps: int) -> tuple[torch.optim.Optimizer, Any]:
    """AdamW and its linear warmup-then-decay schedule, as every trainer here uses them.

    The fused CPU kernel does a step in one pass over each tensor: on a 2-core AMD EPYC it took
    4 ms per step for MiniLM's 7.1M trainable parameters against 16 ms for the default loop
    (about 6% of a cached cross-validation step). It needs float32 parameters on one device;
    anything else falls back to the default implementation.
    """
    groups = list(params)
    tensors = [p for group in groups for p in (group["params"] if isinstance(group, dict) else [group])]
    fusable = bool(tensors) and all(p.dtype == torch.float32 and p.device.type == "cpu" for p in tensors)
    optimizer = torch.optim.AdamW(groups, lr=learning_rate, fused=fusable or None)
    warmup_steps = int(warmup_ratio * total_steps)
    return optimizer, get_linear_schedule_with_warmup(optimizer, warmup_steps, total_steps)


def shuffled_batches(items: Sequence[_Item], batch_size: int, generator: torch.Generator) -> list[list[_Item]]:
    """One epoch's batches: ``items`` in a random order drawn from ``generator``, cut every ``batch_size``."""
    order = torch.randperm(len(items), generator=generator).tolist()
    return [[items[i] for i in order[start : start + batch_size]] for start in range(0, len(order), batch_size)]


def train_epoch(epoch: int, batches: Sequence[_Item], batch_loss: Callable[[_Item], torch.Tensor], *,
                schedule: tuple[torch.optim.Optimizer, Any], clipped: Sequence[torch.nn.Parameter],
                max_grad_norm: float, clock: StepClock) -> float:
    """One pass over ``batches`` as every trainer here makes it; returns the epoch's mean loss.

    Each step: ``batch_loss(batch)``, backward, the gradient norm of ``clipped`` clipped to
    ``max_grad_norm``, an optimiser and a schedule step (``schedule`` as from
    :func:`adamw_with_schedule`), and the epoch's running mean loss reported through ``clock``.
    """
    optimizer, scheduler = schedule
    total = 0.0
    for number, batch in enumerate(batches, start=1):
        loss = batch_loss(batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(clipped, max_grad_norm)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        total += loss.item()
        clock.tick(epoch, total / number)
    return total / len(batches)


def save_checkpoint(directory: str | Path, model: Any, tokenizer: Any, base_path: str, config: FineTuneConfig,
                    history: Sequence[float], hardware: HardwareResolution | None = None) -> Path:
    """Write weights, tokenizer and the training metadata ``MultipleChoiceModelScorer`` reads back.

    ``hardware`` (what the precision setting resolved to) is recorded as ``"hardware"``, so a
    model says which precision and CPU trained it.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    meta = {
        "base_path": base_path,
        "max_length": config.max_length,
        "answer_only": config.answer_only,
        "config": asdict(config),
        "history": list(history),
        "hardware": hardware.as_dict() if hardware is not None else None,
    }
    (directory / TRAINING_META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return directory


def evaluate_accuracy(scorer: MultipleChoiceScorer, examples: Sequence[MCExample]) -> EvalResult:
    """Fraction of labelled examples whose most probable choice is the label.

    Raises
    ------
    ValueError
        If ``examples`` is empty or contains an unlabelled example.
    """
    if not examples:
        raise ValueError("cannot evaluate on zero examples")
    if any(ex.label is None for ex in examples):
        raise ValueError("every evaluation example needs a label")
    predictions = scorer.predict(examples)
    correct = sum(pred.predicted == ex.label for pred, ex in zip(predictions, examples, strict=True))
    return EvalResult(accuracy=correct / len(examples), n=len(examples), correct=correct)
