"""Tests for mlcore.models.finetune on a tiny random BERT and a learnable toy task."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec, TrainProgress
from mlcore.models.finetune import MultipleChoiceTrainer
from mlcore.models.inference import MultipleChoiceModelScorer
from mlcore.models.training import EvalResult, evaluate_accuracy
from mlcore.testing import make_toy_examples

# High learning rate: the tiny model starts from random weights, not a pretrained encoder.
TOY_CONFIG = FineTuneConfig(epochs=4, learning_rate=3e-3, batch_size=8, max_length=32, warmup_ratio=0.0,
                            threads=1, seed=7)


@pytest.fixture(scope="module")
def train_examples() -> list[MCExample]:
    return make_toy_examples(96, seed=1)


@pytest.fixture(scope="module")
def test_examples() -> list[MCExample]:
    return make_toy_examples(60, seed=2)


@pytest.fixture(scope="module")
def trained(tiny_base_dir: Path, train_examples: list[MCExample]) -> tuple[MultipleChoiceTrainer, list[TrainProgress]]:
    reports: list[TrainProgress] = []
    trainer = MultipleChoiceTrainer(TOY_CONFIG, str(tiny_base_dir)).fit(train_examples, progress=reports.append)
    return trainer, reports


def test_fit_returns_self_and_learns(trained: tuple[MultipleChoiceTrainer, list[TrainProgress]],
                                     test_examples: list[MCExample], tmp_path: Path) -> None:
    trainer, _ = trained
    assert len(trainer.history_) == TOY_CONFIG.epochs
    assert trainer.history_[-1] < trainer.history_[0] - 0.3
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(trainer.save(tmp_path / "m")), "toy"))
    assert evaluate_accuracy(scorer, test_examples).accuracy >= 0.9


def test_progress_reports(trained: tuple[MultipleChoiceTrainer, list[TrainProgress]]) -> None:
    _, reports = trained
    assert len(reports) == TOY_CONFIG.epochs * 12  # 96 examples / batch 8
    assert [r.step for r in reports] == list(range(1, len(reports) + 1))
    assert {r.total_steps for r in reports} == {len(reports)}
    assert reports[-1].epoch == TOY_CONFIG.epochs
    assert reports[-1].elapsed_seconds >= reports[0].elapsed_seconds > 0


def test_save_and_reload_give_same_predictions(trained: tuple[MultipleChoiceTrainer, list[TrainProgress]],
                                               test_examples: list[MCExample], tmp_path: Path) -> None:
    trainer, _ = trained
    path = trainer.save(tmp_path / "saved")
    assert (path / "config.json").is_file() and (path / "mlcore_training.json").is_file()
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(path), "toy"))
    with torch.inference_mode():
        from mlcore.models.inference import encode_pairs

        enc = encode_pairs(trainer.tokenizer_, test_examples, max_length=32, answer_only=False)
        expected = torch.softmax(trainer.model_(**enc).logits, dim=-1)
    got = torch.tensor([p.probs for p in scorer.predict(test_examples)], dtype=torch.float64)
    assert torch.allclose(got, expected.double(), atol=1e-5)
    assert scorer.max_length_ == 32 and scorer.answer_only_ is False


def test_same_seed_same_run(tiny_base_dir: Path, train_examples: list[MCExample]) -> None:
    config = FineTuneConfig(epochs=1, learning_rate=1e-3, batch_size=16, max_length=32, threads=1, seed=3)
    first = MultipleChoiceTrainer(config, str(tiny_base_dir)).fit(train_examples[:32])
    second = MultipleChoiceTrainer(config, str(tiny_base_dir)).fit(train_examples[:32])
    assert first.history_ == second.history_
    for a, b in zip(first.model_.parameters(), second.model_.parameters()):
        assert torch.equal(a, b)


def test_answer_only_is_recorded_and_used(tiny_base_dir: Path, train_examples: list[MCExample],
                                          tmp_path: Path) -> None:
    config = FineTuneConfig(epochs=1, batch_size=16, max_length=32, threads=1, answer_only=True)
    trainer = MultipleChoiceTrainer(config, str(tiny_base_dir)).fit(train_examples[:16])
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(trainer.save(tmp_path)), "ao"))
    assert scorer.answer_only_ is True
    # The prompt is invisible, so changing it cannot change the prediction.
    ex = train_examples[0]
    other = MCExample("my friend lost a hat . she", ex.choices)
    assert scorer.predict([ex])[0].probs == pytest.approx(scorer.predict([other])[0].probs, abs=1e-6)


def test_freeze_layers_keeps_lower_weights(tiny_base_dir: Path, train_examples: list[MCExample]) -> None:
    config = FineTuneConfig(epochs=1, learning_rate=1e-3, batch_size=16, max_length=32, threads=1, freeze_layers=1)
    trainer = MultipleChoiceTrainer(config, str(tiny_base_dir))
    reference = MultipleChoiceTrainer(config, str(tiny_base_dir)).fit(train_examples[:1])  # loads same base
    trainer.fit(train_examples[:32])
    base, ref = trainer.model_.base_model, reference.model_.base_model
    frozen = zip(base.encoder.layer[0].parameters(), ref.encoder.layer[0].parameters())
    assert all(torch.equal(a, b) for a, b in frozen)
    assert not any(torch.equal(a, b) for a, b in zip(base.encoder.layer[1].parameters(),
                                                      ref.encoder.layer[1].parameters()) if a.dim() > 1)
    with pytest.raises(ValueError, match="only 2 layers"):
        MultipleChoiceTrainer(FineTuneConfig(freeze_layers=5, threads=1), str(tiny_base_dir)).fit(train_examples[:4])


def test_fit_validates_examples(tiny_base_dir: Path) -> None:
    trainer = MultipleChoiceTrainer(FineTuneConfig(threads=1), str(tiny_base_dir))
    with pytest.raises(ValueError, match="zero examples"):
        trainer.fit([])
    with pytest.raises(ValueError, match="needs a label"):
        trainer.fit([MCExample("p", ("a", "b", "c", "d"))])
    with pytest.raises(RuntimeError, match="fit"):
        trainer.save("/tmp/never")


def test_evaluate_accuracy_counts() -> None:
    class Fixed:
        spec = ScorerSpec(ScorerKind.MULTIPLE_CHOICE, "x", "fixed")

        def predict(self, examples):  # always picks choice 0
            from mlcore.configs import MCPrediction

            return [MCPrediction((1.0, 0.0, 0.0, 0.0), 0, "fixed", "") for _ in examples]

    examples = [MCExample("p", ("a", "b", "c", "d"), label) for label in (0, 0, 1, 3)]
    assert evaluate_accuracy(Fixed(), examples) == EvalResult(accuracy=0.5, n=4, correct=2)
    with pytest.raises(ValueError):
        evaluate_accuracy(Fixed(), [])
