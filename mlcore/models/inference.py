"""Scorers that turn CODAH-style questions into probabilities over the 4 choices.

Two model families, read top to bottom:

* :class:`ZeroShotEmbeddingScorer` - version 0 of the product. A sentence
  embedding model (all-MiniLM-L6-v2, mean pooling + L2 normalisation exactly
  like sentence-transformers) scores how well each completed sentence stays
  on the prompt's topic and how much each answer stands out from the others;
  no training needed.
* :class:`MultipleChoiceModelScorer` - a fine-tuned ``AutoModelForMultipleChoice``
  fed (prompt, choice) pairs like BERT on SWAG.

Both load lazily through :mod:`mlcore.models.loading` and run batched under
``torch.inference_mode`` with dynamic padding (pad to the longest text of a
batch, not to ``max_length``). ``predict`` holds a per-scorer lock: a fast
tokenizer raises "Already borrowed" when two threads use it at once, and one
forward pass already uses every torch thread, so serialising costs nothing.
Live scoring (:mod:`mlcore.models.incremental`) wraps these scorers and takes the same ``lock``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import torch
from transformers import AutoModel, AutoModelForMultipleChoice

from mlcore.configs import (
    NUM_CHOICES,
    InferenceConfig,
    MCExample,
    MCPrediction,
    ScorerKind,
    ScorerSpec,
    ZeroShotConfig,
)
from mlcore.models.loading import load_pretrained, resolve_checkpoint, weights_revision

__all__ = [
    "TRAINING_META_FILE",
    "MultipleChoiceModelScorer",
    "MultipleChoiceScorer",
    "ZeroShotEmbeddingScorer",
    "build_scorer",
    "encode_pairs",
    "mean_pool_normalize",
    "read_training_meta",
    "zero_shot_scores",
    "zero_shot_texts",
]

#: Written by the trainer next to the weights; read back so inference blanks
#: prompts / truncates exactly as in training.
TRAINING_META_FILE = "mlcore_training.json"


class MultipleChoiceScorer(Protocol):
    """What the Django side relies on: a spec and a batched ``predict``."""

    spec: ScorerSpec

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """Return one prediction per example, in order."""
        ...


def length_sorted_chunks(lengths: Sequence[int], size: int) -> list[list[int]]:
    """Split ``range(len(lengths))`` into chunks of at most ``size`` indices of similar length.

    On CPU a forward pass costs about (texts x padded length), so one big
    batch padded to its longest text is slower than a few chunks of similar
    lengths (measured on CODAH: 1.7x for the zero-shot scorer).
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    return [order[start : start + size] for start in range(0, len(order), size)]


def to_predictions(probs: torch.Tensor, spec: ScorerSpec, revision: str) -> list[MCPrediction]:
    """One :class:`MCPrediction` per row of ``probs``, stamped with the model's name and revision."""
    # probs: (batch, 4), softmax taken in float64 so each row sums to 1 within 1e-12.
    rows = probs.double().tolist()
    return [
        MCPrediction(
            probs=tuple(row),
            predicted=int(max(range(NUM_CHOICES), key=row.__getitem__)),
            model_name=spec.name,
            model_revision=revision,
        )
        for row in rows
    ]


def zero_shot_texts(example: MCExample) -> list[str]:
    """The 9 texts the zero-shot scorer embeds: prompt, the 4 bare choices, the 4 completed sentences."""
    prompt = example.prompt.strip()
    choices = [choice.strip() for choice in example.choices]
    return [prompt, *choices, *(f"{prompt} {choice}" for choice in choices)]


