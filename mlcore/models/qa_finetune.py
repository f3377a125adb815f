"""Fine-tuning ``AutoModelForQuestionAnswering`` on SQuAD-2.0-format data.

The recipe of Hugging Face's ``run_qa.py``: each question becomes one or more windows over
its context (stride ``doc_stride``); a window's label is the token span of the first gold
answer, or ``[CLS]`` (position 0) when the question is unanswerable or the answer is not
fully inside the window. Plain AdamW with linear warmup and decay, gradient clipping and
dynamic padding, as in :mod:`mlcore.models.finetune`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mlcore.configs import TrainProgress
from mlcore.models.qa import QAConfig, QAExample, encode_qa
from mlcore.models.training import (
    StepClock,
    adamw_with_schedule,
    parameter_groups,
    seed_everything,
    shuffled_batches,
    train_epoch,
)
from mlcore.stats.squad_metrics import SquadQuestion

__all__ = ["QA_TRAINING_META_FILE", "QAFineTuneConfig", "QuestionAnsweringTrainer", "window_labels"]

QA_TRAINING_META_FILE = "mlcore_qa_training.json"


@dataclass(frozen=True)
class QAFineTuneConfig:
    """Hyperparameters (defaults: BERT-base on SQuAD, fewer epochs for a CPU).

    The windows (``max_length``, ``doc_stride``) default to those :class:`QAConfig` answers with.
    """

    epochs: int = 2
    batch_size: int = 16
    learning_rate: float = 5e-5
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1
    max_length: int = QAConfig.max_length
    doc_stride: int = QAConfig.doc_stride
    max_grad_norm: float = 1.0
    seed: int = 0
    threads: int = 2

    def __post_init__(self) -> None:
        if self.epochs < 1 or self.batch_size < 1:
            raise ValueError("epochs and batch_size must be >= 1")
        if not self.learning_rate > 0:
            raise ValueError("learning_rate must be positive")
        if not 0 <= self.warmup_ratio < 1:
            raise ValueError("warmup_ratio must be in [0, 1)")
        QAConfig(max_length=self.max_length, doc_stride=self.doc_stride)  # validates the window


def window_labels(offsets: Sequence[tuple[int, int]], sequence_ids: Sequence[int | None],
                  answer: tuple[int, int] | None) -> tuple[int, int]:
    """Token (start, end) of the character span ``answer`` in one window, or (0, 0).

    Examples
    --------
    >>> window_labels([(0, 0), (0, 4), (0, 0), (0, 5), (6, 9), (0, 0)], [None, 0, None, 1, 1, None], (6, 9))
    (4, 4)
    """
    if answer is None:
        return 0, 0
    context = [i for i, s in enumerate(sequence_ids) if s == 1]
    if not context:
        return 0, 0
    first, last = context[0], context[-1]
    char_start, char_end = answer
    if offsets[first][0] > char_start or offsets[last][1] < char_end:
        return 0, 0
    start = first
    while start <= last and offsets[start][1] <= char_start:
        start += 1
    end = last
    while end >= first and offsets[end][0] >= char_end:
        end -= 1
    return (start, end) if start <= end else (0, 0)


class QuestionAnsweringTrainer:
    """Fine-tune a BERT-family checkpoint for extractive QA.

    Parameters
    ----------
    config : QAFineTuneConfig
    base_path : str
        Local folder, hub id or ``packaged:all-MiniLM-L6-v2`` (a fresh QA head is added
        to a checkpoint without one).

    Attributes
    ----------
    model_, tokenizer_ : the fine-tuned model (eval mode) and its tokenizer
    history_ : list of float, mean training loss per epoch
    n_windows_ : int, training windows built from the questions
    """

    def __init__(self, config: QAFineTuneConfig, base_path: str) -> None:
        self.config = config
        self.base_path = base_path

    def fit(self, questions: Sequence[SquadQuestion],
            progress: Callable[[TrainProgress], None] | None = None) -> QuestionAnsweringTrainer:
        """Train on SQuAD questions (the first gold answer is the label); returns ``self``."""
        import torch
        from transformers import AutoModelForQuestionAnswering

        from mlcore.models.loading import load_pretrained, resolve_checkpoint, set_torch_threads

        if not questions:
            raise ValueError("cannot fine-tune on zero questions")
        cfg = self.config
        set_torch_threads(cfg.threads)
        seed_everything(cfg.seed)  # before loading: the new QA head's init uses the RNG
        self.tokenizer_, self.model_ = load_pretrained(
            AutoModelForQuestionAnswering, resolve_checkpoint(self.base_path), self.base_path
        )
        windows = self._windows(questions)
        self.n_windows_ = len(windows)
        total = -(-len(windows) // cfg.batch_size) * cfg.epochs
        schedule = adamw_with_schedule(parameter_groups(self.model_, cfg.weight_decay), cfg.learning_rate,
                                       cfg.warmup_ratio, total)
        clock = StepClock(total, progress)
        order_rng = torch.Generator().manual_seed(cfg.seed)
        parameters = list(self.model_.parameters())
        self.history_: list[float] = []
        self.model_.train()
        for epoch in range(1, cfg.epochs + 1):
            batches = shuffled_batches(windows, cfg.batch_size, order_rng)
            self.history_.append(train_epoch(epoch, batches, self._batch_loss, schedule=schedule, clipped=parameters,
                                             max_grad_norm=cfg.max_grad_norm, clock=clock))
        self.model_.eval()
        return self

    def _windows(self, questions: Sequence[SquadQuestion]) -> list[dict[str, Any]]:
        cfg = QAConfig(max_length=self.config.max_length, doc_stride=self.config.doc_stride)
        examples = [QAExample(q.question, q.context) for q in questions]
        enc = encode_qa(self.tokenizer_, examples, cfg, padding=False)
        windows = []
        for w, sample in enumerate(enc["overflow_to_sample_mapping"]):
            q = questions[sample]
            answer = None
            if q.answers and not q.is_impossible:
                first = q.answers[0]
                answer = (first.answer_start, first.answer_start + len(first.text))
            start, end = window_labels(enc["offset_mapping"][w], enc.sequence_ids(w), answer)
            features = {k: enc[k][w] for k in ("input_ids", "attention_mask", "token_type_ids") if k in enc}
            windows.append({**features, "start_positions": start, "end_positions": end})
        return windows

    def _batch_loss(self, batch: list[dict[str, Any]]) -> Any:
        import torch

        labels = {k: torch.tensor([w[k] for w in batch]) for k in ("start_positions", "end_positions")}
        features = [{k: v for k, v in w.items() if k not in labels} for w in batch]
        padded = self.tokenizer_.pad(features, return_tensors="pt")  # (batch, longest window)
        return self.model_(**padded, **labels).loss

    def save(self, directory: str | Path) -> Path:
        """Write weights, tokenizer and the training settings."""
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit() before save()")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.model_.save_pretrained(directory)
        self.tokenizer_.save_pretrained(directory)
        meta = {"base_path": self.base_path, "config": asdict(self.config), "history": self.history_,
                "windows": self.n_windows_}
        (directory / QA_TRAINING_META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
        return directory
