"""Fast CPU fine-tuning: run the frozen lower layers once per question, train the rest.

With ``FineTuneConfig.freeze_layers = N`` the embeddings and the first N
encoder layers of a BERT-style ``AutoModelForMultipleChoice`` never change
and run without dropout, so their output is a fixed function of the
question. :class:`FrozenPrefixCache` computes it once (length-sorted
batches under ``torch.inference_mode``) and keeps one ``(4, len_i, hidden)``
tensor per question, padded only to that question's longest pair.
:class:`FastMultipleChoiceTrainer` then trains the upper layers, pooler and
classifier on batches of cached states (:mod:`mlcore.models.packed_layers`):
the linear layers, nearly all of a step's work, run on the batch's real
tokens only (even length-grouped CODAH batches are 13% padding, as the four
completions of a question differ in length), and the top layer computes
queries, attention output and feed-forward for the [CLS] token alone, the
only one the pooler reads.

Both are exact: in eval mode the logits equal the model's own forward pass
up to float rounding. Dropout hits the same kind of values with the same
probability but draws fewer random numbers (none for what is skipped), from
numpy rather than torch in the trainable layers (:mod:`mlcore.models.fast_dropout`:
torch's mask generator is serial on non-Intel CPUs), so only without dropout does training match
:class:`mlcore.models.finetune.MultipleChoiceTrainer` step for step (tested). The
saved checkpoint is an ordinary full model (frozen weights unchanged) that
:class:`mlcore.models.inference.MultipleChoiceModelScorer` loads.

In cross-validation every fold starts from the same base model, so one cache
built over all questions serves every fold and trial::

    cache = FrozenPrefixCache.build(PACKAGED_MINILM, all_examples, FineTuneConfig.fast_cv())
    for train_idx, test_idx in folds:
        trainer = FastMultipleChoiceTrainer(FineTuneConfig.fast_cv(), cache).fit(train_idx)
        predictions = trainer.predict(test_idx)

Supported: models whose base has ``embeddings``, ``encoder.layer`` and
``pooler``, whose layers are BERT layers (``attention.self`` with
``query``/``key``/``value``, ``attention.output``, ``intermediate``,
``output``) and whose head is ``dropout`` + ``classifier`` on the pooled
output (BERT, including the packaged MiniLM; RoBERTa has the same layout).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import torch
from transformers import AutoModelForMultipleChoice

from mlcore.configs import (
    NUM_CHOICES,
    FineTuneConfig,
    MCPrediction,
    ScorerKind,
    ScorerSpec,
    TrainProgress,
)
from mlcore.models.fast_dropout import DropoutNoise
from mlcore.models.frozen_prefix import PASS_SIZE, FrozenPrefixCache, check_frozen_layout
from mlcore.models.hardware import HardwareResolution, hardware_for, training_threads
from mlcore.models.inference import length_sorted_chunks, to_predictions
from mlcore.models.loading import (
    load_pretrained,
    resolve_checkpoint,
    set_torch_threads,
)
from mlcore.models.packed_layers import PackedBatch, check_packable, packed_layer
from mlcore.models.training import (
    EvalResult,
    StepClock,
    adamw_with_schedule,
    parameter_groups,
    save_checkpoint,
    seed_everything,
    train_epoch,
)

__all__ = ["FastMultipleChoiceTrainer"]

#: With ``length_grouped``, batches are formed inside windows of this many
#: batches (as transformers' ``group_by_length`` does with its mega-batches).
_GROUP_WINDOW_BATCHES = 50


class FastMultipleChoiceTrainer:
    """Fine-tune the layers above a :class:`FrozenPrefixCache`, scikit-learn style.

    Parameters
    ----------
    config : FineTuneConfig
        Hyperparameters; ``freeze_layers``, ``max_length`` and
        ``answer_only`` must match the cache.
    cache : FrozenPrefixCache
        Frozen-prefix states of every question ``fit`` and ``predict`` may
        be given (by index).
    name : str
        ``model_name`` of the predictions (default: derived from the base path).

    Attributes
    ----------
    model_ : transformers.PreTrainedModel
        The full fine-tuned model (frozen weights as in the base), eval mode.
    tokenizer_ : transformers.PreTrainedTokenizerBase
        Its tokenizer.
    history_ : list of float
        Mean training loss of each epoch.
    revision_ : str
        Hash of the trained weights and the base revision; the
        ``model_revision`` of predictions (a saved copy gets the file hash).
    hardware_ : mlcore.models.hardware.HardwareResolution
        What ``config.bf16`` resolved to on this machine (the precision used).
    threads_ : int
        The torch threads training used (``config.threads``, or measured for 0).

    Examples
    --------
    A toy task (the right completion is the one holding "zebra") that two epochs learn:

    >>> from mlcore.configs import PACKAGED_MINILM
    >>> from mlcore.testing import make_toy_examples
    >>> examples = make_toy_examples(40)
    >>> config = FineTuneConfig.fast_cv(epochs=2, learning_rate=5e-4)
    >>> cache = FrozenPrefixCache.build(PACKAGED_MINILM, examples, config)
    >>> trainer = FastMultipleChoiceTrainer(config, cache).fit(range(32))
    >>> trainer.evaluate(range(32, 40))
    EvalResult(accuracy=1.0, n=8, correct=8)
    """

    def __init__(self, config: FineTuneConfig, cache: FrozenPrefixCache, *, name: str = "") -> None:
        self.config = config
        self.cache = cache
        self.name = name
        self._noise: DropoutNoise | None = None

    def fit(self, indices: Sequence[int] | None = None,
            progress: Callable[[TrainProgress], None] | None = None) -> FastMultipleChoiceTrainer:
        """Train on the cached questions at ``indices`` (default: all); returns ``self``.

        Raises
        ------
        ValueError
            If the cache does not match the config, there are no indices, or
            a question has no label.
        """
        cfg = self.config
        indices = self._check_indices(indices)
        if any(self.cache.examples[i].label is None for i in indices):
            raise ValueError("every training example needs a label")
        self._load_model()
        self.hardware_: HardwareResolution = hardware_for(cfg.bf16)
        batches_per_epoch = -(-len(indices) // cfg.batch_size)
        total_steps = batches_per_epoch * cfg.epochs
        params = parameter_groups(self.model_, cfg.weight_decay)
        optimizer, scheduler = adamw_with_schedule(params, cfg.learning_rate, cfg.warmup_ratio, total_steps)
        clock = StepClock(total_steps, progress)
        trainable = [p for group in params for p in group["params"]]
        # Same generator use as MultipleChoiceTrainer, so both see batches in the same order.
        order_rng = torch.Generator().manual_seed(cfg.seed)
        self.history_: list[float] = []
        self._noise = DropoutNoise(cfg.seed)  # the trainable layers' dropout masks (fast on any CPU)
        self.model_.train()  # the frozen modules are never called, so their mode does not matter
        for epoch in range(1, cfg.epochs + 1):
            batches = self._epoch_batches(indices, order_rng)
            self.history_.append(train_epoch(epoch, batches, self._batch_loss, schedule=(optimizer, scheduler),
                                             clipped=trainable, max_grad_norm=cfg.max_grad_norm, clock=clock))
        self.model_.eval()
        self.revision_ = self._weights_hash()
        return self

    def _epoch_batches(self, indices: list[int], generator: torch.Generator) -> list[list[int]]:
        """One epoch's batches of cache indices, in training order."""
        size = self.config.batch_size
        order = [indices[i] for i in torch.randperm(len(indices), generator=generator).tolist()]
        if not self.config.length_grouped:
            return [order[s : s + size] for s in range(0, len(order), size)]
        window = size * _GROUP_WINDOW_BATCHES
        lengths = {i: self.cache.states[i].size(1) for i in indices}
        # Stable sort inside each shuffled window, so ties keep their random order.
        order = [i for s in range(0, len(order), window) for i in sorted(order[s : s + window], key=lengths.__getitem__)]
        batches = [order[s : s + size] for s in range(0, len(order), size)]
        return [batches[k] for k in torch.randperm(len(batches), generator=generator).tolist()]

    def _check_indices(self, indices: Sequence[int] | None) -> list[int]:
        self.cache.check_compatible(self.config)
        indices = list(range(len(self.cache))) if indices is None else [int(i) for i in indices]
        if not indices:
            raise ValueError("cannot fine-tune or predict on zero examples")
        if min(indices) < 0 or max(indices) >= len(self.cache):
            raise ValueError(f"indices must be in 0..{len(self.cache) - 1}")
        return indices

    def _load_model(self) -> None:
        self.threads_ = training_threads(self.config.threads)
        set_torch_threads(self.threads_)
        # Seed right before loading: a new classifier head's init uses the torch RNG.
        seed_everything(self.config.seed)
        path = resolve_checkpoint(self.cache.base_path)
        self.tokenizer_, self.model_ = load_pretrained(AutoModelForMultipleChoice, path, self.cache.base_path)
        check_frozen_layout(self.model_, self.config.freeze_layers)
        base = self.model_.base_model
        if getattr(base, "pooler", None) is None or not hasattr(self.model_, "classifier"):
            raise ValueError(f"{type(self.model_).__name__} has no pooler + classifier head")
        for module in (base.embeddings, *base.encoder.layer[: self.config.freeze_layers]):
            module.requires_grad_(False)
        for layer in base.encoder.layer[self.config.freeze_layers :]:
            check_packable(layer)

    def _logits(self, tokens: torch.Tensor, layout: PackedBatch) -> torch.Tensor:
        """Scores of some cached questions (``FrozenPrefixCache.packed``), ``(batch, 4)``.

        The trainable layers run on packed tokens and the top one for [CLS] only
        (:mod:`mlcore.models.packed_layers`): the pooler reads nothing else.
        """
        model, base = self.model_, self.model_.base_model
        layers = base.encoder.layer[self.config.freeze_layers :]
        for layer in layers[:-1]:
            tokens = packed_layer(layer, tokens, layout, noise=self._noise)  # (tokens, hidden)
        # (batch * 4, hidden); with every layer frozen the cache already holds the top layer's output.
        first = (packed_layer(layers[-1], tokens, layout, first_only=True, noise=self._noise) if len(layers)
                 else tokens[layout.first])
        pooled = base.pooler(first.unsqueeze(1))  # (batch * 4, hidden): the pooler reads position 0
        logits: torch.Tensor = model.classifier(model.dropout(pooled)).view(-1, NUM_CHOICES)  # (batch, 4)
        return logits

    def _batch_loss(self, batch: Sequence[int]) -> torch.Tensor:
        labels = torch.tensor([self.cache.examples[i].label for i in batch], dtype=torch.long)  # (batch,)
        tokens, layout = self.cache.packed(batch)  # outside autocast, which refuses float16 storage
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.hardware_.uses_bf16):
            logits = self._logits(tokens, layout)  # (batch, 4)
        return torch.nn.functional.cross_entropy(logits.float(), labels)

    def _weights_hash(self) -> str:
        digest = hashlib.sha256(self.cache.base_revision.encode())
        for name, param in self.model_.named_parameters():
            if param.requires_grad:
                digest.update(name.encode())
                digest.update(param.detach().numpy().tobytes())
        return digest.hexdigest()[:12]

    def predict_proba(self, indices: Sequence[int] | None = None) -> torch.Tensor:
        """Softmax over the 4 choices from cached states, float64 ``(len(indices), 4)``."""
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit() before predicting")
        indices = self._check_indices(indices)
        probs = torch.empty(len(indices), NUM_CHOICES, dtype=torch.float64)  # (n, 4)
        lengths = [self.cache.states[i].size(1) for i in indices]
        with torch.inference_mode():
            for chunk in length_sorted_chunks(lengths, PASS_SIZE):
                logits = self._logits(*self.cache.packed([indices[i] for i in chunk]))  # (chunk, 4)
                probs[chunk] = torch.softmax(logits.double(), dim=-1)
        return probs

    def predict(self, indices: Sequence[int] | None = None) -> list[MCPrediction]:
        """Predictions for the cached questions at ``indices`` (default: all), in order.

        Matches :class:`~mlcore.models.inference.MultipleChoiceModelScorer` on the
        saved model up to float rounding (and the cache's storage type).
        """
        probs = self.predict_proba(indices)  # (n, 4)
        name = self.name or f"{self.cache.base_path} (fast fine-tune)"
        spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, self.cache.base_path, name, self.revision_)
        return to_predictions(probs, spec, self.revision_)

    def evaluate(self, indices: Sequence[int] | None = None) -> EvalResult:
        """Accuracy on the cached questions at ``indices`` (each needs a label)."""
        indices = self._check_indices(indices)
        if any(self.cache.examples[i].label is None for i in indices):
            raise ValueError("every evaluation example needs a label")
        predicted = self.predict_proba(indices).argmax(dim=-1).tolist()
        correct = sum(p == self.cache.examples[i].label for p, i in zip(predicted, indices, strict=True))
        return EvalResult(accuracy=correct / len(indices), n=len(indices), correct=correct)

    def save(self, directory: str | Path) -> Path:
        """Write the full model like ``MultipleChoiceTrainer.save`` (loadable by ``MultipleChoiceModelScorer``)."""
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit() before save()")
        return save_checkpoint(directory, self.model_, self.tokenizer_, self.cache.base_path, self.config,
                               self.history_, self.hardware_)
