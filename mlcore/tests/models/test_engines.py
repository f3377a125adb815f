"""Tests for mlcore.models.engines: every engine computes the model's output; auto falls back to torch."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
import torch
from transformers import AutoModelForMultipleChoice, AutoTokenizer

from mlcore.configs import ScorerKind, ScorerSpec
from mlcore.models import engines
from mlcore.models.engines import ENGINES, EngineUnavailable, build_runner, resolve_engine
from mlcore.models.incremental import IncrementalScorer
from mlcore.models.inference import MultipleChoiceModelScorer

PAIRS = [("the cat ate an apple .", "a zebra ate it ."), ("my friend", "was hungry ."),
         ("the teacher saw the ball", "then she took the ball to the house ."), ("i am", "good at math .")]


@pytest.fixture(scope="module")
def tiny_mc(tiny_mc_dir: Path) -> tuple:
    tokenizer = AutoTokenizer.from_pretrained(tiny_mc_dir)
    return tokenizer, AutoModelForMultipleChoice.from_pretrained(tiny_mc_dir).eval()


def padded_batch(tokenizer) -> dict[str, torch.Tensor]:
    enc = tokenizer([a for a, _ in PAIRS], [b for _, b in PAIRS], padding=True, return_tensors="pt")
    return {name: value.view(1, len(PAIRS), -1) for name, value in enc.items()}  # (1 question, 4, seq)


@pytest.mark.parametrize(("engine", "tolerance"), [("torch", 0.0), ("onnx", 1e-5), ("torch-int8", 0.1),
                                                   ("onnx-int8", 0.1)])
def test_every_engine_computes_the_models_logits_on_padded_batches(tiny_mc: tuple, engine: str,
                                                                   tolerance: float) -> None:
    tokenizer, model = tiny_mc
    inputs = padded_batch(tokenizer)
    with torch.inference_mode():
        expected = model(**inputs).logits  # (1, 4)
    run = build_runner(model, engine=engine, output="logits", input_names=tokenizer.model_input_names, threads=1)
    got = run(inputs)
    assert got.shape == expected.shape and got.dtype == torch.float32
    # Padding must be masked (the ONNX graph traced the attention mask): compare with padding.
    assert torch.allclose(got, expected, atol=tolerance, rtol=0)
    assert torch.equal(run(inputs), got)  # same input, same bits


def test_resolve_engine_names_and_the_torch_fallback() -> None:
    assert [resolve_engine(name) for name in ENGINES] == list(ENGINES)
    with mock.patch.object(engines, "engine_available", return_value=False):
        assert resolve_engine("auto") == "torch"
    with pytest.raises(ValueError, match="unknown inference engine"):
        resolve_engine("tensorrt")
    with pytest.raises(ValueError, match="unknown inference engine"):
        build_runner(None, engine="auto", output="logits", input_names=[])


def test_auto_falls_back_to_torch_when_its_engine_cannot_be_built(tiny_mc_dir: Path) -> None:
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny"))
    real = engines.build_runner

    def only_torch(model, *, engine, **kwargs):
        if engine != "torch":
            raise EngineUnavailable("not here")
        return real(model, engine=engine, **kwargs)

    with mock.patch.object(engines, "AUTO_ENGINE", "onnx"), \
            mock.patch("mlcore.models.incremental.build_runner", side_effect=only_torch):
        assert IncrementalScorer(scorer, engine="auto").engine_ == "torch"
        with pytest.raises(EngineUnavailable):
            IncrementalScorer(scorer, engine="onnx")  # asked for by name: no silent substitute
