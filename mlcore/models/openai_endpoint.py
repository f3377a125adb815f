"""OpenAI-compatible chat endpoints (vLLM, llama.cpp's server, Ollama, SGLang, hosted APIs) as targets.

The question goes out as a lettered multiple-choice prompt (:data:`DEFAULT_TEMPLATE`, or a
round's own) with ``max_tokens=1``, ``temperature=0``, ``logprobs=true`` and ``top_logprobs``.
The answer letter is the reply's content; the probabilities are those of ``A``-``D`` among the
first token's ``top_logprobs`` (``exp``, variants such as ``" B"`` or ``"b"`` added to their
letter, then renormalised over the four; a letter absent from the list gets 0). A server that
returns no logprobs gives only the letter (``has_probabilities=False``: the page says "no
probabilities from this model").

Every call ends in an :class:`EndpointCall` with a :class:`CallStatus`, never an exception:
malformed JSON, no choices, a letter that is not A-D, 429, 5xx, a timeout or a hung or dropped
connection each have their own status, so one misbehaving model never blocks the others.
429, 5xx, timeouts and connection errors are retried with exponential backoff (the client's own
retries are off, so the number of attempts and the waits are this module's settings); at most
``max_concurrency`` requests per base URL are in flight in this process (one semaphore per URL).
The API key is read from the environment variable *named* in the spec; the key itself is never
stored or shown.
"""

from __future__ import annotations

import enum
import json
import math
import os
import string
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from mlcore.configs import NUM_CHOICES, LiveKey, MCExample, MCPrediction
from mlcore.models.loading import ModelLoadError

__all__ = [
    "DEFAULT_TEMPLATE",
    "LETTERS",
    "OPENAI_COMPATIBLE_KIND",
    "CallStatus",
    "EndpointCall",
    "EndpointCallFailed",
    "EndpointLiveModel",
    "EndpointPrediction",
    "EndpointSpec",
    "OpenAICompatibleModel",
    "TokenUsage",
    "parse_chat_completion",
    "render_prompt",
]

OPENAI_COMPATIBLE_KIND = "openai_compatible"
LETTERS: tuple[str, ...] = ("A", "B", "C", "D")
#: Placeholders: ``{prompt}`` and ``{A}``..``{D}`` (the four completions).
DEFAULT_TEMPLATE = (
    "Which ending completes the text best? Answer with one letter: A, B, C or D.\n\n"
    "{prompt}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:"
)
_PLACEHOLDERS = frozenset({"prompt", *LETTERS})


class CallStatus(enum.StrEnum):
    """How one call to an endpoint ended."""

    OK = "ok"
    NO_PROBABILITIES = "no_probabilities"  # a valid letter, but no logprobs for A-D
    MALFORMED = "malformed"  # not JSON, or not a chat completion
    NO_CHOICES = "no_choices"
    BAD_LETTER = "bad_letter"  # the reply is not one of A-D
    RATE_LIMITED = "rate_limited"  # 429 on every attempt
    SERVER_ERROR = "server_error"  # 5xx on every attempt
    TIMEOUT = "timeout"  # no complete answer in time (a slow server or a hung connection)
    CONNECTION_ERROR = "connection_error"  # refused, reset or closed without an answer
    HTTP_ERROR = "http_error"  # another 4xx (a wrong model name, a bad key): not retried
    NO_API_KEY = "no_api_key"  # the named environment variable is not set


_ANSWERED = frozenset({CallStatus.OK, CallStatus.NO_PROBABILITIES})


