"""Fast CPU fine-tuning: run the frozen lower layers once per question, train the rest.

With ``FineTuneConfig.freeze_layers = N`` the embeddings and the first N
encoder layers of a BERT-style ``AutoModelForMultipleChoice`` never change
and run without dropout, so their output is a fixed function of the
question. :class:`FrozenPrefixCache` computes it once (length-sorted
batches under ``torch.inference_mode``) and keeps one ``(4, len_i, hidden)``
tensor per question, padded only to that question's longest pair.
:class:`FastMultipleChoiceTrainer` then trains the upper layers, pooler and
classifier on batches of cached states (:mod:`mlcore.packed_layers`):
the linear layers, nearly all of a step's work, run on the batch's real
tokens only (even length-grouped CODAH batches are 13% padding, as the four
completions of a question differ in length), and the top layer computes
queries, attention output and feed-forward for the [CLS] token alone, the
only one the pooler reads.

Both are exact: in eval mode the logits equal the model's own forward pass
up to float rounding. Dropout hits the same kind of values with the same
probability but draws fewer random numbers (none for what is skipped), so
only without dropout does training match
:class:`mlcore.finetune.MultipleChoiceTrainer` step for step (tested). The
saved checkpoint is an ordinary full model (frozen weights unchanged) that
:class:`mlcore.inference.MultipleChoiceModelScorer` loads.

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
from typing import Any

import torch
from transformers import (
    AutoModel,
    AutoModelForMultipleChoice,
    get_linear_schedule_with_warmup,
)
from transformers.masking_utils import create_bidirectional_mask

from mlcore.configs import (
    NUM_CHOICES,
    FineTuneConfig,
    MCExample,
    MCPrediction,
    ScorerKind,
    ScorerSpec,
)
from mlcore.finetune import (
    EvalResult,
    TrainProgress,
    _seed_everything,
    _StepClock,
    parameter_groups,
    save_checkpoint,
)
from mlcore.hardware import HardwareResolution, hardware_for, training_threads
from mlcore.inference import _length_sorted_chunks, _to_predictions, encode_pairs
from mlcore.loading import (
    load_pretrained,
    resolve_checkpoint,
    set_torch_threads,
    weights_revision,
)
from mlcore.packed_layers import PackedBatch, check_packable, packed_layer

__all__ = ["FastMultipleChoiceTrainer", "FrozenPrefixCache"]

#: Questions per forward pass when building the cache and when predicting;
#: passes are length-sorted, so a bigger pass wastes little on padding.
_PASS_SIZE = 32
#: With ``length_grouped``, batches are formed inside windows of this many
#: batches (as transformers' ``group_by_length`` does with its mega-batches).
_GROUP_WINDOW_BATCHES = 50


def _check_layout(model: Any, freeze_layers: int) -> None:
    """Raise ValueError unless ``model`` has the BERT layout this module drives by hand."""
    base = model.base_model
    if not all(hasattr(base, name) for name in ("embeddings", "encoder")) or not hasattr(base.encoder, "layer"):
        raise ValueError(f"{type(model).__name__} has no BERT-style embeddings/encoder.layer; cannot cache layers")
    n_layers = len(base.encoder.layer)
    if freeze_layers > n_layers:
        raise ValueError(f"freeze_layers={freeze_layers} but the model has only {n_layers} layers")


def _run_layers(model: Any, layers: Sequence[torch.nn.Module], hidden: torch.Tensor,
                mask: torch.Tensor) -> torch.Tensor:
    """Apply encoder layers in order; ``hidden`` is (n, seq, hidden), ``mask`` (n, seq) with 1 = token."""
    # The mask the model itself would build (its form depends on the attention backend).
    bias = create_bidirectional_mask(config=model.config, inputs_embeds=hidden, attention_mask=mask)
    for layer in layers:
        hidden = layer(hidden, bias)  # (n, seq, hidden)
    return hidden


def _frozen_prefix(model: Any, layers: Sequence[torch.nn.Module], enc: dict[str, torch.Tensor]) -> torch.Tensor:
    """Embeddings + ``layers`` on encoded pairs (each ``(chunk, 4, seq)``) -> ``(chunk, 4, seq, hidden)``."""
    flat = {key: value.view(-1, value.size(-1)) for key, value in enc.items()}  # each (chunk * 4, seq)
    with torch.inference_mode():
        hidden = model.base_model.embeddings(
            input_ids=flat["input_ids"], token_type_ids=flat.get("token_type_ids")
        )  # (chunk * 4, seq, hidden)
        hidden = _run_layers(model, layers, hidden, flat["attention_mask"])
    return hidden.view(*enc["input_ids"].shape, -1)


class FrozenPrefixCache:
    """Outputs of the frozen embeddings + lower encoder layers, once per question.

    Build it with :meth:`build`; the constructor only stores what ``build``
    computed. Cached tensors are never modified, so one cache can be shared
    by any number of trainers (folds, trials, seeds).

    Attributes
    ----------
    base_path : str
        Checkpoint the states were computed with.
    examples : tuple of MCExample
        The questions, in the order indices refer to.
    states : list of torch.Tensor
        Per question, shape ``(4, len_i, hidden)`` in ``dtype``; ``len_i``
        is the question's longest (prompt, choice) pair in tokens.
    masks : list of torch.Tensor
        Per question, bool ``(4, len_i)``; True marks real tokens.
    freeze_layers, max_length, answer_only
        The settings the states depend on (checked against a trainer's config).
    base_revision : str
        Content hash of the base weights (``""`` for a hub id).
    """

    def __init__(self, *, base_path: str, examples: Sequence[MCExample], states: list[torch.Tensor],
                 masks: list[torch.Tensor], freeze_layers: int, max_length: int, answer_only: bool,
                 base_revision: str) -> None:
        self.base_path = base_path
        self.examples = tuple(examples)
        self.states = states
        self.masks = masks
        self.freeze_layers = freeze_layers
        self.max_length = max_length
        self.answer_only = answer_only
        self.base_revision = base_revision

    @classmethod
    def build(cls, base_path: str, examples: Sequence[MCExample], config: FineTuneConfig) -> FrozenPrefixCache:
        """Run the frozen prefix of ``base_path`` over ``examples`` once.

        Uses ``config.freeze_layers``, ``max_length``, ``answer_only``,
        ``cache_dtype`` and ``threads``; labels may be missing (they are only
        needed for the questions a trainer fits on).

        Raises
        ------
        ValueError
            If ``freeze_layers`` is 0, exceeds the model's depth, or the model
            does not have the BERT layout.
        mlcore.loading.ModelLoadError
            If ``base_path`` cannot be loaded.
        """
        if config.freeze_layers < 1:
            raise ValueError("a frozen-prefix cache needs freeze_layers >= 1")
        set_torch_threads(training_threads(config.threads))
        path = resolve_checkpoint(base_path)
        # AutoModel: the frozen prefix needs no head, and loading none avoids a random init.
        tokenizer, model = load_pretrained(AutoModel, path, base_path)
        _check_layout(model, config.freeze_layers)
        if tokenizer.padding_side != "right":
            raise ValueError("the cache trims each question's right padding; the tokenizer pads on the left")
        dtype = getattr(torch, config.cache_dtype)
        states: list[torch.Tensor] = [torch.empty(0)] * len(examples)
        masks: list[torch.Tensor] = [torch.empty(0)] * len(examples)
        lengths = [len(ex.prompt) + max(len(c) for c in ex.choices) for ex in examples]
        layers = model.base_model.encoder.layer[: config.freeze_layers]
        for chunk in _length_sorted_chunks(lengths, _PASS_SIZE):
            enc = encode_pairs(tokenizer, [examples[i] for i in chunk], max_length=config.max_length,
                               answer_only=config.answer_only)  # each (chunk, 4, seq)
            hidden = _frozen_prefix(model, layers, enc)  # (chunk, 4, seq, hidden)
            for row, index in enumerate(chunk):
                mask = enc["attention_mask"][row].bool()  # (4, seq)
                # Padding is on the right, so the first len_i positions hold every real token.
                length = int(mask.sum(dim=-1).max())
                states[index] = hidden[row, :, :length].to(dtype, copy=True)  # (4, len_i, hidden)
                masks[index] = mask[:, :length].clone()  # (4, len_i)
        return cls(base_path=base_path, examples=examples, states=states, masks=masks,
                   freeze_layers=config.freeze_layers, max_length=config.max_length,
                   answer_only=config.answer_only, base_revision=weights_revision(path))

    def __len__(self) -> int:
        return len(self.examples)

    @property
    def nbytes(self) -> int:
        """Memory held by the cached states and masks."""
        return sum(t.numel() * t.element_size() for t in (*self.states, *self.masks))

    def lengths(self) -> list[int]:
        """``len_i`` of every question (tokens of its longest pair)."""
        return [state.size(1) for state in self.states]

    def packed(self, indices: Sequence[int]) -> tuple[torch.Tensor, PackedBatch]:
        """Float32 real-token states of some questions, packed, and where they sit when padded.

        Returns ``(tokens, layout)``: ``tokens`` is ``(real tokens, hidden)``, question by
        question, choice by choice, token by token; ``layout`` describes the ``(batch * 4, seq)``
        padded form (see :class:`mlcore.packed_layers.PackedBatch`).
        """
        seq = max(self.states[i].size(1) for i in indices)
        mask = torch.zeros(len(indices), NUM_CHOICES, seq, dtype=torch.bool)  # (batch, 4, seq)
        for row, index in enumerate(indices):
            mask[row, :, : self.masks[index].size(1)] = self.masks[index]
        # Boolean indexing walks (choice, position) in order, matching the flattened mask.
        tokens = torch.cat([self.states[i][self.masks[i]] for i in indices]).float()  # (tokens, hidden)
        return tokens, PackedBatch.from_mask(mask.view(-1, seq))

    def check_compatible(self, config: FineTuneConfig) -> None:
        """Raise ValueError if ``config`` would need different cached states."""
        ours = (self.freeze_layers, self.max_length, self.answer_only)
        theirs = (config.freeze_layers, config.max_length, config.answer_only)
        if ours != theirs:
            raise ValueError(f"cache was built with (freeze_layers, max_length, answer_only)={ours}, "
                             f"config has {theirs}")


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
    hardware_ : mlcore.hardware.HardwareResolution
        What ``config.bf16`` resolved to on this machine (the precision used).
    threads_ : int
        The torch threads training used (``config.threads``, or measured for 0).

    Examples
    --------
    >>> cache = FrozenPrefixCache.build(PACKAGED_MINILM, examples, FineTuneConfig.fast_cv())  # doctest: +SKIP
    >>> trainer = FastMultipleChoiceTrainer(FineTuneConfig.fast_cv(), cache).fit(train_idx)  # doctest: +SKIP
    >>> trainer.evaluate(test_idx).accuracy  # doctest: +SKIP
    """

    def __init__(self, config: FineTuneConfig, cache: FrozenPrefixCache, *, name: str = "") -> None:
        self.config = config
        self.cache = cache
        self.name = name

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
        optimizer = torch.optim.AdamW(params, lr=cfg.learning_rate)
        scheduler = get_linear_schedule_with_warmup(optimizer, int(cfg.warmup_ratio * total_steps), total_steps)
        clock = _StepClock(total_steps, progress)
        trainable = [p for group in params for p in group["params"]]
        # Same generator use as MultipleChoiceTrainer, so both see batches in the same order.
        order_rng = torch.Generator().manual_seed(cfg.seed)
        self.history_: list[float] = []
        self.model_.train()  # the frozen modules are never called, so their mode does not matter
        for epoch in range(1, cfg.epochs + 1):
            batches = self._epoch_batches(indices, order_rng)
            self.history_.append(self._train_epoch(epoch, batches, (optimizer, scheduler), trainable, clock))
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
        order = [i for s in range(0, len(order), window) for i in sorted(order[s : s + window], key=lengths.get)]
        batches = [order[s : s + size] for s in range(0, len(order), size)]
        return [batches[k] for k in torch.randperm(len(batches), generator=generator).tolist()]

    def _train_epoch(self, epoch: int, batches: list[list[int]], schedule: tuple[torch.optim.Optimizer, Any],
                     trainable: list[torch.nn.Parameter], clock: _StepClock) -> float:
        """One pass over ``batches`` (lists of cache indices); returns the epoch's mean loss."""
        optimizer, scheduler = schedule
        total = 0.0
        for number, batch in enumerate(batches, start=1):
            loss = self._batch_loss(batch)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, self.config.max_grad_norm)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            total += loss.item()
            clock.tick(epoch, total / number)
        return total / len(batches)

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
        _seed_everything(self.config.seed)
        path = resolve_checkpoint(self.cache.base_path)
        self.tokenizer_, self.model_ = load_pretrained(AutoModelForMultipleChoice, path, self.cache.base_path)
        _check_layout(self.model_, self.config.freeze_layers)
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
        (:mod:`mlcore.packed_layers`): the pooler reads nothing else.
        """
        model, base = self.model_, self.model_.base_model
        layers = base.encoder.layer[self.config.freeze_layers :]
        for layer in layers[:-1]:
            tokens = packed_layer(layer, tokens, layout)  # (tokens, hidden)
        # (batch * 4, hidden); with every layer frozen the cache already holds the top layer's output.
        first = packed_layer(layers[-1], tokens, layout, first_only=True) if len(layers) else tokens[layout.first]
        pooled = base.pooler(first.unsqueeze(1))  # (batch * 4, hidden): the pooler reads position 0
        return model.classifier(model.dropout(pooled)).view(-1, NUM_CHOICES)  # (batch, 4)

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
            for chunk in _length_sorted_chunks(lengths, _PASS_SIZE):
                logits = self._logits(*self.cache.packed([indices[i] for i in chunk]))  # (chunk, 4)
                probs[chunk] = torch.softmax(logits.double(), dim=-1)
        return probs

    def predict(self, indices: Sequence[int] | None = None) -> list[MCPrediction]:
        """Predictions for the cached questions at ``indices`` (default: all), in order.

        Matches :class:`~mlcore.inference.MultipleChoiceModelScorer` on the
        saved model up to float rounding (and the cache's storage type).
        """
        probs = self.predict_proba(indices)  # (n, 4)
        name = self.name or f"{self.cache.base_path} (fast fine-tune)"
        spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, self.cache.base_path, name, self.revision_)
        return _to_predictions(probs, spec, self.revision_)

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
