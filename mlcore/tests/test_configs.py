"""Tests for the validation in mlcore.configs records."""

from __future__ import annotations

import pytest

from mlcore.configs import CATEGORIES, CATEGORY_CODES, FineTuneConfig, MCExample, MCPrediction, ScorerKind


def test_category_constants_agree() -> None:
    assert set(CATEGORY_CODES.values()) == set(CATEGORIES)
    assert ScorerKind("zero_shot_embedding") is ScorerKind.ZERO_SHOT


def test_example_normalises_lists_to_tuples() -> None:
    ex = MCExample("p", ["a", "b", "c", "d"], 2, ["idioms"])  # type: ignore[arg-type]
    assert ex.choices == ("a", "b", "c", "d") and ex.categories == ("idioms",)
    assert hash(ex)


@pytest.mark.parametrize(
    "kwargs",
    [dict(choices=("a", "b", "c")), dict(label=4), dict(label=True), dict(categories=("jokes",))],
)
def test_example_rejects_invalid(kwargs: dict) -> None:
    base = dict(prompt="p", choices=("a", "b", "c", "d"), label=0)
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