@dataclass(frozen=True)
class TokenUsage:
    """The ``usage`` object of one response."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


@dataclass(frozen=True)
class EndpointPrediction(MCPrediction):
    """An :class:`MCPrediction` from an endpoint; without probabilities (``has_probabilities``
    false) ``probs`` is one-hot on the letter. Its fields are :class:`MCPrediction`'s, so it
    travels to and from an inference worker as one."""


@dataclass(frozen=True)
class EndpointCall:
    """The outcome of one question sent to an endpoint (with its retries).

    ``prediction`` is set when ``status`` is ``ok`` or ``no_probabilities``; ``usage`` is the
    last response's token usage (also for a bad letter: the tokens were billed); ``detail`` is a
    short reason for the author's status line and the log.
    """

    status: CallStatus
    prediction: EndpointPrediction | None = None
    usage: TokenUsage | None = None
    attempts: int = 1
    elapsed_s: float = 0.0
    detail: str = ""

    @property
    def answered(self) -> bool:
        """True when the model gave a letter (with or without probabilities)."""
        return self.status in _ANSWERED


class EndpointCallFailed(Exception):
    """:meth:`OpenAICompatibleModel.predict` could not answer every example; ``calls`` says why."""

    def __init__(self, calls: list[EndpointCall]) -> None:
        failed = [c for c in calls if not c.answered]
        super().__init__(f"{len(failed)} of {len(calls)} calls failed: {failed[0].status}: {failed[0].detail}")
        self.calls = calls


@dataclass(frozen=True)
class EndpointSpec:
    """An endpoint, the model it serves and how to call it; hashable, holds no secret.

    Parameters
    ----------
    base_url : str
        Up to and including ``/v1``, e.g. ``http://127.0.0.1:8000/v1`` (vLLM) or ``http://127.0.0.1:11434/v1`` (Ollama).
    model : str
        The ``model`` field of the request.
    name : str
        Shown to people and stored with each prediction.
    api_key_env : str
        Name of the environment variable holding the key; empty for servers that take none.
    template : str
        The user message; ``{prompt}`` and ``{A}``..``{D}`` are filled in (see :func:`render_prompt`).
    timeout_s, max_retries, backoff_s, backoff_max_s
        Per-attempt timeout; retries after 429, 5xx, timeouts and connection errors, waiting
        ``min(backoff_max_s, backoff_s * 2**attempt)`` (or a shorter ``Retry-After``).
    max_concurrency : int
        Requests in flight per base URL in this process (the first spec seen for a URL sets it).
    top_logprobs : int
        Alternatives asked for with the answer token (OpenAI allows 0-20).
    """

    base_url: str
    model: str
    name: str
    api_key_env: str = ""
    template: str = DEFAULT_TEMPLATE
    timeout_s: float = 20.0
    max_retries: int = 2
    backoff_s: float = 0.5
    backoff_max_s: float = 8.0
    max_concurrency: int = 4
    top_logprobs: int = 20

    def __post_init__(self) -> None:
        fields = {name for _, name, _, _ in string.Formatter().parse(self.template) if name is not None}
        if not fields <= _PLACEHOLDERS or not {"prompt", *LETTERS} <= fields:
            raise ValueError(f"template must use exactly the placeholders {{prompt}} and {{A}}..{{D}}, got {fields}")
        if self.timeout_s <= 0 or self.max_retries < 0 or self.backoff_s < 0 or self.max_concurrency < 1:
            raise ValueError("timeout_s > 0, max_retries >= 0, backoff_s >= 0 and max_concurrency >= 1 needed")
        if not 0 <= self.top_logprobs <= 20:
            raise ValueError(f"top_logprobs must be in 0..20, got {self.top_logprobs}")


def render_prompt(template: str, example: MCExample) -> str:
    """The user message for ``example``: ``template`` with its prompt and lettered completions."""
    return template.format(prompt=example.prompt.strip(), **{letter: choice.strip()
                                                              for letter, choice in zip(LETTERS, example.choices)})


def _letter_of(text: str) -> str | None:
    # " B", "B.", "(b)" and "B)" all mean B; anything longer or else is not a letter answer.
    core = text.strip().strip("().:[]*").strip().upper()
    return core if core in LETTERS else None


def _letter_probs(logprobs: Any) -> tuple[float, ...] | None:
    """A-D renormalised from the first token's ``top_logprobs``; ``None`` when none of them is listed."""
    content = getattr(logprobs, "content", None) if logprobs is not None else None
    if not content:
        return None
    mass = dict.fromkeys(LETTERS, 0.0)
    for top in content[0].top_logprobs or []:
        letter = _letter_of(top.token)
        if letter is not None and math.isfinite(top.logprob):
            mass[letter] += math.exp(top.logprob)
    total = sum(mass.values())
    return tuple(mass[letter] / total for letter in LETTERS) if total > 0 else None


