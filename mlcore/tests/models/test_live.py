"""Tests for mlcore.models.live: one cache of live models keyed by (spec, engine, device), one protocol.

Most tests use a registered fake kind (no weights): what is tested is the cache's contract, "ready
means answers without loading", also after an eviction. The encoder kinds are then checked to
implement the protocol and to share one load and the parts cache.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import torch

from mlcore.configs import MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.models import live
from mlcore.models.engines import engine_available
from mlcore.models.incremental import EncoderLiveModel
from mlcore.models.inference_cache import shared_cache
from mlcore.models.live import (
    MAX_LIVE_MODELS,
    LiveKey,
    LiveModel,
    clear_live_models,
    live_model,
    live_model_ready,
    open_live_model,
    register_kind,
)
from mlcore.models.loading import ModelLoadError
from mlcore.testing import make_toy_examples

FAKE = "fake_for_tests"


class FakeModel:
    """Answers the first choice; counts warm-ups (each one stands for a load of seconds)."""

    warm_ups: list[LiveKey] = []

    def __init__(self, key: LiveKey) -> None:
        self.key, self.warm, self.closed = key, False, False

    def ready(self) -> bool:
        return self.warm

    def warm_up(self) -> None:
        if self.key.spec.path == "broken":
            raise ModelLoadError("no weights")
        FakeModel.warm_ups.append(self.key)
        self.warm = True

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        if not self.warm:
            self.warm_up()
        return [MCPrediction((1.0, 0.0, 0.0, 0.0), 0, self.key.spec.name, self.key.engine) for _ in examples]

    def close(self) -> None:
        self.warm, self.closed = False, True


def fake(name: str, path: str = "p") -> ScorerSpec:
    return ScorerSpec(FAKE, path, name)  # type: ignore[arg-type]  # a kind only these tests know


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    register_kind(FAKE, FakeModel)
    FakeModel.warm_ups = []
    clear_live_models()
    yield
    clear_live_models()
    live._BUILDERS.pop(FAKE, None)


def test_the_fake_and_the_encoder_kinds_implement_the_protocol(tiny_mc_dir: Path) -> None:
    assert isinstance(FakeModel(LiveKey(fake("a"))), LiveModel)
    spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny")
    model = open_live_model(LiveKey(spec, "torch"))
    assert isinstance(model, EncoderLiveModel) and isinstance(model, LiveModel)
    assert not model.ready()  # built, not loaded
    model.warm_up()
    assert model.ready() and len(model.predict(make_toy_examples(2, seed=1))) == 2
    model.close()
    assert not model.ready()


def test_one_model_per_key_and_ready_only_once_loaded() -> None:
    assert not live_model_ready(fake("a"))
    first = live_model(fake("a"))
    assert live_model_ready(fake("a")) and live_model(fake("a")) is first and FakeModel.warm_ups == [LiveKey(fake("a"))]
    # The engine and the device are part of the key: each is another model.
    assert live_model(fake("a"), engine="onnx") is not first and not live_model_ready(fake("a"), device="cuda")
    assert first.predict([make_toy_examples(1, seed=0)[0]])[0].model_revision == "auto"


def test_an_evicted_model_is_not_ready_and_is_loaded_again() -> None:
    names = [f"m{i}" for i in range(MAX_LIVE_MODELS + 1)]
    for name in names[:-1]:
        live_model(fake(name))
    assert live_model_ready(fake("m0"))  # asking does not keep a model alive: m0 is still the oldest
    live_model(fake(names[-1]))
    assert [live_model_ready(fake(name)) for name in names] == [False] + [True] * MAX_LIVE_MODELS
    del FakeModel.warm_ups[:]
    live_model(fake("m0"))
    assert FakeModel.warm_ups == [LiveKey(fake("m0"))] and live_model_ready(fake("m0"))


def test_a_closed_model_is_not_ready() -> None:
    model = live_model(fake("a"))
    model.close()
    assert not live_model_ready(fake("a"))


def test_concurrent_callers_share_one_load() -> None:
    start = threading.Barrier(4)
    with ThreadPoolExecutor(4) as pool:
        models = list(pool.map(lambda _: (start.wait(), live_model(fake("race")))[1], range(4)))
    assert FakeModel.warm_ups == [LiveKey(fake("race"))] and all(m is models[0] for m in models)


def test_a_failed_load_is_not_cached_and_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ModelLoadError):
        live_model(fake("b", path="broken"))
    assert not live_model_ready(fake("b", path="broken"))
    with pytest.raises(ValueError, match="no live model kind"):
        live_model(ScorerSpec("no_such_kind", "p", "x"))  # type: ignore[arg-type]


def test_the_encoder_kinds_load_once_and_share_the_parts_cache(tiny_mc_dir: Path) -> None:
    spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny-mc")
    model = live_model(spec, engine="torch")
    assert isinstance(model, EncoderLiveModel) and live_model(spec, engine="torch") is model
    assert model.incremental.cache is shared_cache and model.incremental.engine_ == "torch"
    with pytest.raises(ModelLoadError, match="cpu"):
        live_model(spec, engine="torch", device="cuda")
    assert not live_model_ready(spec, engine="torch", device="cuda")


def _rebuild_in_the_child(spec: ScorerSpec, examples: list[MCExample]) -> None:
    torch.set_num_threads(1)  # torch's OpenMP pool did not survive the fork either
    clear_live_models()
    live_model(spec, engine="onnx").predict(examples)


@pytest.mark.skipif(not engine_available("onnx"), reason="needs onnxruntime and onnx")
def test_a_forked_child_builds_its_own_live_models_and_never_frees_the_parents(tiny_mc_dir: Path) -> None:
    # Freeing, in the child, an ONNX Runtime session built here on two threads hung or crashed it.
    spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny-mc")
    examples = make_toy_examples(1, seed=5)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        live_model(spec, engine="onnx").predict(examples)
        child = multiprocessing.get_context("fork").Process(target=_rebuild_in_the_child, args=(spec, examples))
        child.start()
        child.join(timeout=60)
        if child.exitcode is None:
            child.kill()
            child.join()
            pytest.fail("the forked child hung")
        assert child.exitcode == 0
    finally:
        torch.set_num_threads(threads)

