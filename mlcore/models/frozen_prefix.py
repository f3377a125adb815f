"""The frozen-prefix cache of fast fine-tuning: the frozen lower layers' output, once per question.

With ``FineTuneConfig.freeze_layers = N`` the embeddings and the first N encoder layers never change
and run without dropout, so their output is a fixed function of the question.
:class:`FrozenPrefixCache` computes it once (length-sorted batches under ``torch.inference_mode``)
and keeps one ``(4, len_i, hidden)`` tensor per question, padded only to that question's longest
pair. :class:`mlcore.models.fast_finetune.FastMultipleChoiceTrainer` trains on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from transformers import (
    AutoModel,
)
from transformers.masking_utils import create_bidirectional_mask

from mlcore.configs import (
    NUM_CHOICES,
    FineTuneConfig,
    MCExample,
)
from mlcore.models.hardware import training_threads
from mlcore.models.inference import encode_pairs, length_sorted_chunks
from mlcore.models.loading import (
    load_pretrained,
    resolve_checkpoint,
    set_torch_threads,
    weights_revision,
)
from mlcore.models.packed_layers import PackedBatch

__all__ = ["PASS_SIZE", "FrozenPrefixCache", "check_frozen_layout"]

#: Questions per forward pass when building the cache and when predicting;
#: passes are length-sorted, so a bigger pass wastes little on padding.
PASS_SIZE = 32

def check_frozen_layout(model: Any, freeze_layers: int) -> None:
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
        mlcore.models.loading.ModelLoadError
            If ``base_path`` cannot be loaded.
        """
        if config.freeze_layers < 1:
            raise ValueError("a frozen-prefix cache needs freeze_layers >= 1")
        set_torch_threads(training_threads(config.threads))
        path = resolve_checkpoint(base_path)
        # AutoModel: the frozen prefix needs no head, and loading none avoids a random init.
        tokenizer, model = load_pretrained(AutoModel, path, base_path)
        check_frozen_layout(model, config.freeze_layers)
        if tokenizer.padding_side != "right":
            raise ValueError("the cache trims each question's right padding; the tokenizer pads on the left")
        dtype = getattr(torch, config.cache_dtype)
        states: list[torch.Tensor] = [torch.empty(0)] * len(examples)
        masks: list[torch.Tensor] = [torch.empty(0)] * len(examples)
        lengths = [len(ex.prompt) + max(len(c) for c in ex.choices) for ex in examples]
        layers = model.base_model.encoder.layer[: config.freeze_layers]
        for chunk in length_sorted_chunks(lengths, PASS_SIZE):
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
        padded form (see :class:`mlcore.models.packed_layers.PackedBatch`).
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


