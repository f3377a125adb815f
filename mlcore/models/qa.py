"""Extractive question answering (SQuAD 2.0 style) with ``AutoModelForQuestionAnswering``.

Read top to bottom: records and config, feature encoding (question + context windows with
a stride, character offsets from the fast tokenizer), span decoding (best start/end pair
within the context against the no-answer score at ``[CLS]``), and the model wrapper.

Character offsets returned by fast tokenizers are indices into the Python string, i.e.
code points, which is exactly what SQuAD's ``answer_start`` is, so a predicted span is
always ``context[start:start + len(text)]``. The model loads lazily through
:mod:`mlcore.models.loading` and is cached per process by :func:`load_qa_model`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mlcore.models.loading import LoadOnceCache, ModelLoadError, load_pretrained, resolve_checkpoint, weights_revision

__all__ = [
    "ExtractiveQAModel",
    "QAConfig",
    "QAExample",
    "QAPrediction",
    "QASpec",
    "clear_qa_cache",
    "decode_best_span",
    "encode_qa",
    "load_qa_model",
    "qa_model_loaded",
]


@dataclass(frozen=True)
class QASpec:
    """Which checkpoint to load: a local folder, hub id or ``packaged:all-MiniLM-L6-v2``."""

    path: str
    name: str
    revision: str = ""


@dataclass(frozen=True)
class QAConfig:
    """Inference settings (the SQuAD defaults of Hugging Face's ``run_qa.py``).

    ``null_threshold``: answer "no answer" when the ``[CLS]`` score beats the best span's
    score by more than this (0 = plain comparison).
    """

    max_length: int = 384
    doc_stride: int = 128
    max_answer_tokens: int = 30
    n_best: int = 20
    null_threshold: float = 0.0
    batch_size: int = 16

    def __post_init__(self) -> None:
        if self.doc_stride >= self.max_length:
            raise ValueError("doc_stride must be smaller than max_length")
        if self.max_answer_tokens < 1 or self.n_best < 1 or self.batch_size < 1:
            raise ValueError("max_answer_tokens, n_best and batch_size must be >= 1")


@dataclass(frozen=True)
class QAExample:
    """A question about a context.

    Attributes
    ----------
    question : str
        Never truncated; white space around it is stripped before tokenizing.
    context : str
        The passage the answer is taken from, in overlapping windows when it is long; predicted
        spans are character (code point) offsets into it.
    """

    question: str
    context: str


@dataclass(frozen=True)
class QAPrediction:
    """The model's answer: ``text == context[start:start + len(text)]``, or ``""``/``None`` for no answer.

    ``score`` is the best span's start+end logit (``None`` if no span fits), ``null_score``
    the ``[CLS]`` one.
    """

    text: str
    start: int | None
    score: float | None
    null_score: float
    model_name: str
    model_revision: str

    @property
    def has_answer(self) -> bool:
        return self.start is not None


def encode_qa(tokenizer: Any, examples: Sequence[QAExample], config: QAConfig, *, padding: Any = True) -> Any:
    """Tokenize (question, context) pairs into overlapping windows over the context.

    Returns the tokenizer's ``BatchEncoding`` with ``offset_mapping`` and
    ``overflow_to_sample_mapping`` (window -> example index). Questions are never truncated.
    """
    if not getattr(tokenizer, "is_fast", False):
        raise ValueError("extractive QA needs a fast tokenizer (character offsets)")
    return tokenizer(
        [ex.question.strip() for ex in examples],
        [ex.context for ex in examples],
        truncation="only_second",
        max_length=config.max_length,
        stride=config.doc_stride,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        padding=padding,
    )


def decode_best_span(
    start_logits: Sequence[float],
    end_logits: Sequence[float],
    offsets: Sequence[tuple[int, int] | None],
    config: QAConfig,
) -> tuple[float, tuple[int, int] | None, float]:
    """Best (score, (char_start, char_end) or None, null_score) of one window.

    ``offsets[i]`` is ``None`` for tokens outside the context. Only spans of context tokens
    with ``end >= start`` and at most ``config.max_answer_tokens`` tokens are considered.

    Examples
    --------
    >>> decode_best_span([5, 0, 9, 1], [5, 0, 1, 9], [None, (0, 3), (4, 6), (7, 9)], QAConfig())
    (18.0, (4, 9), 10.0)
    """
    null_score = float(start_logits[0] + end_logits[0])
    n = len(offsets)
    top_starts = sorted(range(n), key=lambda i: -start_logits[i])[: config.n_best]
    top_ends = sorted(range(n), key=lambda i: -end_logits[i])[: config.n_best]
    best_score, best_span = float("-inf"), None
    for s in top_starts:
        start_offset = offsets[s]
        if start_offset is None:
            continue
        for e in top_ends:
            end_offset = offsets[e]
            if end_offset is None or e < s or e - s + 1 > config.max_answer_tokens:
                continue
            score = float(start_logits[s] + end_logits[e])
            if score > best_score:
                best_score, best_span = score, (start_offset[0], end_offset[1])
    return best_score, best_span, null_score


class ExtractiveQAModel:
    """A fine-tuned ``AutoModelForQuestionAnswering`` answering SQuAD-2.0-style questions.

    Parameters
    ----------
    spec : QASpec
        Checkpoint to load (lazily, on the first ``predict``).
    config : QAConfig
        Windowing and decoding settings.

    Examples
    --------
    >>> model = ExtractiveQAModel(QASpec("var/models/pquad-qa", "pquad-qa"))
    >>> model.predict([QAExample("Where?", "It is in Paris.")])[0].text  # needs a fine-tuned QA model (none ships)  # doctest: +SKIP
    """

    def __init__(self, spec: QASpec, config: QAConfig | None = None) -> None:
        self.spec = spec
        self.config = config or QAConfig()
        self._lock = threading.Lock()

    def _load(self) -> None:
        if hasattr(self, "model_"):
            return
        from transformers import AutoModelForQuestionAnswering

        path = resolve_checkpoint(self.spec.path)
        self.tokenizer_, self.model_ = load_pretrained(AutoModelForQuestionAnswering, path, self.spec.name)
        if not getattr(self.tokenizer_, "is_fast", False):
            raise ModelLoadError(f"Could not load model {self.spec.name!r}: its tokenizer has no fast version")
        self.revision_ = self.spec.revision or weights_revision(path)

    def predict(self, examples: Sequence[QAExample]) -> list[QAPrediction]:
        """One prediction per example, in order (thread-safe; one batch at a time)."""
        if not examples:
            return []
        with self._lock:
            self._load()
            return self._predict(list(examples))

    def _predict(self, examples: list[QAExample]) -> list[QAPrediction]:
        import torch

        cfg = self.config
        best: list[tuple[float, tuple[int, int] | None]] = [(float("-inf"), None)] * len(examples)
        nulls = [float("inf")] * len(examples)
        for chunk_start in range(0, len(examples), cfg.batch_size):
            chunk = examples[chunk_start: chunk_start + cfg.batch_size]
            enc = encode_qa(self.tokenizer_, chunk, cfg)
            inputs = {k: torch.tensor(enc[k]) for k in ("input_ids", "attention_mask", "token_type_ids") if k in enc}
            with torch.inference_mode():
                out = self.model_(**inputs)  # start/end logits: (windows, seq)
            starts, ends = out.start_logits.tolist(), out.end_logits.tolist()
            for w, sample in enumerate(enc["overflow_to_sample_mapping"]):
                seq_ids = enc.sequence_ids(w)
                offsets = [tuple(o) if seq_ids[i] == 1 else None for i, o in enumerate(enc["offset_mapping"][w])]
                score, span, null = decode_best_span(starts[w], ends[w], offsets, cfg)
                i = chunk_start + sample
                # The no-answer score is the smallest over windows (HF run_qa convention);
                # the best span is the best over windows.
                nulls[i] = min(nulls[i], null)
                if span is not None and score > best[i][0]:
                    best[i] = (score, span)
        return [self._prediction(ex, best[i], nulls[i]) for i, ex in enumerate(examples)]

    def _prediction(self, example: QAExample, best: tuple[float, tuple[int, int] | None],
                    null_score: float) -> QAPrediction:
        score, span = best
        if span is None:
            return QAPrediction("", None, None, null_score, self.spec.name, self.revision_)
        if null_score > score + self.config.null_threshold or span[1] <= span[0]:
            return QAPrediction("", None, score, null_score, self.spec.name, self.revision_)
        start, end = span
        return QAPrediction(example.context[start:end], start, score, null_score, self.spec.name, self.revision_)


def _build_qa_model(spec: QASpec) -> ExtractiveQAModel:
    model = ExtractiveQAModel(spec)
    with model._lock:
        model._load()
    return model


# One load per spec at a time, as for the multiple-choice scorers (mlcore.models.loading.LoadOnceCache).
_qa_models: LoadOnceCache[QASpec, ExtractiveQAModel] = LoadOnceCache(_build_qa_model, maxsize=4)


def load_qa_model(spec: QASpec) -> ExtractiveQAModel:
    """The model for ``spec``, built once per process and loaded on construction.

    Raises
    ------
    mlcore.models.loading.ModelLoadError
        If the checkpoint cannot be loaded (the failed load is not cached).
    """
    return _qa_models.get(spec)


def qa_model_loaded(spec: QASpec) -> bool:
    """True when :func:`load_qa_model` would answer ``spec`` at once, without loading."""
    return _qa_models.loaded(spec)


def clear_qa_cache() -> None:
    """Forget every cached QA model."""
    _qa_models.clear()
