"""Tests for mlcore.models.fast_finetune on tiny random BERTs (2 layers) and the toy marker task."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import torch
from transformers import AutoModel

from mlcore.configs import FineTuneConfig, MCExample, ScorerKind, ScorerSpec, TrainProgress
from mlcore.models.fast_finetune import FastMultipleChoiceTrainer
from mlcore.models.finetune import MultipleChoiceTrainer
from mlcore.models.frozen_prefix import FrozenPrefixCache
from mlcore.models.hardware import detect_cpu, hardware_for
from mlcore.models.inference import TRAINING_META_FILE, MultipleChoiceModelScorer, encode_pairs
from mlcore.models.loading import load_pretrained
from mlcore.testing import build_tiny_bert, make_toy_examples

# High learning rate: the tiny model starts from random weights, not a pretrained encoder.
TOY_CONFIG = FineTuneConfig(epochs=4, learning_rate=1e-2, batch_size=8, max_length=32, warmup_ratio=0.0,
                            threads=1, seed=7, freeze_layers=1)
N_TRAIN = 96
SOFTMAX_INVARIANT = ("attention.self.key.bias", "classifier.bias")


def _varied_lengths(examples: list[MCExample]) -> list[MCExample]:
    """Pad prompts with 0-9 filler words so questions differ in length (exercises dynamic padding)."""
    return [dataclasses.replace(ex, prompt=" ".join(["very"] * (i % 10) + [ex.prompt]))
            for i, ex in enumerate(examples)]


@pytest.fixture(scope="module")
def examples() -> list[MCExample]:
    """96 training questions followed by 60 held-out ones."""
    return _varied_lengths(make_toy_examples(N_TRAIN, seed=1) + make_toy_examples(60, seed=2))


@pytest.fixture(scope="module")
def cache(tiny_base_dir: Path, examples: list[MCExample]) -> FrozenPrefixCache:
    return FrozenPrefixCache.build(str(tiny_base_dir), examples, TOY_CONFIG)


@pytest.fixture(scope="module")
def trained(cache: FrozenPrefixCache) -> tuple[FastMultipleChoiceTrainer, list[TrainProgress]]:
    reports: list[TrainProgress] = []
    trainer = FastMultipleChoiceTrainer(TOY_CONFIG, cache).fit(range(N_TRAIN), progress=reports.append)
    return trainer, reports


def _scorer(path: Path) -> MultipleChoiceModelScorer:
    return MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(path), "fast"))


@pytest.mark.parametrize("freeze_layers", [1, 2])
def test_cache_equals_full_model_hidden_states(tiny_base_dir: Path, examples: list[MCExample],
                                               freeze_layers: int) -> None:
    config = dataclasses.replace(TOY_CONFIG, freeze_layers=freeze_layers)
    cache = FrozenPrefixCache.build(str(tiny_base_dir), examples[:12], config)
    tokenizer, model = load_pretrained(AutoModel, str(tiny_base_dir), "tiny")
    enc = encode_pairs(tokenizer, examples[:12], max_length=32, answer_only=False)  # each (12, 4, seq)
    with torch.inference_mode():
        flat = {key: value.view(-1, value.size(-1)) for key, value in enc.items()}
        expected = model(**flat, output_hidden_states=True).hidden_states[freeze_layers]  # (48, seq, hidden)
    tokens, layout = cache.packed(list(range(12)))
    assert torch.equal(layout.mask, flat["attention_mask"].bool())
    assert tokens.dtype == torch.float32 and tokens.size(0) == int(flat["attention_mask"].sum())
    assert torch.allclose(tokens, expected[layout.mask], atol=1e-5)  # packed in (question, choice, token) order
    assert torch.equal(tokens[layout.first], expected[:, 0])  # [CLS] of every pair
    assert len({state.size(1) for state in cache.states}) > 3  # per-question lengths really differ


def test_learns_toy_task(trained: tuple[FastMultipleChoiceTrainer, list[TrainProgress]]) -> None:
    trainer, _ = trained
    assert len(trainer.history_) == TOY_CONFIG.epochs
    assert trainer.history_[-1] < trainer.history_[0] - 0.3
    assert trainer.evaluate(range(N_TRAIN, len(trainer.cache))).accuracy >= 0.9


def test_progress_reports(trained: tuple[FastMultipleChoiceTrainer, list[TrainProgress]]) -> None:
    _, reports = trained
    assert [r.step for r in reports] == list(range(1, TOY_CONFIG.epochs * 12 + 1))
    assert {r.total_steps for r in reports} == {len(reports)}


def test_saved_model_predicts_like_the_trainer(trained: tuple[FastMultipleChoiceTrainer, list[TrainProgress]],
                                              examples: list[MCExample], tmp_path: Path) -> None:
    trainer, _ = trained
    held_out = list(range(N_TRAIN, len(examples)))
    scorer = _scorer(trainer.save(tmp_path / "saved"))
    expected = scorer.predict(examples[N_TRAIN:])
    got = trainer.predict(held_out)
    assert [p.predicted for p in got] == [p.predicted for p in expected]
    assert torch.allclose(torch.tensor([p.probs for p in got]), torch.tensor([p.probs for p in expected]), atol=1e-5)
    assert got[0].model_revision == trainer.revision_ and len(trainer.revision_) == 12
    assert scorer.max_length_ == TOY_CONFIG.max_length and scorer.answer_only_ is False


def test_frozen_weights_are_saved_unchanged(trained: tuple[FastMultipleChoiceTrainer, list[TrainProgress]],
                                            tiny_base_dir: Path) -> None:
    trainer, _ = trained
    _, base = load_pretrained(AutoModel, str(tiny_base_dir), "tiny")
    tuned = trainer.model_.base_model
    for ours, theirs in [(tuned.embeddings, base.embeddings), (tuned.encoder.layer[0], base.encoder.layer[0])]:
        assert all(torch.equal(a, b) for a, b in zip(ours.parameters(), theirs.parameters(), strict=True))
    assert not torch.equal(tuned.encoder.layer[1].output.dense.weight, base.encoder.layer[1].output.dense.weight)


def test_same_seed_same_result_and_cache_untouched(cache: FrozenPrefixCache) -> None:
    before = [state.clone() for state in cache.states]
    config = dataclasses.replace(TOY_CONFIG, epochs=1, seed=3)
    first = FastMultipleChoiceTrainer(config, cache).fit(range(40))
    second = FastMultipleChoiceTrainer(config, cache).fit(range(40))
    assert first.history_ == second.history_ and first.revision_ == second.revision_
    assert all(torch.equal(a, b) for a, b in zip(first.model_.parameters(), second.model_.parameters(), strict=True))
    assert all(torch.equal(a, b) for a, b in zip(before, cache.states, strict=True))
    other_seed = FastMultipleChoiceTrainer(dataclasses.replace(config, seed=4), cache).fit(range(40))
    assert other_seed.revision_ != first.revision_


@pytest.fixture(scope="module")
def dropout_free_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny base model with its dropout switched off."""
    directory = build_tiny_bert(tmp_path_factory.mktemp("tiny_no_dropout"), seed=1, with_head=False)
    config = json.loads((directory / "config.json").read_text())
    config.update(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    (directory / "config.json").write_text(json.dumps(config))
    return directory


@pytest.mark.parametrize("freeze_layers", [1, 2])  # 2: every layer of the tiny model frozen
def test_matches_training_without_cache(dropout_free_dir: Path, examples: list[MCExample], freeze_layers: int) -> None:
    # Same head init and batch order; the cache skips recomputation, packing skips padding and
    # the top layer's other tokens. Dropout is off because the fast path draws fewer random
    # numbers (none for what it skips), so with dropout the two runs differ in their draws.
    config = dataclasses.replace(TOY_CONFIG, epochs=2, freeze_layers=freeze_layers)
    uncached = MultipleChoiceTrainer(dataclasses.replace(config, cache_frozen=False), str(dropout_free_dir))
    uncached.fit(examples[:48])
    cached = MultipleChoiceTrainer(config, str(dropout_free_dir)).fit(examples[:48])  # hands over to the cache
    assert cached.history_ == pytest.approx(uncached.history_, abs=1e-5)
    compared = 0
    for (name, a), b in zip(cached.model_.named_parameters(), uncached.model_.parameters(), strict=True):
        # The key bias and the classifier bias shift every logit of a softmax by the same amount,
        # so their true gradient is zero: Adam turns rounding noise into steps of about the
        # learning rate, which differ between two runs that agree everywhere else.
        if name.endswith(SOFTMAX_INVARIANT):
            continue
        # Elsewhere the two runs add the same numbers in a different order (packed, [CLS] only);
        # Adam divides by the gradient's own scale, so its rounding difference can move a
        # weight by a small fraction of the learning rate (1e-2) over the 12 steps.
        assert torch.allclose(a, b, atol=1e-3), name
        compared += 1
    assert compared > 30


def test_answer_only(tiny_base_dir: Path, examples: list[MCExample], tmp_path: Path) -> None:
    config = dataclasses.replace(TOY_CONFIG, epochs=1, answer_only=True)
    cache = FrozenPrefixCache.build(str(tiny_base_dir), examples[:20], config)
    # Blank prompts: every question's pairs are "[CLS] [SEP] choice [SEP]", at most 9 tokens here.
    assert max(cache.lengths()) <= 9
    trainer = FastMultipleChoiceTrainer(config, cache).fit(range(16))
    scorer = _scorer(trainer.save(tmp_path))
    assert scorer.answer_only_ is True
    expected = torch.tensor([p.probs for p in scorer.predict(examples[16:20])])
    assert torch.allclose(torch.tensor([p.probs for p in trainer.predict(range(16, 20))]), expected, atol=1e-5)
    ex = examples[0]
    other = MCExample("my friend lost a hat . she", ex.choices)
    assert scorer.predict([ex])[0].probs == pytest.approx(scorer.predict([other])[0].probs, abs=1e-6)


def test_float16_cache_is_close(cache: FrozenPrefixCache, tiny_base_dir: Path, examples: list[MCExample]) -> None:
    config = dataclasses.replace(TOY_CONFIG, epochs=1, cache_dtype="float16")
    half = FrozenPrefixCache.build(str(tiny_base_dir), examples, config)
    assert half.states[0].dtype == torch.float16 and half.nbytes < 0.6 * cache.nbytes
    probs_half = FastMultipleChoiceTrainer(config, half).fit(range(40)).predict_proba(range(N_TRAIN, len(examples)))
    full = dataclasses.replace(config, cache_dtype="float32")
    probs_full = FastMultipleChoiceTrainer(full, cache).fit(range(40)).predict_proba(range(N_TRAIN, len(examples)))
    assert torch.allclose(probs_half, probs_full, atol=1e-2)


def test_validation(tiny_base_dir: Path, cache: FrozenPrefixCache, examples: list[MCExample]) -> None:
    with pytest.raises(ValueError, match="freeze_layers >= 1"):
        FrozenPrefixCache.build(str(tiny_base_dir), examples[:4], dataclasses.replace(TOY_CONFIG, freeze_layers=0))
    with pytest.raises(ValueError, match="only 2 layers"):
        FrozenPrefixCache.build(str(tiny_base_dir), examples[:4], dataclasses.replace(TOY_CONFIG, freeze_layers=3))
    with pytest.raises(ValueError, match="cache was built with"):
        FastMultipleChoiceTrainer(dataclasses.replace(TOY_CONFIG, max_length=40), cache).fit()
    with pytest.raises(ValueError, match="zero examples"):
        FastMultipleChoiceTrainer(TOY_CONFIG, cache).fit([])
    with pytest.raises(ValueError, match="indices must be"):
        FastMultipleChoiceTrainer(TOY_CONFIG, cache).fit([len(cache)])
    unlabeled = FrozenPrefixCache.build(str(tiny_base_dir), [MCExample("a dog", ("ate", "saw", "lost", "made"))],
                                        TOY_CONFIG)
    with pytest.raises(ValueError, match="needs a label"):
        FastMultipleChoiceTrainer(TOY_CONFIG, unlabeled).fit()
    with pytest.raises(RuntimeError, match="fit"):
        FastMultipleChoiceTrainer(TOY_CONFIG, cache).predict()


def test_length_grouped_batches_cover_every_question_once(cache: FrozenPrefixCache) -> None:
    config = dataclasses.replace(TOY_CONFIG, length_grouped=True, batch_size=4)
    trainer = FastMultipleChoiceTrainer(config, cache)
    indices = list(range(N_TRAIN))
    batches = trainer._epoch_batches(indices, torch.Generator().manual_seed(0))
    assert sorted(i for batch in batches for i in batch) == indices
    assert batches == trainer._epoch_batches(indices, torch.Generator().manual_seed(0))
    lengths = cache.lengths()

    def padded_tokens(groups: list[list[int]]) -> int:
        return sum(len(batch) * max(lengths[i] for i in batch) for batch in groups)

    plain = FastMultipleChoiceTrainer(dataclasses.replace(config, length_grouped=False), cache)
    assert padded_tokens(batches) < padded_tokens(plain._epoch_batches(indices, torch.Generator().manual_seed(0)))


def test_bf16_grouped_training_learns_and_predicts_in_float32(cache: FrozenPrefixCache, examples: list[MCExample],
                                                              tmp_path: Path) -> None:
    config = dataclasses.replace(TOY_CONFIG, length_grouped=True, bf16="on")
    trainer = FastMultipleChoiceTrainer(config, cache).fit(range(N_TRAIN))
    assert trainer.hardware_.uses_bf16 and trainer.hardware_.setting == "on"
    assert trainer.evaluate(range(N_TRAIN, len(examples))).accuracy >= 0.9
    assert all(p.dtype == torch.float32 for p in trainer.model_.parameters())
    expected = torch.tensor([p.probs for p in _scorer(trainer.save(tmp_path)).predict(examples[N_TRAIN:])])
    assert torch.allclose(trainer.predict_proba(range(N_TRAIN, len(examples))), expected.double(), atol=1e-5)


def test_auto_precision_and_threads_are_resolved_and_recorded(cache: FrozenPrefixCache, tmp_path: Path) -> None:
    config = dataclasses.replace(TOY_CONFIG, epochs=1, bf16="auto", threads=0)
    trainer = FastMultipleChoiceTrainer(config, cache).fit(range(16))
    assert trainer.hardware_ == hardware_for("auto")  # float32 unless bfloat16 is native and measured faster
    assert 1 <= trainer.threads_ <= detect_cpu().cpus
    meta = json.loads((trainer.save(tmp_path) / TRAINING_META_FILE).read_text())
    assert meta["hardware"]["precision"] == trainer.hardware_.precision and meta["config"]["bf16"] == "auto"
