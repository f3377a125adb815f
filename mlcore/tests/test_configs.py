"""Tests for the validation in mlcore.configs records."""

from __future__ import annotations

import pytest

from mlcore.configs import (
    CATEGORIES,
    CATEGORY_CODES,
    FineTuneConfig,
    MCExample,
    MCPrediction,
    ScorerKind,
)


def test_category_constants_agree() -> None:
    assert set(CATEGORY_CODES.values()) == set(CATEGORIES)
    assert ScorerKind("zero_shot_embedding") is ScorerKind.ZERO_SHOT


def test_example_normalises_lists_to_tuples() -> None:
    ex = MCExample("p", ["a", "b", "c", "d"], 2, ["idioms"])  # type: ignore[arg-type]
    assert ex.choices == ("a", "b", "c", "d") and ex.categories == ("idioms",)
    assert hash(ex)


@pytest.mark.parametrize(
    "kwargs",
    [{"choices": ("a", "b", "c")}, {"label": 4}, {"label": True}, {"categories": ("jokes",)}],
)
def test_example_rejects_invalid(kwargs: dict) -> None:
    base = {"prompt": "p", "choices": ("a", "b", "c", "d"), "label": 0}
    with pytest.raises(ValueError):
        MCExample(**{**base, **kwargs})


def test_prediction_validation() -> None:
    MCPrediction((0.1, 0.2, 0.3, 0.4), 3, "m", "r")
    with pytest.raises(ValueError):
        MCPrediction((0.5, 0.5, 0.5, 0.5), 0, "m", "r")
    with pytest.raises(ValueError):
        MCPrediction((0.5, 0.5), 0, "m", "r")


def test_finetune_config_validation() -> None:
    with pytest.raises(ValueError):
        FineTuneConfig(warmup_ratio=1.5)
    with pytest.raises(ValueError):
        FineTuneConfig(epochs=0)


def test_finetune_config_cache_flags() -> None:
    assert FineTuneConfig().cache_frozen is False  # the default trains everything, no cache
    assert FineTuneConfig(freeze_layers=2).cache_frozen is True
    assert FineTuneConfig(freeze_layers=2, cache_frozen=False).cache_frozen is False
    with pytest.raises(ValueError, match="cached path"):
        FineTuneConfig(length_grouped=True)
    with pytest.raises(ValueError, match="cache_dtype"):
        FineTuneConfig(freeze_layers=2, cache_dtype="int8")


def test_bf16_is_auto_on_or_off_and_old_booleans_still_load() -> None:
    assert FineTuneConfig().bf16 == "off"  # the plain full fine-tune: float32
    assert FineTuneConfig(bf16="auto").bf16 == "auto"  # also without the cache
    assert (FineTuneConfig(bf16=True).bf16, FineTuneConfig(bf16=False).bf16) == ("on", "off")
    with pytest.raises(ValueError, match="bf16 must be one of"):
        FineTuneConfig(bf16="fast")
    assert FineTuneConfig(threads=0).threads == 0  # auto
    with pytest.raises(ValueError, match="threads"):
        FineTuneConfig(threads=-1)


def test_fast_cv_preset() -> None:
    preset = FineTuneConfig.fast_cv()
    assert preset.freeze_layers == 3 and preset.cache_frozen and preset.length_grouped
    assert preset.bf16 == "auto" and preset.threads == 0
    assert (preset.epochs, preset.learning_rate, preset.batch_size) == (4, 5e-5, 8)  # the default schedule
    assert FineTuneConfig.fast_cv(seed=1).seed == 1
