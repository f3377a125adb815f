"""BERT encoder layers run on packed tokens, optionally for the first token only.

A batch of multiple-choice questions is ``n`` sequences (4 per question) of different lengths.
Padding them to one length wastes the linear layers' work on padding, and the top layer's work
on every token but ``[CLS]``, the only one the pooler reads. Here the real tokens are kept
packed, ``(tokens, hidden)``, row after row; a :class:`PackedBatch` knows where each token sits
in the padded ``(n, seq)`` layout, which only attention needs. :func:`packed_layer` applies one
BERT layer with the layer's own modules (same weights, same dropout probabilities), so it
computes what the layer computes at the real positions, up to float rounding.

In training, with a :class:`mlcore.models.fast_dropout.DropoutNoise`, the three dropouts of a
layer (attention probabilities, attention output, feed-forward output) take their masks from it
instead of torch's generator, which is serial on non-Intel CPUs (see that module).

Used by :mod:`mlcore.models.fast_finetune` for the trainable layers above a frozen-prefix cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F

from mlcore.models.fast_dropout import DropoutNoise

__all__ = ["PackedBatch", "check_packable", "packed_layer"]

_LAYER_PARTS = ("attention.self.query", "attention.self.key", "attention.self.value", "attention.self.dropout",
                "attention.output.dense", "attention.output.dropout", "attention.output.LayerNorm", "intermediate",
                "output.dense", "output.dropout", "output.LayerNorm")


@dataclass(frozen=True)
class PackedBatch:
    """Where the packed tokens of ``n`` right-padded sequences sit in the padded layout.

    Attributes
    ----------
    mask : torch.Tensor
        Bool ``(n, seq)``, True at real tokens (a prefix of each row).
    index : torch.Tensor
        ``(tokens,)`` positions of the packed tokens in the flattened ``(n * seq)`` layout.
    first : torch.Tensor
        ``(n,)`` position of each sequence's first token (``[CLS]``) among the packed tokens.
    """

    mask: torch.Tensor
    index: torch.Tensor
    first: torch.Tensor

    @classmethod
    def from_mask(cls, mask: torch.Tensor) -> PackedBatch:
        """Layout of the real tokens of a right-padded bool ``mask`` ``(n, seq)``."""
        mask = mask.bool()
        lengths = mask.sum(dim=1)  # (n,)
        first = torch.zeros_like(lengths)
        first[1:] = lengths.cumsum(0)[:-1]
        return cls(mask=mask, index=mask.reshape(-1).nonzero().squeeze(1), first=first)

    def pad(self, packed: torch.Tensor) -> torch.Tensor:
        """``(tokens, width)`` -> ``(n, seq, width)`` with zeros at the padding."""
        n, seq = self.mask.shape
        flat = packed.new_zeros(n * seq, packed.size(-1)).index_copy(0, self.index, packed)
        return flat.view(n, seq, -1)


def check_packable(layer: Any) -> None:
    """Raise ValueError unless ``layer`` has the BERT layer parts :func:`packed_layer` drives."""
    for path in _LAYER_PARTS:
        module = layer
        for name in path.split("."):
            module = getattr(module, name, None)
        if module is None:
            raise ValueError(f"{type(layer).__name__} has no {path}; cannot run it on packed tokens")
    if getattr(layer, "is_decoder", False):
        raise ValueError(f"{type(layer).__name__} is a decoder layer; only encoder layers can be packed")


def packed_layer(layer: Any, tokens: torch.Tensor, batch: PackedBatch, *, first_only: bool = False,
                 noise: DropoutNoise | None = None) -> torch.Tensor:
    """One BERT layer on packed ``tokens`` ``(tokens, hidden)``.

    Returns ``(tokens, hidden)``, or with ``first_only`` just each sequence's first position,
    ``(n, hidden)``: keys and values still come from every token, but queries, the attention
    output and the feed-forward run for the first token alone. ``noise`` draws the dropout masks
    when the layer is in training mode (otherwise the layer's own dropout modules do).
    """
    attention = layer.attention.self
    heads = attention.num_attention_heads
    size = attention.attention_head_size
    n, seq = batch.mask.shape

    def split_heads(values: torch.Tensor, length: int) -> torch.Tensor:  # (n * length, hidden) -> (n, heads, length, size)
        return values.reshape(n, length, heads, size).transpose(1, 2)

    keys = split_heads(batch.pad(attention.key(tokens)), seq)  # (n, heads, seq, size)
    values = split_heads(batch.pad(attention.value(tokens)), seq)  # (n, heads, seq, size)
    queries_in = tokens[batch.first] if first_only else tokens  # (n or tokens, hidden)
    query = attention.query(queries_in)
    queries = split_heads(query, 1) if first_only else split_heads(batch.pad(query), seq)
    key_mask = batch.mask[:, None, None, :]  # (n, 1, 1, seq): True = attend
    scale = getattr(attention, "scaling", size**-0.5)
    drop = noise if noise is not None and layer.training else None
    if drop is None:
        context = F.scaled_dot_product_attention(
            queries, keys, values, attn_mask=key_mask,
            dropout_p=attention.dropout.p if attention.training else 0.0, scale=scale,
        )  # (n, heads, 1 or seq, size)
    else:  # what SDPA's math path does with dropout (its fused kernels take none), with our masks
        scores = torch.matmul(queries, keys.transpose(-1, -2)) * scale  # (n, heads, 1 or seq, seq)
        probs = torch.softmax(scores.masked_fill(~key_mask, float("-inf")), dim=-1)
        context = torch.matmul(drop.apply(probs, attention.dropout.p), values)  # (n, heads, 1 or seq, size)
    context = context.transpose(1, 2).reshape(-1, heads * size)  # (n * (1 or seq), hidden)
    if not first_only:
        context = context[batch.index]  # (tokens, hidden): back to the real tokens
    hidden = _dense_dropout_residual(layer.attention.output, context, queries_in, drop)
    return _dense_dropout_residual(layer.output, layer.intermediate(hidden), hidden, drop)


def _dense_dropout_residual(block: Any, values: torch.Tensor, residual: torch.Tensor,
                            drop: DropoutNoise | None) -> torch.Tensor:
    """A BERT ``SelfOutput``/``Output`` block: dense, dropout, LayerNorm of the sum with ``residual``."""
    out: torch.Tensor = (block(values, residual) if drop is None
                         else block.LayerNorm(drop.apply(block.dense(values), block.dropout.p) + residual))
    return out
