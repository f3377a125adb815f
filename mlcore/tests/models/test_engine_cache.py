"""Tests for mlcore.models.engine_cache: a restarted process finds its exported graph instead of
exporting again, gets the same logits bit for bit, and never finds a graph of other weights."""

from __future__ import annotations

import copy
from pathlib import Path
from unittest import mock

import pytest
import torch
from transformers import AutoModelForMultipleChoice, AutoTokenizer

from mlcore.models import engines
from mlcore.models.engine_cache import CACHE_DIR_VARIABLE, EngineCache, engine_key
from mlcore.models.engines import build_runner
from mlcore.tests.models.test_engines import padded_batch


@pytest.fixture(scope="module")
def tiny_mc(tiny_mc_dir: Path) -> tuple:
    tokenizer = AutoTokenizer.from_pretrained(tiny_mc_dir)
    return tokenizer, AutoModelForMultipleChoice.from_pretrained(tiny_mc_dir).eval()


def key_of(model, engine: str = "onnx", output: str = "logits", names=("input_ids", "attention_mask")) -> str:
    return engine_key(model, engine=engine, output=output, input_names=names)


def test_the_key_follows_weights_configuration_engine_output_and_inputs(tiny_mc: tuple) -> None:
    _, model = tiny_mc
    assert key_of(model) == key_of(copy.deepcopy(model)), "the same weights give the same key"
    changed = copy.deepcopy(model)
    with torch.no_grad():
        next(changed.parameters()).view(-1)[0] += 1e-6  # one weight, barely
    configured = copy.deepcopy(model)
    configured.config.hidden_dropout_prob = 0.5
    others = {key_of(changed), key_of(configured), key_of(model, engine="onnx-int8"),
              key_of(model, output="last_hidden_state"), key_of(model, names=("input_ids",))}
    assert len(others) == 5 and key_of(model) not in others


@pytest.mark.parametrize("engine", ["onnx", "onnx-int8"])
def test_a_second_build_reads_the_kept_graph_and_computes_the_same_bits(tiny_mc: tuple, tmp_path: Path,
                                                                        engine: str) -> None:
    tokenizer, model = tiny_mc
    names, inputs = tokenizer.model_input_names, padded_batch(tokenizer)
    first = build_runner(model, engine=engine, output="logits", input_names=names, threads=1, cache_dir=tmp_path)
    kept = list(tmp_path.glob("*.onnx"))
    assert len(kept) == 1 and kept[0].stem == key_of(model, engine=engine, names=names)
    with mock.patch.object(engines, "_export_onnx", side_effect=AssertionError("exported again")):
        second = build_runner(model, engine=engine, output="logits", input_names=names, threads=1, cache_dir=tmp_path)
    assert torch.equal(first(inputs), second(inputs))


def test_other_weights_never_read_a_kept_graph(tiny_mc: tuple, tmp_path: Path) -> None:
    tokenizer, model = tiny_mc
    names, inputs = tokenizer.model_input_names, padded_batch(tokenizer)
    build_runner(model, engine="onnx", output="logits", input_names=names, threads=1, cache_dir=tmp_path)
    retrained = copy.deepcopy(model)
    with torch.no_grad():
        for parameter in retrained.parameters():
            parameter.add_(0.01)
    run = build_runner(retrained, engine="onnx", output="logits", input_names=names, threads=1, cache_dir=tmp_path)
    with torch.inference_mode():
        expected = retrained(**inputs).logits
    assert torch.allclose(run(inputs), expected, atol=1e-5, rtol=0)
    assert len(list(tmp_path.glob("*.onnx"))) == 2


def test_the_folder_comes_from_the_environment_and_unset_means_no_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(CACHE_DIR_VARIABLE, raising=False)
    assert EngineCache.at(None) is None
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path / "from-env"))
    assert EngineCache.at(None) == EngineCache(tmp_path / "from-env")
    assert EngineCache.at(tmp_path / "given") == EngineCache(tmp_path / "given")


def test_an_unwritable_folder_is_not_an_error(tiny_mc: tuple, tmp_path: Path) -> None:
    tokenizer, model = tiny_mc
    blocked = tmp_path / "a-file-not-a-folder"
    blocked.write_text("")
    run = build_runner(model, engine="onnx", output="logits", input_names=tokenizer.model_input_names,
                       threads=1, cache_dir=blocked)
    assert run(padded_batch(tokenizer)).shape == (1, 4)


def test_an_empty_file_left_by_a_crash_is_not_read(tmp_path: Path) -> None:
    cache = EngineCache(tmp_path)
    cache.path("abc").write_bytes(b"")
    assert cache.find("abc") is None
