"""Tests for mlcore.models.inference on tiny random checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from mlcore.configs import (
    InferenceConfig,
    MCExample,
    ScorerKind,
    ScorerSpec,
    ZeroShotConfig,
)
from mlcore.models.inference import (
    MultipleChoiceModelScorer,
    ZeroShotEmbeddingScorer,
    encode_pairs,
)
from mlcore.testing import make_toy_examples


@pytest.fixture(scope="module")
def examples() -> list[MCExample]:
    return make_toy_examples(7, seed=3)


@pytest.fixture(scope="module")
def mc_scorer(tiny_mc_dir: Path) -> MultipleChoiceModelScorer:
    return MultipleChoiceModelScorer(
        ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny-mc"), InferenceConfig(batch_size=3)
    )


@pytest.fixture(scope="module")
def zero_shot(tiny_base_dir: Path) -> ZeroShotEmbeddingScorer:
    return ZeroShotEmbeddingScorer(ScorerSpec(ScorerKind.ZERO_SHOT, str(tiny_base_dir), "tiny-base", "r1"),
                                   ZeroShotConfig(batch_size=3))


@pytest.mark.parametrize("scorer_name", ["mc_scorer", "zero_shot"])
def test_probabilities_shape_and_sum(scorer_name: str, examples: list[MCExample],
                                     request: pytest.FixtureRequest) -> None:
    scorer = request.getfixturevalue(scorer_name)
    predictions = scorer.predict(examples)
    assert len(predictions) == len(examples)
    for pred in predictions:
        assert len(pred.probs) == 4
        assert sum(pred.probs) == pytest.approx(1.0, abs=1e-6)
        assert pred.predicted == max(range(4), key=lambda i: pred.probs[i])
        assert pred.model_name == scorer.spec.name


@pytest.mark.parametrize("scorer_name", ["mc_scorer", "zero_shot"])
def test_batch_equals_single(scorer_name: str, examples: list[MCExample], request: pytest.FixtureRequest) -> None:
    scorer = request.getfixturevalue(scorer_name)
    batched = scorer.predict(examples)
    single = [scorer.predict([ex])[0] for ex in examples]
    for a, b in zip(batched, single):
        assert a.probs == pytest.approx(b.probs, abs=1e-5)  # padding must not change results


def test_revision_is_spec_revision_or_weights_hash(mc_scorer: MultipleChoiceModelScorer,
                                                   zero_shot: ZeroShotEmbeddingScorer,
                                                   examples: list[MCExample]) -> None:
    assert zero_shot.predict(examples[:1])[0].model_revision == "r1"
    revision = mc_scorer.predict(examples[:1])[0].model_revision
    assert len(revision) == 12 and int(revision, 16) >= 0


def test_empty_input_gives_empty_output(mc_scorer: MultipleChoiceModelScorer) -> None:
    assert mc_scorer.predict([]) == []


def test_encode_pairs_shape_and_answer_only(mc_scorer: MultipleChoiceModelScorer,
                                            examples: list[MCExample]) -> None:
    tok = mc_scorer.tokenizer_
    enc = encode_pairs(tok, examples[:2], max_length=64, answer_only=False)
    assert enc["input_ids"].shape[:2] == (2, 4)
    blank = encode_pairs(tok, examples[:2], max_length=64, answer_only=True)
    cls, sep = tok.cls_token_id, tok.sep_token_id
    # answer-only input is "[CLS] [SEP] choice [SEP]": no prompt tokens at all
    assert blank["input_ids"][0, 0, :2].tolist() == [cls, sep]
    assert blank["input_ids"].shape[-1] < enc["input_ids"].shape[-1]
    assert set(blank["token_type_ids"][0, 0, :2].tolist()) == {0}


def test_truncation_respects_max_length(mc_scorer: MultipleChoiceModelScorer) -> None:
    long = MCExample(" ".join(["the cat ate an apple ."] * 40), ("a", "b", "c", "d"))
    enc = encode_pairs(mc_scorer.tokenizer_, [long], max_length=16, answer_only=False)
    assert enc["input_ids"].shape == (1, 4, 16)


def test_zero_shot_scores_match_formula(zero_shot: ZeroShotEmbeddingScorer) -> None:
    example = MCExample("the cat ate an apple . it", ("ate an apple", "made a hat", "lost the car", "took a book"))
    scores = zero_shot.scores([example])
    assert scores.shape == (1, 4)
    p = zero_shot.embed([example.prompt])[0]
    c = zero_shot.embed(list(example.choices))
    pc = zero_shot.embed([f"{example.prompt} {choice}" for choice in example.choices])
    mean_other = torch.stack([sum(c[i] @ c[j] for j in range(4) if j != i) / 3 for i in range(4)])
    expected = pc @ p - zero_shot.config.odd_one_out_weight * mean_other
    assert torch.allclose(scores[0], expected, atol=1e-5)
    probs = torch.tensor(zero_shot.predict([example])[0].probs, dtype=torch.float64)
    assert torch.allclose(probs, torch.softmax(expected.double() / zero_shot.config.temperature, -1), atol=1e-5)


def test_embeddings_are_normalised(zero_shot: ZeroShotEmbeddingScorer) -> None:
    emb = zero_shot.embed(["the cat", "my brother ate some bread very slowly"])
    assert emb.shape == (2, 32)
    assert torch.linalg.norm(emb, dim=-1) == pytest.approx([1.0, 1.0], abs=1e-5)
