"""Fine-tuning ``AutoModelForMultipleChoice`` on CODAH-style questions, and evaluation.

The loop is deliberately plain (AdamW, linear warmup then decay, gradient
clipping, dynamic padding) so that it runs on a 2-core CPU in minutes for a
6-layer MiniLM. ``FineTuneConfig.freeze_layers`` freezes the embeddings and
the lowest encoder layers; those layers are then pure functions of the input,
so with ``cache_frozen`` (the default when freezing) ``fit`` hands over to
:mod:`mlcore.models.fast_finetune`, which runs them once per question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
from transformers import AutoModelForMultipleChoice

from mlcore.configs import FineTuneConfig, MCExample, TrainProgress
from mlcore.models.fast_finetune import FastMultipleChoiceTrainer
from mlcore.models.frozen_prefix import FrozenPrefixCache
from mlcore.models.hardware import HardwareResolution, hardware_for, training_threads
from mlcore.models.inference import encode_pairs
from mlcore.models.loading import load_pretrained, resolve_checkpoint, set_torch_threads
from mlcore.models.training import (
    StepClock,
    adamw_with_schedule,
    parameter_groups,
    save_checkpoint,
    seed_everything,
    shuffled_batches,
    train_epoch,
)

__all__ = ["MultipleChoiceTrainer"]


class MultipleChoiceTrainer:
    """Fine-tune a BERT-family checkpoint as a 4-way multiple-choice model.

    Parameters
    ----------
    config : FineTuneConfig
        Hyperparameters.
    base_path : str
        Starting checkpoint: local directory, hub id or ``PACKAGED_MINILM``.
        A checkpoint without a multiple-choice head gets a fresh one.

    Attributes
    ----------
    model_ : transformers.PreTrainedModel
        The fine-tuned model (in eval mode after ``fit``).
    tokenizer_ : transformers.PreTrainedTokenizerBase
        Its tokenizer.
    history_ : list of float
        Mean training loss of each epoch.
    hardware_ : mlcore.models.hardware.HardwareResolution
        What ``config.bf16`` resolved to on this machine (the precision used).
    threads_ : int
        The torch threads training used (``config.threads``, or measured for 0).

    With ``freeze_layers > 0`` and ``cache_frozen`` (the default then),
    ``fit`` trains through :mod:`mlcore.models.fast_finetune` on the cached output
    of the frozen layers; the result is the same up to float rounding.

    Examples
    --------
    Two epochs on a toy task (the right completion is the one holding "zebra"), saved and
    loaded back as a scorer:

    >>> import tempfile
    >>> from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec
    >>> from mlcore.models.inference import MultipleChoiceModelScorer
    >>> from mlcore.testing import make_toy_examples
    >>> examples = make_toy_examples(40)
    >>> trainer = MultipleChoiceTrainer(FineTuneConfig(epochs=2, learning_rate=2e-4), PACKAGED_MINILM)
    >>> folder = tempfile.TemporaryDirectory()
    >>> saved = trainer.fit(examples[:32]).save(folder.name)
    >>> sorted(file.name for file in saved.iterdir())
    ['config.json', 'mlcore_training.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']
    >>> scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(saved), "toy"))
    >>> [p.predicted for p in scorer.predict(examples[32:])] == [example.label for example in examples[32:]]
    True
    >>> folder.cleanup()
    """

    def __init__(self, config: FineTuneConfig, base_path: str) -> None:
        self.config = config
        self.base_path = base_path

    def fit(
        self,
        examples: Sequence[MCExample],
        progress: Callable[[TrainProgress], None] | None = None,
    ) -> MultipleChoiceTrainer:
        """Train on labelled examples; returns ``self``.

        Raises
        ------
        ValueError
            If there are no examples or one has no label.
        mlcore.models.loading.ModelLoadError
            If ``base_path`` cannot be loaded.
        """
        cfg = self.config
        if not examples:
            raise ValueError("cannot fine-tune on zero examples")
        if any(ex.label is None for ex in examples):
            raise ValueError("every training example needs a label")
        if cfg.freeze_layers > 0 and cfg.cache_frozen:
            return self._fit_cached(examples, progress)
        self._load_base()
        self.hardware_: HardwareResolution = hardware_for(cfg.bf16)
        batches_per_epoch = -(-len(examples) // cfg.batch_size)
        optimizer, scheduler = self._make_optimizer(batches_per_epoch * cfg.epochs)
        clock = StepClock(batches_per_epoch * cfg.epochs, progress)
        # A dedicated generator makes the shuffling order depend on the seed only.
        order_rng = torch.Generator().manual_seed(cfg.seed)
        parameters = list(self.model_.parameters())
        self.history_: list[float] = []
        self._train_mode()
        for epoch in range(1, cfg.epochs + 1):
            batches = shuffled_batches(examples, cfg.batch_size, order_rng)
            self.history_.append(train_epoch(epoch, batches, self._batch_loss, schedule=(optimizer, scheduler),
                                             clipped=parameters, max_grad_norm=cfg.max_grad_norm, clock=clock))
        self.model_.eval()
        return self

    def _fit_cached(
        self, examples: Sequence[MCExample], progress: Callable[[TrainProgress], None] | None
    ) -> MultipleChoiceTrainer:
        cache = FrozenPrefixCache.build(self.base_path, examples, self.config)
        fast = FastMultipleChoiceTrainer(self.config, cache).fit(progress=progress)
        self.tokenizer_, self.model_, self.history_ = fast.tokenizer_, fast.model_, fast.history_
        self.hardware_, self.threads_ = fast.hardware_, fast.threads_
        return self

    def _load_base(self) -> None:
        self.threads_ = training_threads(self.config.threads)
        set_torch_threads(self.threads_)
        # Seed before loading: the new classifier head's init uses the torch RNG.
        seed_everything(self.config.seed)
        self.tokenizer_, self.model_ = load_pretrained(
            AutoModelForMultipleChoice, resolve_checkpoint(self.base_path), self.base_path
        )
        self._freeze_lower_layers(self.config.freeze_layers)

    def _make_optimizer(self, total_steps: int) -> tuple[torch.optim.Optimizer, Any]:
        return adamw_with_schedule(self._trainable_parameters(), self.config.learning_rate, self.config.warmup_ratio,
                                   total_steps)

    def _freeze_lower_layers(self, n_layers: int) -> None:
        """Stop gradients for the embeddings and the first ``n_layers`` encoder layers."""
        self._frozen_modules: list[torch.nn.Module] = []
        if n_layers == 0:
            return
        base = self.model_.base_model
        layers = base.encoder.layer
        if n_layers > len(layers):
            raise ValueError(f"freeze_layers={n_layers} but the model has only {len(layers)} layers")
        self._frozen_modules = [base.embeddings, *layers[:n_layers]]
        for module in self._frozen_modules:
            for param in module.parameters():
                param.requires_grad_(False)

    def _train_mode(self) -> None:
        self.model_.train()
        # Frozen layers run without dropout: they then compute a fixed function
        # of the input, which is what makes caching their outputs valid later.
        for module in self._frozen_modules:
            module.eval()

    def _trainable_parameters(self) -> list[dict[str, Any]]:
        return parameter_groups(self.model_, self.config.weight_decay)

    def _batch_loss(self, batch: Sequence[MCExample]) -> torch.Tensor:
        enc = encode_pairs(
            self.tokenizer_, batch, max_length=self.config.max_length, answer_only=self.config.answer_only
        )  # each (batch, 4, seq)
        labels = torch.tensor([ex.label for ex in batch], dtype=torch.long)  # (batch,)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.hardware_.uses_bf16):
            logits = self.model_(**enc).logits  # (batch, 4)
        return torch.nn.functional.cross_entropy(logits.float(), labels)

    def save(self, directory: str | Path) -> Path:
        """Write weights, tokenizer and training settings; loadable by ``MultipleChoiceModelScorer``."""
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit() before save()")
        return save_checkpoint(directory, self.model_, self.tokenizer_, self.base_path, self.config, self.history_,
                               self.hardware_)
