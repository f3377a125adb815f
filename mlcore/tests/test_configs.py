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
        FineTuneConfig(bf16=True)
    with pytest.raises(ValueError, match="cache_dtype"):
        FineTuneConfig(freeze_layers=2, cache_dtype="int8")


def test_fast_cv_preset() -> None:
    preset = FineTuneConfig.fast_cv()
    assert preset.freeze_layers == 2 and preset.cache_frozen and preset.length_grouped and preset.bf16
    assert (preset.epochs, preset.learning_rate, preset.batch_size) == (4, 5e-5, 8)  # the default schedule
    assert FineTuneConfig.fast_cv(seed=1).seed == 1