def mean_pool_normalize(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Mean over the real tokens, then L2 normalisation (sentence-transformers' recipe).

    ``hidden`` is ``(batch, seq, hidden)``, ``attention_mask`` ``(batch, seq)``; returns ``(batch, hidden)``.
    """
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (batch, seq, 1)
    pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)  # (batch, hidden)
    return torch.nn.functional.normalize(pooled, p=2, dim=-1)


def zero_shot_scores(emb: torch.Tensor, odd_one_out_weight: float) -> torch.Tensor:
    """Scores ``(batch, 4)`` from the embeddings ``(batch, 9, hidden)`` of :func:`zero_shot_texts`."""
    prompt_emb = emb[:, :1]  # (batch, 1, hidden)
    choice_emb = emb[:, 1 : 1 + NUM_CHOICES]  # (batch, 4, hidden)
    completed_emb = emb[:, 1 + NUM_CHOICES :]  # (batch, 4, hidden)
    coherence = (prompt_emb * completed_emb).sum(dim=-1)  # (batch, 4)
    pairwise = choice_emb @ choice_emb.transpose(1, 2)  # (batch, 4, 4), diagonal = 1
    mean_other = (pairwise.sum(dim=-1) - pairwise.diagonal(dim1=1, dim2=2)) / (NUM_CHOICES - 1)  # (batch, 4)
    return coherence - odd_one_out_weight * mean_other


class ZeroShotEmbeddingScorer:
    """Zero-shot scorer on a sentence-embedding model (default: packaged MiniLM).

    Score of choice *i* (all vectors are normalised mean-pooled embeddings)::

        cos(prompt, prompt + " " + choice_i) - w * mean_{j != i} cos(choice_i, choice_j)

    The first term is how little the completion moves the sentence away from
    what the prompt is about (a coherent ending keeps the topic). The second
    ("odd one out") uses that CODAH authors often write the three distractors
    around one shared idea, so the answer least like the others tends to be
    right. ``probs = softmax(score / temperature)``.

    Measured on CODAH fold 0 (chance 0.25; ``w`` and ``temperature`` fitted
    on train): first term alone 0.355 train / 0.353 dev / 0.355 test; with
    the odd-one-out term 0.396 / 0.430 / 0.425. Other formulations tried
    (cosine of prompt and bare choice, of context sentence and completed last
    sentence, ...) reached at most 0.364 on test.

    Parameters
    ----------
    spec : ScorerSpec
        Checkpoint with a BERT-family encoder (any head is ignored).
    config : ZeroShotConfig
        Term weight, temperature, token limit and batch size.
    """

    def __init__(self, spec: ScorerSpec, config: ZeroShotConfig = ZeroShotConfig()) -> None:
        self.spec = spec
        self.config = config
        path = resolve_checkpoint(spec.path)
        self.tokenizer_, self.model_ = load_pretrained(AutoModel, path, spec.name)
        self.revision_ = spec.revision or weights_revision(path)
        self.lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> torch.Tensor:
        """Mean-pooled, L2-normalised sentence embeddings, shape ``(len(texts), hidden)``.

        Texts are run in length-sorted passes of ``config.texts_per_pass``.
        """
        out = torch.empty(len(texts), self.model_.config.hidden_size)  # (n, hidden)
        for chunk in length_sorted_chunks([len(t) for t in texts], self.config.texts_per_pass):
            enc = self.tokenizer_(
                [texts[i] for i in chunk],
                padding=True,
                truncation=True,
                max_length=self.config.max_length,
                return_tensors="pt",
            )
            with torch.inference_mode():
                hidden = self.model_(**enc).last_hidden_state  # (chunk, seq, hidden)
            out[chunk] = mean_pool_normalize(hidden, enc["attention_mask"])
        return out

    def scores(self, examples: Sequence[MCExample]) -> torch.Tensor:
        """Unscaled scores (see class docstring), shape ``(batch, 4)``."""
        n_texts = 1 + 2 * NUM_CHOICES  # prompt, 4 bare choices, 4 completed sentences
        texts = [text for example in examples for text in zero_shot_texts(example)]
        emb = self.embed(texts).view(len(examples), n_texts, -1)  # (batch, 9, hidden)
        return zero_shot_scores(emb, self.config.odd_one_out_weight)

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """Probabilities for each example, scoring ``config.batch_size`` questions at a time."""
        predictions: list[MCPrediction] = []
        with self.lock:
            for start in range(0, len(examples), self.config.batch_size):
                chunk = examples[start : start + self.config.batch_size]
                probs = torch.softmax(self.scores(chunk).double() / self.config.temperature, dim=-1)  # (chunk, 4)
                predictions.extend(to_predictions(probs, self.spec, self.revision_))
        return predictions


def encode_pairs(
    tokenizer: Any, examples: Sequence[MCExample], *, max_length: int, answer_only: bool
) -> dict[str, torch.Tensor]:
    """Tokenise (prompt, choice) pairs like BERT-SWAG, padded to the batch's longest pair.

    Returns tensors of shape ``(batch, 4, seq)``. With ``answer_only`` the
    prompt is blanked, so the model only sees ``[CLS] [SEP] choice [SEP]``.
    """
    firsts = [("" if answer_only else ex.prompt) for ex in examples for _ in range(NUM_CHOICES)]
    seconds = [choice for ex in examples for choice in ex.choices]
    enc = tokenizer(
        firsts, seconds, padding=True, truncation="longest_first", max_length=max_length, return_tensors="pt"
    )  # each (batch * 4, seq)
    return {key: value.view(len(examples), NUM_CHOICES, -1) for key, value in enc.items()}


def read_training_meta(path: str) -> dict[str, Any]:
    """Settings the trainer stored beside a fine-tuned checkpoint (empty if none)."""
    meta_file = Path(path) / TRAINING_META_FILE
    if not meta_file.is_file():
        return {}
    meta: dict[str, Any] = json.loads(meta_file.read_text(encoding="utf-8"))
    return meta


class MultipleChoiceModelScorer:
    """Scorer backed by ``AutoModelForMultipleChoice`` (softmax over the 4 logits).

    Parameters
    ----------
    spec : ScorerSpec
        Checkpoint directory, typically written by
        :meth:`mlcore.models.finetune.MultipleChoiceTrainer.save`.
    config : InferenceConfig
        Token limit and batch size; ``max_length`` and ``answer_only`` are
        taken from the checkpoint's training metadata when present.
    """

    def __init__(self, spec: ScorerSpec, config: InferenceConfig = InferenceConfig()) -> None:
        self.spec = spec
        path = resolve_checkpoint(spec.path)
        self.tokenizer_, self.model_ = load_pretrained(AutoModelForMultipleChoice, path, spec.name)
        meta = read_training_meta(path) if Path(path).is_dir() else {}
        self.max_length_: int = int(meta.get("max_length", config.max_length))
        self.answer_only_: bool = bool(meta.get("answer_only", config.answer_only))
        self.config = config
        self.revision_ = spec.revision or weights_revision(path)
        self.lock = threading.Lock()

    def logits(self, examples: Sequence[MCExample]) -> torch.Tensor:
        """Raw scores, shape ``(batch, 4)``, in one forward pass."""
        enc = encode_pairs(self.tokenizer_, examples, max_length=self.max_length_, answer_only=self.answer_only_)
        with torch.inference_mode():
            logits: torch.Tensor = self.model_(**enc).logits  # (batch, 4)
        return logits

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """Probabilities for each example, in length-sorted forward passes of ``batch_size`` questions."""
        probs = torch.empty(len(examples), NUM_CHOICES, dtype=torch.float64)  # (batch, 4)
        lengths = [len(ex.prompt) + max(len(c) for c in ex.choices) for ex in examples]
        with self.lock:
            for chunk in length_sorted_chunks(lengths, self.config.batch_size):
                probs[chunk] = torch.softmax(self.logits([examples[i] for i in chunk]).double(), dim=-1)
        return to_predictions(probs, self.spec, self.revision_)


def build_scorer(spec: ScorerSpec) -> MultipleChoiceModelScorer | ZeroShotEmbeddingScorer:
    """Load the scorer class a spec's kind names (not cached: :mod:`mlcore.models.live` caches live models).

    Raises
    ------
    ModelLoadError
        If the checkpoint cannot be loaded.
    ValueError
        If the spec is of another kind.
    """
    kind = ScorerKind(spec.kind)
    if kind is ScorerKind.ZERO_SHOT:
        return ZeroShotEmbeddingScorer(spec)
    if kind is ScorerKind.MULTIPLE_CHOICE:
        return MultipleChoiceModelScorer(spec)
    raise ValueError(f"{spec.name} is a {kind.value} model, not an encoder scorer")