def parse_chat_completion(body: str, *, name: str, revision: str) -> EndpointCall:
    """Turn a 200 response's body into an :class:`EndpointCall` (validated with ``openai``'s types)."""
    import pydantic
    from openai.types.chat import ChatCompletion

    try:
        completion = ChatCompletion.model_validate(json.loads(body))
    except (ValueError, pydantic.ValidationError) as error:  # JSONDecodeError is a ValueError
        return EndpointCall(CallStatus.MALFORMED, detail=f"not a chat completion: {type(error).__name__}")
    raw = completion.usage
    usage = TokenUsage(raw.prompt_tokens, raw.completion_tokens, raw.total_tokens) if raw is not None else None
    if not completion.choices:
        return EndpointCall(CallStatus.NO_CHOICES, usage=usage, detail="the response has no choices")
    choice = completion.choices[0]
    content = choice.message.content or ""
    letter = _letter_of(content)
    if letter is None:
        return EndpointCall(CallStatus.BAD_LETTER, usage=usage, detail=f"answered {content[:20]!r}, not A-D")
    predicted = LETTERS.index(letter)
    probs = _letter_probs(choice.logprobs)
    has_probs = probs is not None
    if probs is None:
        probs = tuple(1.0 if i == predicted else 0.0 for i in range(NUM_CHOICES))
    prediction = EndpointPrediction(probs=probs, predicted=predicted, model_name=name, model_revision=revision,
                                    has_probabilities=has_probs)
    status = CallStatus.OK if has_probs else CallStatus.NO_PROBABILITIES
    return EndpointCall(status, prediction=prediction, usage=usage)


_semaphores: dict[str, threading.BoundedSemaphore] = {}
_semaphores_lock = threading.Lock()


def endpoint_semaphore(base_url: str, limit: int) -> threading.BoundedSemaphore:
    """The process-wide semaphore of one base URL (created with ``limit`` on first use)."""
    key = base_url.rstrip("/")
    with _semaphores_lock:
        if key not in _semaphores:
            _semaphores[key] = threading.BoundedSemaphore(limit)
        return _semaphores[key]


