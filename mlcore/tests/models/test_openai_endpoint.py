"""The OpenAI-compatible kind against a real HTTP server on 127.0.0.1 serving a tiny causal LM."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mlcore.configs import MCExample
from mlcore.models.live import LiveModel
from mlcore.models.loading import ModelLoadError
from mlcore.models.openai_endpoint import (
    DEFAULT_TEMPLATE,
    CallStatus,
    EndpointCallFailed,
    EndpointSpec,
    OpenAICompatibleModel,
    TokenUsage,
    parse_chat_completion,
    render_prompt,
)
from mlcore.testing_llm import TinyChatServer, build_tiny_causal_lm, chat_prompt_text

QUESTION = MCExample("The glass fell off the table. It", ("shattered.", "sang a song.", "flew away.", "was a cat."))


@pytest.fixture(scope="module")
def lm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_causal_lm(tmp_path_factory.mktemp("chat_lm"), arch="llama", seed=7)


@pytest.fixture(scope="module")
def server(lm_dir: Path) -> Iterator[TinyChatServer]:
    with TinyChatServer(lm_dir, slow_s=3.0) as running:
        yield running


def _model(server: TinyChatServer, **settings: Any) -> OpenAICompatibleModel:
    settings = {"timeout_s": 5.0, "backoff_s": 0.01, **settings}
    return OpenAICompatibleModel(EndpointSpec(server.base_url, "tiny-chat", "Tiny chat", **settings))


def _expected_probs(server: TinyChatServer, example: MCExample) -> list[float]:
    text = chat_prompt_text([{"role": "user", "content": render_prompt(DEFAULT_TEMPLATE, example)}])
    logprobs = server.letter_logprobs(text)
    weights = [math.exp(lp) for lp in logprobs]
    return [w / sum(weights) for w in weights]


def test_is_a_live_model(server: TinyChatServer) -> None:
    model = _model(server)
    assert isinstance(model, LiveModel)
    assert not model.ready()
    model.warm_up()
    assert model.ready()
    model.close()
    assert not model.ready()


def test_probabilities_come_from_the_answer_letters_top_logprobs(server: TinyChatServer) -> None:
    model = _model(server)
    second = MCExample("my friend found a book . it", ("was good", "ate a cake", "is blue", "went to bed"))
    calls = model.answer([QUESTION, second])
    for call, example in zip(calls, [QUESTION, second]):
        assert call.status is CallStatus.OK and call.attempts == 1
        assert call.prediction is not None and call.prediction.has_probabilities
        expected = _expected_probs(server, example)
        assert call.prediction.probs == pytest.approx(expected, abs=1e-9)
        assert call.prediction.predicted == max(range(4), key=expected.__getitem__)
        assert call.prediction.model_name == "Tiny chat" and call.prediction.model_revision == "tiny-chat"
        assert call.usage is not None and call.usage.completion_tokens == 1
        assert call.usage.total_tokens == call.usage.prompt_tokens + 1
    body = server.requests[-1]
    assert (body["max_tokens"], body["logprobs"], body["top_logprobs"], body["model"]) == (1, True, 20, "tiny-chat")
    sent = [request["messages"][0]["content"] for request in server.requests[-2:]]  # sent concurrently
    assert sorted(sent) == sorted(render_prompt(DEFAULT_TEMPLATE, example) for example in (QUESTION, second))
    assert "\nA. shattered.\nB. sang a song." in render_prompt(DEFAULT_TEMPLATE, QUESTION)
    assert model.predict([QUESTION]) == [calls[0].prediction]
    model.close()


def test_without_logprobs_only_the_letter_is_known(server: TinyChatServer) -> None:
    server.queue_faults("no_logprobs")
    call = _model(server).answer([QUESTION])[0]
    assert call.status is CallStatus.NO_PROBABILITIES and call.answered
    assert call.prediction is not None and not call.prediction.has_probabilities
    assert call.prediction.probs[call.prediction.predicted] == 1.0 and sum(call.prediction.probs) == 1.0


@pytest.mark.parametrize(("faults", "status", "attempts"), [
    (("malformed",), CallStatus.MALFORMED, 1),
    (("no_choices",), CallStatus.NO_CHOICES, 1),
    (("bad_letter",), CallStatus.BAD_LETTER, 1),
    (("rate_limit",) * 3, CallStatus.RATE_LIMITED, 3),
    (("server_error",) * 3, CallStatus.SERVER_ERROR, 3),
    (("slow",), CallStatus.TIMEOUT, 1),
    (("hung",), CallStatus.TIMEOUT, 1),
    (("drop",), CallStatus.CONNECTION_ERROR, 1),
])
def test_each_bad_answer_has_its_own_status(server: TinyChatServer, faults: tuple[str, ...], status: CallStatus,
                                            attempts: int) -> None:
    server.queue_faults(*faults)
    retries = attempts - 1
    call = _model(server, timeout_s=0.5, max_retries=retries).answer([QUESTION])[0]
    assert call.status is status, call.detail
    assert call.attempts == attempts and call.prediction is None and not call.answered
    assert call.detail
    if status is CallStatus.BAD_LETTER:
        assert call.usage is not None and "'E'" in call.detail  # the tokens were billed all the same


@pytest.mark.parametrize("fault", ["rate_limit", "server_error", "slow", "drop"])
def test_a_transient_failure_is_retried(server: TinyChatServer, fault: str) -> None:
    server.queue_faults(fault)
    call = _model(server, timeout_s=2.0, max_retries=2).answer([QUESTION])[0]  # a slow answer takes 3 s
    assert call.status is CallStatus.OK and call.attempts == 2
    assert call.prediction is not None and call.prediction.probs == pytest.approx(_expected_probs(server, QUESTION))


def test_predict_raises_with_the_statuses_when_a_call_fails(server: TinyChatServer) -> None:
    server.queue_faults("bad_letter")
    with pytest.raises(EndpointCallFailed, match="bad_letter") as failure:
        _model(server).predict([QUESTION])
    assert [c.status for c in failure.value.calls] == [CallStatus.BAD_LETTER]


def test_a_hung_endpoint_does_not_hold_up_another_model(server: TinyChatServer, lm_dir: Path) -> None:
    server.queue_faults("hung")
    hung, healthy = _model(server, timeout_s=2.0, max_retries=0), _model(server)
    results: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: results.update(hung=hung.answer([QUESTION])[0]))
    thread.start()
    time.sleep(0.2)  # the hung request is in
    started = time.monotonic()
    other = healthy.answer([QUESTION])[0]
    assert other.status is CallStatus.OK and thread.is_alive()  # answered while the other still waits
    thread.join(10)
    assert results["hung"].status is CallStatus.TIMEOUT and results["hung"].elapsed_s >= 2.0
    assert time.monotonic() - started < 10


def test_requests_per_base_url_are_limited(lm_dir: Path) -> None:
    with TinyChatServer(lm_dir, slow_s=0.3) as slow_server:
        slow_server.queue_faults(*["slow"] * 8)
        first, second = (OpenAICompatibleModel(EndpointSpec(slow_server.base_url, "tiny-chat", name, timeout_s=10,
                                                             max_concurrency=2)) for name in ("one", "two"))
        outcomes: list[Any] = []
        threads = [threading.Thread(target=lambda m=m: outcomes.extend(m.answer([QUESTION] * 4))) for m in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert len(outcomes) == 8 and all(call.status is CallStatus.OK for call in outcomes)
    assert slow_server.peak_in_flight == 2  # two models, one endpoint: one shared limit


def test_the_key_is_read_from_the_named_variable(server: TinyChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUMPER_TEST_ENDPOINT_KEY", raising=False)
    model = _model(server, api_key_env="STUMPER_TEST_ENDPOINT_KEY")
    assert model.answer([QUESTION])[0].status is CallStatus.NO_API_KEY
    with pytest.raises(ModelLoadError, match="STUMPER_TEST_ENDPOINT_KEY"):
        model.warm_up()
    monkeypatch.setenv("STUMPER_TEST_ENDPOINT_KEY", "sk-test-123")
    assert model.answer([QUESTION])[0].status is CallStatus.OK
    assert server.authorizations[-1] == "Bearer sk-test-123"
    assert "sk-test" not in repr(model.spec)


def test_the_template_needs_every_placeholder(server: TinyChatServer) -> None:
    with pytest.raises(ValueError, match="placeholders"):
        EndpointSpec(server.base_url, "m", "n", template="{prompt} {A} {B} {C}")
    text = render_prompt("Q: {prompt} | {A} | {B} | {C} | {D}", QUESTION)
    assert text == "Q: The glass fell off the table. It | shattered. | sang a song. | flew away. | was a cat."


def _body(content: str, tops: list[tuple[str, float]] | None) -> str:
    from openai.types.chat import ChatCompletion

    logprobs = None if tops is None else {"content": [{"token": content, "logprob": tops[0][1], "bytes": None,
                                                        "top_logprobs": [{"token": t, "logprob": lp, "bytes": None}
                                                                         for t, lp in tops]}]}
    return ChatCompletion.model_validate({
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "length", "logprobs": logprobs,
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10}}).model_dump_json()


def test_letter_variants_add_up_and_absent_letters_get_nothing() -> None:
    tops = [(" B", math.log(0.4)), ("B", math.log(0.2)), ("a", math.log(0.1)), ("The", math.log(0.2)), ("D.", math.log(0.1))]
    call = parse_chat_completion(_body(" B", tops), name="n", revision="r")
    assert call.status is CallStatus.OK and call.prediction is not None
    assert call.prediction.probs == pytest.approx([0.125, 0.75, 0.0, 0.125])
    assert call.prediction.predicted == 1 and call.usage == TokenUsage(9, 1, 10)
    assert parse_chat_completion(_body("(c)", None), name="n", revision="r").status is CallStatus.NO_PROBABILITIES
    assert parse_chat_completion(_body("Both", None), name="n", revision="r").status is CallStatus.BAD_LETTER
    assert parse_chat_completion('{"choices": 3}', name="n", revision="r").status is CallStatus.MALFORMED
