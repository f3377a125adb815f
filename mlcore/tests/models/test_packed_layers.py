"""Tests for mlcore.models.packed_layers against the tiny BERT's own forward pass."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from transformers import AutoModel

from mlcore.models.fast_dropout import DropoutNoise
from mlcore.models.inference import encode_pairs
from mlcore.models.loading import load_pretrained
from mlcore.models.packed_layers import PackedBatch, check_packable, packed_layer
from mlcore.testing import make_toy_examples


@pytest.fixture(scope="module")
def model_and_states(tiny_base_dir: Path) -> tuple[torch.nn.Module, tuple[torch.Tensor, ...], torch.Tensor]:
    """The tiny model (eval mode), its hidden states on 6 questions of varied length, and the mask."""
    tokenizer, model = load_pretrained(AutoModel, str(tiny_base_dir), "tiny")
    examples = [ex.__class__(" ".join(["very"] * i + [ex.prompt]), ex.choices, ex.label)
                for i, ex in enumerate(make_toy_examples(6, seed=3))]
    enc = encode_pairs(tokenizer, examples, max_length=32, answer_only=False)
    flat = {key: value.view(-1, value.size(-1)) for key, value in enc.items()}  # each (24, seq)
    with torch.inference_mode():
        states = model(**flat, output_hidden_states=True).hidden_states  # each (24, seq, hidden)
    return model, states, flat["attention_mask"].bool()


def test_layout_of_a_small_mask() -> None:
    mask = torch.tensor([[1, 1, 0], [1, 0, 0], [1, 1, 1]], dtype=torch.bool)
    layout = PackedBatch.from_mask(mask)
    assert layout.index.tolist() == [0, 1, 3, 6, 7, 8] and layout.first.tolist() == [0, 2, 3]
    packed = torch.arange(6.0).unsqueeze(1)  # (tokens, 1)
    assert layout.pad(packed).squeeze(-1).tolist() == [[0, 1, 0], [2, 0, 0], [3, 4, 5]]


@pytest.mark.parametrize("layer_index", [0, 1])
def test_packed_layer_equals_the_layer(model_and_states, layer_index: int) -> None:
    model, states, mask = model_and_states
    layer = model.encoder.layer[layer_index]
    layout = PackedBatch.from_mask(mask)
    assert len(set(mask.sum(dim=1).tolist())) > 3  # the sequences really differ in length
    with torch.inference_mode():
        tokens = packed_layer(layer, states[layer_index][mask], layout)  # (tokens, hidden)
        first = packed_layer(layer, states[layer_index][mask], layout, first_only=True)  # (24, hidden)
    expected = states[layer_index + 1]
    assert torch.allclose(tokens, expected[mask], atol=1e-5)
    assert torch.allclose(first, expected[:, 0], atol=1e-5)
    assert torch.allclose(first, tokens[layout.first], atol=1e-5)


def test_bfloat16_autocast_stays_close(model_and_states) -> None:
    model, states, mask = model_and_states
    layout = PackedBatch.from_mask(mask)
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        first = packed_layer(model.encoder.layer[1], states[1][mask], layout, first_only=True)
    # The matrix products ran in bfloat16 (about 3 significant digits); LayerNorm returns float32.
    assert not torch.allclose(first, states[2][:, 0], atol=1e-4)
    assert torch.allclose(first, states[2][:, 0], atol=0.1)


def test_training_mode_applies_dropout_only_where_computed(model_and_states) -> None:
    model, states, mask = model_and_states
    layer, layout = model.encoder.layer[1], PackedBatch.from_mask(mask)
    layer.train()
    try:
        torch.manual_seed(0)
        first = packed_layer(layer, states[1][mask].clone(), layout, first_only=True)
        torch.manual_seed(1)
        other = packed_layer(layer, states[1][mask].clone(), layout, first_only=True)
    finally:
        layer.eval()
    assert first.shape == (mask.size(0), states[1].size(-1))
    assert not torch.allclose(first, other)  # dropout is active in training


def test_check_packable(model_and_states) -> None:
    model, _, _ = model_and_states
    check_packable(model.encoder.layer[0])
    with pytest.raises(ValueError, match="attention.self.query"):
        check_packable(torch.nn.Linear(4, 4))
    layer = model.encoder.layer[0]
    layer.is_decoder = True
    try:
        with pytest.raises(ValueError, match="decoder"):
            check_packable(layer)
    finally:
        layer.is_decoder = False


def test_noise_path_computes_the_layer_when_its_dropouts_are_off(model_and_states) -> None:
    # The noise path writes attention out by hand (SDPA draws its own masks); with every dropout
    # probability at 0 it must compute exactly what the layer's own modules compute.
    model, states, mask = model_and_states
    layer, layout = model.encoder.layer[1], PackedBatch.from_mask(mask)
    dropouts = [m for m in layer.modules() if isinstance(m, torch.nn.Dropout)]
    saved = [m.p for m in dropouts]
    layer.train()
    try:
        for m in dropouts:
            m.p = 0.0
        with torch.no_grad():
            for first_only in (False, True):
                own = packed_layer(layer, states[1][mask], layout, first_only=first_only)
                noisy = packed_layer(layer, states[1][mask], layout, first_only=first_only, noise=DropoutNoise(0))
                assert torch.allclose(own, noisy, atol=1e-5)
    finally:
        layer.eval()
        for m, p in zip(dropouts, saved, strict=True):
            m.p = p


def test_noise_draws_the_masks_in_training_and_is_ignored_in_eval(model_and_states) -> None:
    model, states, mask = model_and_states
    layer, layout = model.encoder.layer[1], PackedBatch.from_mask(mask)
    with torch.inference_mode():
        plain = packed_layer(layer, states[1][mask], layout)
        assert torch.equal(plain, packed_layer(layer, states[1][mask], layout, noise=DropoutNoise(0)))
    layer.train()
    try:
        with torch.no_grad():
            same = [packed_layer(layer, states[1][mask], layout, noise=DropoutNoise(4)) for _ in range(2)]
            other = packed_layer(layer, states[1][mask], layout, noise=DropoutNoise(5))
    finally:
        layer.eval()
    assert torch.equal(same[0], same[1])  # the masks come from the seeded noise, not torch's generator
    assert not torch.allclose(same[0], other)
