"""Local causal language models as multiple-choice targets, scored as lm-evaluation-harness does.

A question's four completions are ranked by their log-likelihood after the prompt, the
harness's ``output_type: multiple_choice`` (``ConfigurableTask.construct_requests`` sends one
``loglikelihood`` request ``(context, target_delimiter + choice)`` per choice, with
``target_delimiter`` ``" "`` by default). The probabilities shown to the author are the softmax
of the four (normalised) scores, as the harness's ``brier_score`` does with ``utils.softmax(lls)``.

Where the prompt ends and the completion begins (``HFLM._encode_pair`` in
``lm_eval/models/huggingface.py``): trailing whitespace of the context is moved to the front of
the continuation; the context is tokenised alone and ``context + continuation`` as a whole (no
special tokens for a causal model), and the continuation's tokens are the whole encoding past
the context's token count. The model reads ``context tokens + continuation tokens`` and the
score is the sum of the log-probabilities of the continuation tokens. An empty context is
replaced by one prefix token (BOS, else EOS), as in ``HFLM.loglikelihood``. Because the context
is tokenised alone, its key/value cache does not depend on the completion: it is computed once
per prompt and reused for the four completions and for every later edit of them.

Incremental and bit-identical
-----------------------------
Each completion is run alone (batch of one, unpadded) on a copy of its prompt's key/value
cache, so its log-likelihood is a function of (weights, prompt tokens, completion tokens)
only: editing one completion recomputes that completion and nothing else, and the result is
``torch.equal`` to a recomputation from nothing through the same path (a fresh scorer). It
agrees with one plain forward pass over prompt + completion to float rounding (about 1e-7),
not bit for bit: the kernels see other shapes.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from mlcore.configs import NUM_CHOICES, LiveKey, MCExample, MCPrediction
from mlcore.models.loading import ModelLoadError, load_pretrained, resolve_checkpoint, weights_revision

__all__ = [
    "CAUSAL_LM_KIND",
    "NORMALIZATIONS",
    "CausalLMConfig",
    "CausalLMScorer",
    "CausalLMSpec",
    "encode_pair",
    "normalized_scores",
]

#: The kind name of this model family in a round's panel.
CAUSAL_LM_KIND = "causal_lm"
#: How a completion's summed log-likelihood is turned into its score (see :func:`normalized_scores`).
NORMALIZATIONS: tuple[str, ...] = ("sum", "per_token", "per_char", "per_byte")


@dataclass(frozen=True)
class CausalLMConfig:
    """Settings of :class:`CausalLMScorer`.

    Parameters
    ----------
    normalization : {"sum", "per_token", "per_char", "per_byte"}
        See :func:`normalized_scores`. ``"sum"`` is the harness's ``acc``, ``"per_char"`` its ``acc_norm``.
    target_delimiter : str
        Put between the prompt and each choice (the harness's ``target_delimiter``, default ``" "``).
    max_length : int
        Most tokens the model reads; 0 means the model's own limit (``n_positions`` /
        ``max_position_embeddings``). Longer inputs are cut from the left as the harness does.
    device : str
        Where the model runs: ``cpu``, ``cuda`` (or ``cuda:N``), or ``auto`` (CUDA when present).
    prompt_cache_size : int
        Prompts whose key/value cache is kept (least recently used forgotten first). One entry is
        2 x layers x key/value width x prompt tokens numbers: about 26 MB for a 100-token prompt
        of Llama 3 8B in float32 (32 layers, key/value width 1024), a few KB for the test models.
    completion_cache_size : int
        Completions whose token log-probabilities are kept.
    """

    normalization: str = "sum"
    target_delimiter: str = " "
    max_length: int = 0
    device: str = "cpu"
    prompt_cache_size: int = 32
    completion_cache_size: int = 4096

    def __post_init__(self) -> None:
        if self.normalization not in NORMALIZATIONS:
            raise ValueError(f"normalization must be one of {NORMALIZATIONS}, got {self.normalization!r}")
        if self.device not in ("cpu", "auto") and not self.device.startswith("cuda"):
            raise ValueError(f"device must be cpu, cuda, cuda:N or auto, got {self.device!r}")
        if self.max_length < 0 or self.prompt_cache_size < 1 or self.completion_cache_size < 0:
            raise ValueError("max_length >= 0, prompt_cache_size >= 1 and completion_cache_size >= 0 needed")


@dataclass(frozen=True)
class CausalLMSpec:
    """A causal LM checkpoint (local directory or hub id in the local cache) and its settings; hashable."""

    path: str
    name: str
    revision: str = ""
    config: CausalLMConfig = field(default_factory=CausalLMConfig)


def encode_pair(tokenizer: Any, context: str, continuation: str) -> tuple[list[int], list[int]]:
    """Context and continuation token ids, split exactly as ``HFLM._encode_pair`` splits them.

    Trailing whitespace of ``context`` moves to the front of ``continuation``; the continuation's
    ids are ``encode(context + continuation)[len(encode(context)):]``, both encoded without
    special tokens. An empty context gives ``[]`` (the caller puts the prefix token there).
    """
    n_spaces = len(context) - len(context.rstrip())
    if n_spaces > 0:
        continuation = context[-n_spaces:] + continuation
        context = context[:-n_spaces]
    whole: list[int] = tokenizer(context + continuation, add_special_tokens=False)["input_ids"]
    context_ids: list[int] = tokenizer(context, add_special_tokens=False)["input_ids"] if context else []
    return context_ids, whole[len(context_ids):]


def normalized_scores(loglikelihoods: Sequence[float], token_counts: Sequence[int], choices: Sequence[str],
                      *, normalization: str, target_delimiter: str = " ") -> list[float]:
    """Scores of the choices from their summed log-likelihoods, under one normalisation.

    * ``sum`` - the summed log-likelihood itself: the harness's ``acc`` (``pred = np.argmax(lls)``
      in ``ConfigurableTask.process_results``); the EleutherAI blog post "Multiple Choice
      Normalization in LM Evaluation" calls it *unnormalized*.
    * ``per_token`` - divided by the number of continuation tokens, the blog's *token-length
      normalized* score (GPT-3's); the harness does not report it because it depends on the tokenizer.
    * ``per_char`` - divided by the choice's length in characters, what the harness's ``acc_norm``
      computes: ``completion_len = np.array([float(len(i)) for i in choices])`` then
      ``np.argmax(lls / completion_len)``, where ``choices`` are the ``doc_to_choice`` strings
      without the target delimiter, and ``len`` of a Python ``str`` counts code points. The blog
      post describes ``acc_norm`` as *byte-length normalized*; the code's count equals the byte
      count only for ASCII text.
    * ``per_byte`` - divided by the UTF-8 byte length of the continuation as scored
      (``target_delimiter + choice``): the blog's *byte-length normalized* definition (the sum of
      the bytes its tokens represent), which differs from ``per_char`` for non-ASCII text.

    A length of 0 counts as 1 (an empty choice keeps its plain log-likelihood).
    """
    if normalization not in NORMALIZATIONS:
        raise ValueError(f"normalization must be one of {NORMALIZATIONS}, got {normalization!r}")
    divisors: list[int]
    if normalization == "sum":
        divisors = [1] * len(choices)
    elif normalization == "per_token":
        divisors = list(token_counts)
    elif normalization == "per_char":
        divisors = [len(choice) for choice in choices]
    else:
        divisors = [len((target_delimiter + choice).encode("utf-8")) for choice in choices]
    return [ll / max(divisor, 1) for ll, divisor in zip(loglikelihoods, divisors)]


@dataclass
class _PromptState:
    context_ids: list[int]
    past: Any  # the model's key/value cache after the context; copied, never extended in place
    last_logprobs: torch.Tensor  # (vocab,): log-probabilities of the token after the context


class CausalLMScorer:
    """A causal LM as a live multiple-choice model (``ready``/``warm_up``/``predict``/``close``).

    Parameters
    ----------
    spec : CausalLMSpec
        The checkpoint, its name and revision (empty: the weights' hash), and the settings.

    Attributes
    ----------
    forward_calls_ : int
        Forward passes run so far (prompts and completions): what the cache saves, for tests and benchmarks.
    """

    def __init__(self, spec: CausalLMSpec) -> None:
        self.spec = spec
        self.config = spec.config
        self.lock = threading.Lock()
        self.forward_calls_ = 0
        self._tokenizer: Any = None
        self._model: Any = None
        self._revision = spec.revision
        self._device = "cpu"
        self._prompts: OrderedDict[tuple[int, ...], _PromptState] = OrderedDict()
        self._completions: OrderedDict[tuple[tuple[int, ...], tuple[int, ...]], torch.Tensor] = OrderedDict()

    @classmethod
    def from_live_key(cls, key: LiveKey) -> CausalLMScorer:
        """The live model of a key: its checkpoint on its device; the spec's ``normalization`` option, else ``sum``."""
        spec = key.spec
        config = CausalLMConfig(normalization=spec.option("normalization", "sum"), device=key.device)
        return cls(CausalLMSpec(spec.path, spec.name, spec.revision, config))

    # --- LiveModel -----------------------------------------------------------------------------

    def ready(self) -> bool:
        """True once the weights are loaded."""
        return self._model is not None

    def warm_up(self) -> None:
        """Load tokenizer and weights (local files only unless ``MLCORE_ALLOW_DOWNLOAD=1``).

        Raises
        ------
        ModelLoadError
            If the checkpoint cannot be loaded or is not a causal LM.
        """
        with self.lock:
            if self._model is not None:
                return
            from transformers import AutoModelForCausalLM

            path = resolve_checkpoint(self.spec.path)
            tokenizer, model = load_pretrained(AutoModelForCausalLM, path, self.spec.name)
            if tokenizer.bos_token_id is None and tokenizer.eos_token_id is None:
                raise ModelLoadError(f"Could not load model {self.spec.name!r}: its tokenizer has no BOS or EOS token")
            self._device = resolve_device(self.config.device)
            self._model = model.to(self._device)
            self._tokenizer = tokenizer
            self._revision = self.spec.revision or weights_revision(path)

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """One prediction per example: softmax over the four normalised scores."""
        rows = []
        for example in examples:
            lls, counts = self.loglikelihoods(example)
            scores = normalized_scores(lls, counts, example.choices, normalization=self.config.normalization,
                                       target_delimiter=self.config.target_delimiter)
            probs = torch.softmax(torch.tensor(scores, dtype=torch.float64), dim=-1).tolist()
            rows.append(MCPrediction(probs=tuple(probs), predicted=int(max(range(NUM_CHOICES), key=probs.__getitem__)),
                                     model_name=self.spec.name, model_revision=self._revision))
        return rows

    def close(self) -> None:
        """Drop the weights and both caches."""
        with self.lock:
            self._model = self._tokenizer = None
            self._prompts.clear()
            self._completions.clear()

    # --- scoring -------------------------------------------------------------------------------

    @property
    def revision_(self) -> str:
        """The weights' revision (known after :meth:`warm_up`)."""
        return self._revision

    def loglikelihoods(self, example: MCExample) -> tuple[list[float], list[int]]:
        """Each choice's summed log-likelihood after the prompt, and its number of tokens."""
        logprobs = self.token_logprobs(example)
        return [float(row.sum()) for row in logprobs], [int(row.numel()) for row in logprobs]

    def token_logprobs(self, example: MCExample) -> list[torch.Tensor]:
        """Log-probability of every continuation token, one float32 ``(n_tokens,)`` tensor per choice."""
        self.warm_up()
        with self.lock, torch.inference_mode():
            return [self._choice_logprobs(example.prompt, choice) for choice in example.choices]

    def _max_length(self) -> int:
        if self.config.max_length:
            return self.config.max_length
        model_config = self._model.config
        limit = getattr(model_config, "n_positions", None) or getattr(model_config, "max_position_embeddings", None)
        return int(limit) if limit else 2048

    def _choice_logprobs(self, prompt: str, choice: str) -> torch.Tensor:
        context_ids, continuation_ids = encode_pair(self._tokenizer, prompt, self.config.target_delimiter + choice)
        if not context_ids:  # HFLM.loglikelihood: an empty context becomes the prefix token
            bos = self._tokenizer.bos_token_id
            context_ids = [bos if bos is not None else self._tokenizer.eos_token_id]
        if not continuation_ids:
            return torch.zeros(0)
        key = (tuple(context_ids), tuple(continuation_ids))
        found = self._completions.get(key)
        if found is not None:
            self._completions.move_to_end(key)
            return found
        if len(context_ids) + len(continuation_ids) - 1 > self._max_length():
            value = self._truncated_logprobs(context_ids, continuation_ids)
        else:
            value = self._cached_logprobs(self._prompt_state(context_ids), continuation_ids)
        if self.config.completion_cache_size:
            self._completions[key] = value
            while len(self._completions) > self.config.completion_cache_size:
                self._completions.popitem(last=False)
        return value

    def _forward(self, ids: list[int], past: Any = None) -> Any:
        self.forward_calls_ += 1
        input_ids = torch.tensor([ids], dtype=torch.long, device=self._device)  # (1, seq)
        return self._model(input_ids=input_ids, past_key_values=past, use_cache=True)

    def _prompt_state(self, context_ids: list[int]) -> _PromptState:
        key = tuple(context_ids)
        state = self._prompts.get(key)
        if state is not None:
            self._prompts.move_to_end(key)
            return state
        out = self._forward(context_ids)
        last = torch.log_softmax(out.logits[0, -1].float(), dim=-1)  # (vocab,)
        state = _PromptState(context_ids, out.past_key_values, last)
        self._prompts[key] = state
        while len(self._prompts) > self.config.prompt_cache_size:
            self._prompts.popitem(last=False)
        return state

    def _cached_logprobs(self, state: _PromptState, continuation_ids: list[int]) -> torch.Tensor:
        first = state.last_logprobs[continuation_ids[0]].reshape(1)  # (1,)
        if len(continuation_ids) == 1:
            return first.cpu().clone()
        # The forward appends to the cache it is given: hand it a copy so the prompt's stays clean.
        out = self._forward(continuation_ids[:-1], past=copy.deepcopy(state.past))
        logprobs = torch.log_softmax(out.logits[0].float(), dim=-1)  # (n - 1, vocab)
        targets = torch.tensor(continuation_ids[1:], device=logprobs.device)  # (n - 1,)
        rest = logprobs.gather(1, targets.unsqueeze(1)).squeeze(1)  # (n - 1,)
        return torch.cat([first, rest]).cpu()

    def _truncated_logprobs(self, context_ids: list[int], continuation_ids: list[int]) -> torch.Tensor:
        # lm_eval's window: (context_enc + continuation_enc)[-(max_length + 1):][:-1], one plain pass.
        window = (context_ids + continuation_ids)[-(self._max_length() + 1):][:-1]
        out = self._forward(window)
        logprobs = torch.log_softmax(out.logits[0, -len(continuation_ids):].float(), dim=-1)  # (n, vocab)
        targets = torch.tensor(continuation_ids, device=logprobs.device)  # (n,)
        return logprobs.gather(1, targets.unsqueeze(1)).squeeze(1).cpu()


def resolve_device(device: str) -> str:
    """``auto`` -> ``cuda`` when torch sees a GPU, else ``cpu``; ``cuda`` without a GPU is an error."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelLoadError("device 'cuda' was asked for but torch sees no GPU")
    return device
