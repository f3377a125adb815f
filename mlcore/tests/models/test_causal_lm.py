"""The causal-LM kind on tiny random GPT-2 and Llama checkpoints written to disk."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from mlcore.configs import MCExample, ScorerSpec
from mlcore.models.causal_lm import CausalLMConfig, CausalLMScorer, CausalLMSpec, encode_pair, normalized_scores
from mlcore.models.live import LiveKey, LiveModel
from mlcore.models.loading import ModelLoadError
from mlcore.testing import make_toy_examples
from mlcore.testing_llm import build_tiny_causal_lm

ARCHS = ("gpt2", "llama")


@pytest.fixture(scope="module", params=ARCHS)
def lm_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_causal_lm(tmp_path_factory.mktemp(f"tiny_{request.param}"), arch=request.param, seed=3)


def _scorer(path: Path, **settings: Any) -> CausalLMScorer:
    return CausalLMScorer(CausalLMSpec(str(path), "tiny-lm", config=CausalLMConfig(**settings)))


def _examples() -> list[MCExample]:
    toy = make_toy_examples(3, seed=5)
    return [*toy, MCExample("The glass fell off the table. It ", ("shattered.", "sang a song on the floor", "was", "flew")),
            MCExample("", ("the cat", "a dog ate", "then", "very slowly"))]


@functools.lru_cache(maxsize=2)
def _load(path: Path) -> tuple[Any, Any]:
    tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    return tokenizer, AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True).eval()


def _reference(path: Path, example: MCExample, max_length: int = 0) -> tuple[list[float], list[int]]:
    """Written out from lm-evaluation-harness, independently of the module: one plain forward each."""
    tokenizer, model = _load(path)
    lls, counts = [], []
    for choice in example.choices:
        context, continuation = example.prompt, " " + choice
        stripped = context.rstrip()
        continuation = context[len(stripped):] + continuation
        if stripped:
            ctx = tokenizer(stripped, add_special_tokens=False)["input_ids"]
            cont = tokenizer(stripped + continuation, add_special_tokens=False)["input_ids"][len(ctx):]
        else:
            ctx = [tokenizer.bos_token_id]
            cont = tokenizer(continuation, add_special_tokens=False)["input_ids"]
        tokens = ctx + cont
        if max_length:
            tokens = tokens[-(max_length + 1):]
        with torch.inference_mode():
            logits = model(input_ids=torch.tensor([tokens[:-1]])).logits[0]  # (seq, vocab)
        logprobs = torch.log_softmax(logits, dim=-1)[-len(cont):]  # (n_cont, vocab)
        lls.append(float(logprobs.gather(1, torch.tensor(cont).unsqueeze(1)).sum()))
        counts.append(len(cont))
    return lls, counts


def test_is_a_live_model(lm_dir: Path) -> None:
    scorer = _scorer(lm_dir)
    assert isinstance(scorer, LiveModel)
    assert not scorer.ready()
    scorer.warm_up()
    assert scorer.ready()
    scorer.close()
    assert not scorer.ready()


def test_builds_from_a_live_key(lm_dir: Path) -> None:
    key = LiveKey(ScorerSpec("causal_lm", str(lm_dir), "tiny-lm", "v1"), device="cpu")  # type: ignore[arg-type]
    scorer = CausalLMScorer.from_live_key(key)
    assert scorer.spec == CausalLMSpec(str(lm_dir), "tiny-lm", "v1", CausalLMConfig(device="cpu"))
    assert scorer.predict(_examples()[:1])[0].model_revision == "v1"
    with pytest.raises(ValueError):
        CausalLMConfig(device="tpu")


def test_scores_equal_a_plain_forward_per_choice(lm_dir: Path) -> None:
    scorer = _scorer(lm_dir)
    for example in _examples():
        lls, counts = scorer.loglikelihoods(example)
        ref_lls, ref_counts = _reference(lm_dir, example)
        assert counts == ref_counts
        assert lls == pytest.approx(ref_lls, abs=1e-5)


def test_long_inputs_are_cut_from_the_left_like_the_harness(lm_dir: Path) -> None:
    example = MCExample("the cat ate an apple and the dog saw the ball then it", ("was very big", "a", "made a cake", "is"))
    lls, _ = _scorer(lm_dir, max_length=6).loglikelihoods(example)
    assert lls == pytest.approx(_reference(lm_dir, example, max_length=6)[0], abs=1e-5)


def test_editing_one_completion_recomputes_only_it_bit_identically(lm_dir: Path) -> None:
    live = _scorer(lm_dir)
    draft = MCExample("my friend found a book . it", ("was very good", "ate the car", "is blue", "went to bed"))
    live.predict([draft])
    assert live.forward_calls_ == 1 + 4  # the prompt once, then each completion of more than one token
    edited = MCExample(draft.prompt, (draft.choices[0], draft.choices[1], "is blue and green", draft.choices[3]))
    before = live.forward_calls_
    incremental = live.token_logprobs(edited)
    assert live.forward_calls_ == before + 1  # the edited completion alone; the prompt's cache is reused
    fresh = _scorer(lm_dir)
    full = fresh.token_logprobs(edited)
    assert all(torch.equal(a, b) for a, b in zip(incremental, full))
    assert live.predict([edited]) == fresh.predict([edited])


def test_a_prompt_is_run_once_for_every_question_that_shares_it(lm_dir: Path) -> None:
    scorer = _scorer(lm_dir)
    prompt = "the teacher saw a dog . it"
    scorer.predict([MCExample(prompt, ("was big", "ate a cake", "is red", "made a hat")),
                    MCExample(prompt, ("was small", "ate a cake", "is blue", "took the ball"))])
    assert scorer.forward_calls_ == 1 + 4 + 3  # "ate a cake" is not recomputed either


def test_cached_and_uncached_predictions_are_identical(lm_dir: Path) -> None:
    cached, uncached = _scorer(lm_dir), _scorer(lm_dir, completion_cache_size=0)
    examples = _examples()
    first = cached.predict(examples)
    assert cached.predict(examples[::-1]) == first[::-1]
    assert uncached.predict(examples) == first


@pytest.mark.parametrize("normalization", ["sum", "per_token", "per_char", "per_byte"])
def test_probabilities_are_the_softmax_of_the_normalised_scores(lm_dir: Path, normalization: str) -> None:
    example = MCExample("the woman made a cake . it", ("was naïve", "a", "was very good and big", "déjà vu"))
    prediction = _scorer(lm_dir, normalization=normalization).predict([example])[0]
    lls, counts = _reference(lm_dir, example)
    divisors = {
        "sum": [1, 1, 1, 1],
        "per_token": counts,
        "per_char": [len(c) for c in example.choices],  # code points: "naïve" is 5 characters
        "per_byte": [len((" " + c).encode("utf-8")) for c in example.choices],  # " naïve" is 7 bytes
    }[normalization]
    scores = [ll / d for ll, d in zip(lls, divisors)]
    expected = [math.exp(s - max(scores)) for s in scores]
    assert prediction.probs == pytest.approx([e / sum(expected) for e in expected], abs=1e-5)
    assert prediction.predicted == max(range(4), key=scores.__getitem__)
    assert prediction.model_name == "tiny-lm" and len(prediction.model_revision) == 12


def test_per_char_and_per_byte_differ_only_for_non_ascii() -> None:
    lls, counts = [-4.0, -4.0, -4.0, -4.0], [2, 2, 2, 2]
    ascii_choices, persian = ("abcd", "abcd", "ab", "ab"), ("سلام", "abcd", "ab", "ab")
    per_char = normalized_scores(lls, counts, persian, normalization="per_char")
    per_byte = normalized_scores(lls, counts, persian, normalization="per_byte")
    assert per_char[0] == -1.0 and per_byte[0] == -4.0 / 9  # 4 letters; 1 + 8 bytes with the delimiter
    assert normalized_scores(lls, counts, ascii_choices, normalization="per_char")[:2] == per_char[1:2] * 2
    with pytest.raises(ValueError):
        normalized_scores(lls, counts, persian, normalization="mean")


def test_the_prompt_completion_boundary_follows_encode_pair(lm_dir: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(str(lm_dir), local_files_only=True)
    context, continuation = encode_pair(tokenizer, "it was ", " good")
    assert context == tokenizer("it was", add_special_tokens=False)["input_ids"]
    assert context + continuation == tokenizer("it was  good", add_special_tokens=False)["input_ids"]
    assert encode_pair(tokenizer, "", " the cat")[0] == []


def test_a_missing_checkpoint_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="does not exist"):
        _scorer(tmp_path / "nothing").warm_up()
    with pytest.raises(ValueError):
        CausalLMConfig(normalization="mean")
