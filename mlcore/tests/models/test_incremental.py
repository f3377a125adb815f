"""Tests for mlcore.models.incremental: cached live scoring equals uncached scoring bit for bit.

The reference for "uncached" is each part run alone, unpadded, straight through the
transformers model (built here, not through mlcore.models.incremental), and the same scorer without a
cache; see the module docstring for why batched scoring is not the reference.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch

from mlcore.configs import InferenceConfig, MCExample, ScorerKind, ScorerSpec
from mlcore.models.incremental import IncrementalScorer
from mlcore.models.inference import MultipleChoiceModelScorer, ZeroShotEmbeddingScorer
from mlcore.models.inference_cache import InferenceCache
from mlcore.testing import make_toy_examples


@pytest.fixture(scope="module")
def examples() -> list[MCExample]:
    return make_toy_examples(8, seed=5)


@pytest.fixture(scope="module")
def mc_scorer(tiny_mc_dir: Path) -> MultipleChoiceModelScorer:
    return MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny-mc"))


@pytest.fixture(scope="module")
def zero_shot(tiny_base_dir: Path) -> ZeroShotEmbeddingScorer:
    return ZeroShotEmbeddingScorer(ScorerSpec(ScorerKind.ZERO_SHOT, str(tiny_base_dir), "tiny-base", "r1"))


def edit_choice(example: MCExample, index: int, text: str) -> MCExample:
    choices = list(example.choices)
    choices[index] = text
    return replace(example, choices=tuple(choices))


@pytest.mark.parametrize("engine", ["torch", "onnx-int8"])
@pytest.mark.parametrize("scorer_name", ["mc_scorer", "zero_shot"])
def test_a_batch_mixing_cached_and_new_parts_is_bit_identical_to_uncached_scoring(
        scorer_name: str, engine: str, examples: list[MCExample], request: pytest.FixtureRequest) -> None:
    scorer = request.getfixturevalue(scorer_name)
    live = IncrementalScorer(scorer, engine=engine, cache=InferenceCache(max_entries=1000))
    uncached = IncrementalScorer(scorer, engine=engine)  # stores nothing, computes the same way
    live.predict(examples[:3])  # drafts seen before
    # cached questions, edited ones (one new pair each), new ones, a repeat, in another order
    batch = [examples[6], edit_choice(examples[0], 2, "a zebra ate the cake."), examples[1], examples[7],
             replace(examples[2], prompt=examples[2].prompt + " then"), examples[1]]
    misses_before = live.cache.stats.misses
    scores, probs = live.scores(batch), live.predict_proba(batch)
    assert live.cache.stats.misses > misses_before  # the batch really mixed cached and new parts
    assert torch.equal(scores, uncached.scores(batch))
    assert torch.equal(probs, uncached.predict_proba(batch))
    alone = torch.cat([IncrementalScorer(scorer, engine=engine).predict_proba([ex]) for ex in batch])
    assert torch.equal(probs, alone)  # a question's result does not depend on its batch
    assert [p.probs for p in live.predict(batch)] == [tuple(row) for row in probs.tolist()]


def test_each_pair_logit_is_the_model_run_on_that_pair_alone(mc_scorer: MultipleChoiceModelScorer,
                                                            examples: list[MCExample]) -> None:
    live = IncrementalScorer(mc_scorer, cache=InferenceCache(max_entries=1000))
    live.predict(examples[:2])
    logits = live.scores(examples[:4])  # half from the cache
    tokenizer, model = mc_scorer.tokenizer_, mc_scorer.model_
    for row, example in zip(logits, examples[:4]):
        for value, choice in zip(row, example.choices):
            enc = tokenizer(example.prompt, choice, truncation="longest_first", max_length=mc_scorer.max_length_,
                            return_tensors="pt")
            with torch.inference_mode():
                expected = model(**{k: v.unsqueeze(1) for k, v in enc.items()}).logits  # (1, 1)
            assert torch.equal(value, expected[0, 0])


def test_each_text_embedding_is_the_model_run_on_that_text_alone(zero_shot: ZeroShotEmbeddingScorer,
                                                                examples: list[MCExample]) -> None:
    live = IncrementalScorer(zero_shot, cache=InferenceCache(max_entries=1000))
    live.predict(examples[:1])
    parts = live.parts(examples[:2])
    texts = [examples[1].prompt.strip(), *(c.strip() for c in examples[1].choices)]
    for value, text in zip(parts[1], texts):
        enc = zero_shot.tokenizer_(text, truncation=True, max_length=zero_shot.config.max_length, return_tensors="pt")
        with torch.inference_mode():
            hidden = zero_shot.model_(**enc).last_hidden_state[0]  # (seq, hidden), no padding
        assert torch.equal(value, torch.nn.functional.normalize(hidden.mean(dim=0), dim=-1))


@pytest.mark.parametrize(("scorer_name", "new", "one_choice", "prompt"), [
    ("mc_scorer", 4, 1, 4),   # a pair per choice; the prompt is in every pair
    ("zero_shot", 9, 2, 5),   # prompt, 4 choices, 4 completed sentences
])
def test_a_keystroke_recomputes_only_the_parts_it_changed(scorer_name: str, new: int, one_choice: int, prompt: int,
                                                          examples: list[MCExample],
                                                          request: pytest.FixtureRequest) -> None:
    live = IncrementalScorer(request.getfixturevalue(scorer_name), cache=InferenceCache(max_entries=1000))

    def computed(example: MCExample) -> int:
        before = live.cache.stats.misses
        live.predict([example])
        return live.cache.stats.misses - before

    draft = examples[3]
    assert computed(draft) == new
    draft = edit_choice(draft, 2, draft.choices[2] + " again")
    assert computed(draft) == one_choice
    assert computed(replace(draft, prompt=draft.prompt + " today")) == prompt
    assert computed(draft) == 0  # submitting what was just scored runs no model


def test_answer_only_models_reuse_pairs_across_prompts(tiny_mc_dir: Path, examples: list[MCExample]) -> None:
    scorer = MultipleChoiceModelScorer(ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny-ao"),
                                       InferenceConfig(answer_only=True))
    live = IncrementalScorer(scorer, cache=InferenceCache(max_entries=100))
    first = live.predict_proba([examples[0]])
    misses = live.cache.stats.misses
    again = live.predict_proba([replace(examples[0], prompt="a completely different prompt")])
    assert live.cache.stats.misses == misses and torch.equal(first, again)


def test_a_new_model_revision_shares_no_cached_value(tiny_mc_dir: Path, examples: list[MCExample]) -> None:
    cache = InferenceCache(max_entries=1000)
    old = IncrementalScorer(MultipleChoiceModelScorer(
        ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny", "v1")), cache=cache)
    new = IncrementalScorer(MultipleChoiceModelScorer(
        ScorerSpec(ScorerKind.MULTIPLE_CHOICE, str(tiny_mc_dir), "tiny", "v2")), cache=cache)
    old.predict(examples[:2])
    misses = cache.stats.misses
    new.predict(examples[:2])
    assert cache.stats.misses - misses == 8 and new.predict(examples[:1])[0].model_revision == "v2"
    assert cache.discard_model(old.model_key_) == 8


def test_live_scoring_agrees_with_batched_scoring_to_float_rounding(mc_scorer: MultipleChoiceModelScorer,
                                                                    zero_shot: ZeroShotEmbeddingScorer,
                                                                    examples: list[MCExample]) -> None:
    for scorer in (mc_scorer, zero_shot):
        live = IncrementalScorer(scorer).predict(examples)
        batched = scorer.predict(examples)
        for a, b in zip(live, batched):
            assert a.probs == pytest.approx(b.probs, abs=1e-6)
            assert (a.model_name, a.model_revision) == (b.model_name, b.model_revision)
    assert IncrementalScorer(mc_scorer).predict([]) == []