class OpenAICompatibleModel:
    """A chat-completions endpoint as a live multiple-choice model.

    ``answer`` is the call to use: one :class:`EndpointCall` per example, never raising.
    ``predict`` (the live-model interface) returns the predictions when every call answered
    and raises :class:`EndpointCallFailed` (carrying the calls) otherwise. The examples of one
    batch are sent concurrently, within the base URL's limit. ``model_revision`` of a
    prediction is the served model's name.
    """

    def __init__(self, spec: EndpointSpec) -> None:
        self.spec = spec
        self._client: Any = None
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._semaphore = endpoint_semaphore(spec.base_url, spec.max_concurrency)

    def ready(self) -> bool:
        """True once the client is built (no request is made)."""
        return self._client is not None

    def warm_up(self) -> None:
        """Build the HTTP client; raises ``ModelLoadError`` when the named key variable is not set."""
        with self._lock:
            if self._client is not None:
                return
            from openai import OpenAI

            key = self._api_key()
            if key is None:
                raise ModelLoadError(f"Could not use model {self.spec.name!r}: "
                                     f"environment variable {self.spec.api_key_env!r} is not set")
            self._client = OpenAI(base_url=self.spec.base_url, api_key=key or "not-needed",
                                  timeout=self.spec.timeout_s, max_retries=0)
            self._executor = ThreadPoolExecutor(self.spec.max_concurrency, thread_name_prefix=f"endpoint-{self.spec.name}")

    def close(self) -> None:
        """Close the connections; calls still running end with a connection error or timeout."""
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            if self._client is not None:
                self._client.close()
            self._client = self._executor = None

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """Predictions in order; raises :class:`EndpointCallFailed` if any call did not answer."""
        calls = self.answer(examples)
        if not all(call.answered for call in calls):
            raise EndpointCallFailed(calls)
        return [call.prediction for call in calls if call.prediction is not None]

    def answer(self, examples: Sequence[MCExample]) -> list[EndpointCall]:
        """One :class:`EndpointCall` per example, in order; never raises for the server's sake."""
        if self._api_key() is None:
            detail = f"environment variable {self.spec.api_key_env!r} is not set"
            return [EndpointCall(CallStatus.NO_API_KEY, attempts=0, detail=detail) for _ in examples]
        self.warm_up()
        executor = self._executor
        assert executor is not None
        return list(executor.map(self.call, examples))

    def call(self, example: MCExample) -> EndpointCall:
        """Send one question, retrying transient failures; see :class:`CallStatus`."""
        start = time.monotonic()
        outcome = EndpointCall(CallStatus.CONNECTION_ERROR, detail="not sent")
        for attempt in range(self.spec.max_retries + 1):
            outcome, retry_after = self._attempt(example)
            if outcome.status not in _RETRIED or attempt == self.spec.max_retries:
                return _with(outcome, attempts=attempt + 1, elapsed_s=time.monotonic() - start)
            time.sleep(min(self.spec.backoff_max_s, self.spec.backoff_s * 2**attempt,
                           retry_after if retry_after is not None else math.inf))
        return _with(outcome, attempts=self.spec.max_retries + 1, elapsed_s=time.monotonic() - start)

    def _api_key(self) -> str | None:
        # "" means the server takes no key; None means a key is needed and missing.
        return os.environ.get(self.spec.api_key_env) if self.spec.api_key_env else ""

    def _attempt(self, example: MCExample) -> tuple[EndpointCall, float | None]:
        import openai

        try:
            with self._semaphore:
                raw = self._client.chat.completions.with_raw_response.create(
                    model=self.spec.model, messages=[{"role": "user", "content": render_prompt(self.spec.template, example)}],
                    max_tokens=1, temperature=0, logprobs=True, top_logprobs=self.spec.top_logprobs)
                body = raw.http_response.text
        except openai.APITimeoutError:
            return EndpointCall(CallStatus.TIMEOUT, detail=f"no answer within {self.spec.timeout_s:g} s"), None
        except openai.APIConnectionError as error:
            return EndpointCall(CallStatus.CONNECTION_ERROR, detail=_first_line(error)), None
        except openai.APIStatusError as error:
            code = error.status_code
            status = (CallStatus.RATE_LIMITED if code == 429 else
                      CallStatus.SERVER_ERROR if code >= 500 else CallStatus.HTTP_ERROR)
            return EndpointCall(status, detail=f"HTTP {code}: {_first_line(error)}"), _retry_after(error.response.headers)
        except Exception as error:  # the client's own surprises (e.g. a body it cannot read) end this call only
            return EndpointCall(CallStatus.MALFORMED, detail=f"{type(error).__name__}: {_first_line(error)}"), None
        return parse_chat_completion(body, name=self.spec.name, revision=self.spec.model), None


class EndpointLiveModel(OpenAICompatibleModel):
    """The endpoint as the product's live model: ``predict`` never raises for the server's sake.

    An example the server did not answer gets :meth:`MCPrediction.failure` with the call's
    status (``timeout``, ``rate_limited``...) and detail, so a panel shows that model's status and
    the other models' answers. A missing API key variable still fails :meth:`warm_up` (a
    setting to fix, refused when the model is added to a panel).
    """

    @classmethod
    def from_live_key(cls, key: LiveKey) -> EndpointLiveModel:
        """The spec's ``path`` is the base URL; options ``model`` (default: the name) and ``api_key_env``."""
        spec = key.spec
        return cls(EndpointSpec(base_url=spec.path, model=spec.option("model", spec.name), name=spec.name,
                                api_key_env=spec.option("api_key_env")))

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """One record per example: the answer, or a failure naming the call's status."""
        return [call.prediction if call.answered and call.prediction is not None else
                MCPrediction.failure(model_name=self.spec.name, model_revision=self.spec.model,
                                     status=call.status.value, detail=call.detail)
                for call in self.answer(examples)]


_RETRIED = frozenset({CallStatus.RATE_LIMITED, CallStatus.SERVER_ERROR, CallStatus.TIMEOUT, CallStatus.CONNECTION_ERROR})


def _with(call: EndpointCall, *, attempts: int, elapsed_s: float) -> EndpointCall:
    return EndpointCall(call.status, call.prediction, call.usage, attempts, elapsed_s, call.detail)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


def _retry_after(headers: Any) -> float | None:
    """Seconds from a ``Retry-After`` header given in seconds (dates are ignored: the backoff applies)."""
    try:
        return max(0.0, float(headers.get("retry-after")))
    except (TypeError, ValueError):
        return None
