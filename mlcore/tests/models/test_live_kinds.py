"""The two language-model kinds behind the live-model façade (mlcore.models.live).

A causal LM and an OpenAI-compatible endpoint are built from a ``ScorerSpec`` through the same
cache as the encoder kinds; the endpoint's ``predict`` never raises for the server's sake: a call
that failed is a failed ``MCPrediction`` naming its status, next to the answered ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mlcore.configs import PREDICTION_OK, MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.models.causal_lm import CausalLMScorer
from mlcore.models.live import LiveKey, LiveModel, clear_live_models, live_model, live_model_ready, open_live_model
from mlcore.models.loading import ModelLoadError
from mlcore.models.openai_endpoint import EndpointLiveModel, EndpointSpec
from mlcore.testing_llm import TinyChatServer, build_tiny_causal_lm

QUESTION = MCExample("The glass fell off the table. It", ("shattered.", "sang a song.", "flew away.", "was a cat."))
OTHER = MCExample("my friend found a book . it", ("was good", "ate a cake", "is blue", "went to bed"))


@pytest.fixture(scope="module")
def lm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_causal_lm(tmp_path_factory.mktemp("live_lm"), arch="llama", seed=7)  # rope: long chat prompts fit


@pytest.fixture(scope="module")
def server(lm_dir: Path) -> Iterator[TinyChatServer]:
    with TinyChatServer(lm_dir, slow_s=3.0) as running:
        yield running


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear_live_models()
    yield
    clear_live_models()


def endpoint_spec(server: TinyChatServer, **options: str) -> ScorerSpec:
    return ScorerSpec(ScorerKind.OPENAI_COMPATIBLE, server.base_url, "Tiny chat",
                      options=tuple({"model": "tiny-chat", **options}.items()))


def test_the_kinds_are_named_as_the_model_families_name_themselves() -> None:
    from mlcore.models.causal_lm import CAUSAL_LM_KIND
    from mlcore.models.openai_endpoint import OPENAI_COMPATIBLE_KIND

    assert (ScorerKind.CAUSAL_LM.value, ScorerKind.OPENAI_COMPATIBLE.value) == (CAUSAL_LM_KIND, OPENAI_COMPATIBLE_KIND)


def test_options_are_sorted_string_pairs_so_equal_settings_make_one_key() -> None:
    a = ScorerSpec(ScorerKind.CAUSAL_LM, "p", "n", options=(("b", "2"), ("a", "1")))
    b = ScorerSpec(ScorerKind.CAUSAL_LM, "p", "n", options=[["a", "1"], ["b", "2"]])  # type: ignore[arg-type]
    assert a == b and hash(a) == hash(b) and a.options == (("a", "1"), ("b", "2"))
    assert a.option("a") == "1" and a.option("missing") == "" and a.option("missing", "x") == "x"


def test_a_failed_prediction_has_no_answer_and_a_real_one_stays_strict() -> None:
    failed = MCPrediction.failure(model_name="m", model_revision="r", status="timeout", detail="no answer in 2 s")
    assert not failed.answered and failed.probs == () and failed.predicted == -1 and failed.detail == "no answer in 2 s"
    assert not failed.has_probabilities and MCPrediction((0.25,) * 4, 1, "m", "r").has_probabilities
    assert MCPrediction((0.25,) * 4, 1, "m", "r").answered and MCPrediction((0.25,) * 4, 1, "m", "r").status == PREDICTION_OK
    with pytest.raises(ValueError):
        MCPrediction((0.25,) * 4, 1, "m", "r", status="timeout")  # a failure carries no answer
    with pytest.raises(ValueError):
        MCPrediction((), -1, "m", "r")  # an answer needs its four probabilities
    with pytest.raises(ValueError):
        MCPrediction((), -1, "m", "r", status="")


def test_a_causal_lm_is_built_warmed_and_cached_by_the_facade(lm_dir: Path) -> None:
    spec = ScorerSpec(ScorerKind.CAUSAL_LM, str(lm_dir), "tiny-lm", "v1", options=(("normalization", "per_char"),))
    assert not live_model_ready(spec)
    model = live_model(spec)
    assert isinstance(model, CausalLMScorer) and isinstance(model, LiveModel)
    assert live_model_ready(spec) and live_model(spec) is model and model.config.normalization == "per_char"
    direct = CausalLMScorer.from_live_key(LiveKey(spec))
    [got] = model.predict([QUESTION])
    assert got.answered and got.model_name == "tiny-lm" and got.model_revision == "v1"
    assert got == direct.predict([QUESTION])[0]  # the façade adds nothing to the kind's own answer
    assert sum(got.probs) == pytest.approx(1.0)


def test_a_causal_lm_that_cannot_load_raises_model_load_error(tmp_path: Path) -> None:
    spec = ScorerSpec(ScorerKind.CAUSAL_LM, str(tmp_path / "missing"), "gone")
    with pytest.raises(ModelLoadError):
        live_model(spec)
    assert not live_model_ready(spec)


def test_an_endpoint_answers_through_the_facade(server: TinyChatServer) -> None:
    model = live_model(endpoint_spec(server))
    assert isinstance(model, EndpointLiveModel) and isinstance(model, LiveModel) and model.ready()
    predictions = model.predict([QUESTION, OTHER])
    assert [p.answered for p in predictions] == [True, True]
    assert all(p.model_name == "Tiny chat" and p.model_revision == "tiny-chat" for p in predictions)
    assert server.requests[-1]["model"] == "tiny-chat"


@pytest.mark.parametrize(("fault", "status"), [("bad_letter", "bad_letter"), ("no_choices", "no_choices"),
                                               ("malformed", "malformed"), ("server_error", "server_error")])
def test_a_bad_answer_is_a_per_example_status_not_an_exception(server: TinyChatServer, fault: str, status: str) -> None:
    model = EndpointLiveModel(EndpointSpec(server.base_url, "tiny-chat", "Tiny chat", max_retries=0, timeout_s=5.0))
    model.warm_up()
    server.queue_faults(fault)
    first, second = model.predict([QUESTION]), model.predict([OTHER])
    assert not first[0].answered and first[0].status == status and first[0].detail
    assert first[0].model_name == "Tiny chat" and first[0].probs == ()
    assert second[0].answered  # the next call is answered again


def test_a_hung_endpoint_times_out_alone(server: TinyChatServer, lm_dir: Path) -> None:
    model = EndpointLiveModel(EndpointSpec(server.base_url, "tiny-chat", "Tiny chat", max_retries=0, timeout_s=1.0))
    local = live_model(ScorerSpec(ScorerKind.CAUSAL_LM, str(lm_dir), "tiny-lm"))
    server.queue_faults("hung")
    started = time.monotonic()
    [failed] = model.predict([QUESTION])
    assert failed.status == "timeout" and time.monotonic() - started < 5.0
    assert local.predict([QUESTION])[0].answered


def test_a_missing_key_variable_refuses_the_model_and_names_the_variable(
        server: TinyChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUMPER_TEST_NO_SUCH_KEY", raising=False)
    spec = endpoint_spec(server, api_key_env="STUMPER_TEST_NO_SUCH_KEY")
    with pytest.raises(ModelLoadError, match="STUMPER_TEST_NO_SUCH_KEY"):
        live_model(spec)
    monkeypatch.setenv("STUMPER_TEST_NO_SUCH_KEY", "sk-test-secret")
    model = open_live_model(LiveKey(spec))
    assert model.predict([QUESTION])[0].answered
    assert server.authorizations[-1] == "Bearer sk-test-secret"  # read from the variable when called
    assert "sk-test-secret" not in repr(spec)  # the spec names the variable, never holds the key
    model.close()
