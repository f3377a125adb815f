"""Tests for mlcore.models.cv_runner: a plain fold predicts through the live path (mlcore.models.live)."""

from __future__ import annotations

import shutil
from pathlib import Path
from unittest import mock

import pytest

from mlcore.configs import FineTuneConfig, ScorerKind, ScorerSpec
from mlcore.models.cv_runner import FoldRunner
from mlcore.models.finetune import MultipleChoiceTrainer
from mlcore.models.incremental import EncoderLiveModel
from mlcore.models.inference import MultipleChoiceModelScorer
from mlcore.testing import make_toy_examples

PLAIN = FineTuneConfig(epochs=1, learning_rate=1e-2, batch_size=8, max_length=32, warmup_ratio=0.0, threads=1,
                       seed=0, freeze_layers=0)


def test_a_plain_fold_scores_with_the_live_model_and_agrees_with_the_batched_scorer(
        tiny_base_dir: Path, tmp_path: Path) -> None:
    examples = make_toy_examples(24, seed=3)
    kept = tmp_path / "fold-model"
    real_save = MultipleChoiceTrainer.save

    def save_and_keep(trainer: MultipleChoiceTrainer, directory: str) -> None:
        real_save(trainer, directory)
        shutil.copytree(directory, kept)  # the fold's own directory is deleted once it has predicted

    built: list[EncoderLiveModel] = []
    real_init = EncoderLiveModel.__init__

    def spy_init(model: EncoderLiveModel, *args: object, **kwargs: object) -> None:
        real_init(model, *args, **kwargs)  # type: ignore[arg-type]
        built.append(model)

    assert PLAIN.cache_frozen is False
    with mock.patch.object(MultipleChoiceTrainer, "save", save_and_keep), \
            mock.patch.object(EncoderLiveModel, "__init__", spy_init):
        predictions = FoldRunner(str(tiny_base_dir), examples, PLAIN).run_fold(range(16), range(16, 24), seed=0)
    # One throw-away live model that kept no parts and was closed after the fold.
    assert len(built) == 1 and built[0]._cache is None and not built[0].ready()
    # The independent reference: the same weights scored in one padded batch (equal to float rounding).
    reference = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(kept), "cv-fold")).predict(
        examples[16:])
    assert len(predictions) == 8
    for live, batched in zip(predictions, reference):
        assert live.probs == pytest.approx(batched.probs, abs=1e-6)
        assert (live.model_name, live.model_revision) == (batched.model_name, batched.model_revision)
