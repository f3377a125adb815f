"""Incremental live scoring: per-pair logits and per-text embeddings, each computed alone and cached.

A multiple-choice cross-encoder scores each (prompt, choice) pair independently before the
softmax over the four, and the zero-shot scorer embeds each of a question's 9 texts
independently. :class:`IncrementalScorer` wraps a loaded scorer of :mod:`mlcore.models.inference` and
computes those parts one at a time, keeping them in an :class:`~mlcore.models.inference_cache.InferenceCache`
shared by everything that scores with the same model: a keystroke in choice C of a draft then
costs one sequence (two texts for the zero-shot scorer), a new prompt four (five), and
submitting a question the author has just seen scored costs none.

What "bit-identical" means here
-------------------------------
Batched inference is not row-independent on CPU: the same pair gives logits differing in the
last bits depending on how many other sequences share its forward pass and how long they are
(measured on this project's CPUs; matrix kernels pick their blocking by shape, and int8 engines
quantize activations per call). So every pair (every text) is run **alone, unpadded**, as a
batch of one sequence, and each question's softmax is taken alone. A value is then a function
of the text(s), the weights, the engine and the process's thread count only, which gives:

* results with the cache equal results without it (``torch.equal``), whatever mix of cached
  and new pairs a batch holds, in whatever order;
* a question's probabilities do not depend on the other drafts in its batch.

They are *not* bit-identical to the batched :meth:`MultipleChoiceModelScorer.predict
<mlcore.models.inference.MultipleChoiceModelScorer.predict>` used for bulk evaluation (dynamic padding
over many pairs); the two agree to float rounding (about 1e-7 on the probabilities).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Hashable, Sequence

import torch

from mlcore.configs import NUM_CHOICES, MCExample, MCPrediction, ScorerSpec
from mlcore.models.engines import EngineUnavailable, Output, build_runner, resolve_engine
from mlcore.models.inference import (
    MultipleChoiceModelScorer,
    ZeroShotEmbeddingScorer,
    build_scorer,
    mean_pool_normalize,
    to_predictions,
    zero_shot_scores,
    zero_shot_texts,
)
from mlcore.models.inference_cache import InferenceCache, ModelKey, shared_cache
from mlcore.models.loading import ModelLoadError

__all__ = ["EncoderLiveModel", "IncrementalScorer"]

logger = logging.getLogger(__name__)


class IncrementalScorer:
    """Live scoring of a loaded scorer, part by part, through a shared cache.

    Parameters
    ----------
    scorer : MultipleChoiceModelScorer or ZeroShotEmbeddingScorer
        The loaded model (its tokenizer, weights and settings are used, not copied).
    engine : str
        ``"auto"`` or one of :data:`mlcore.models.engines.ENGINES`. If ``auto``'s engine cannot be
        built for this model the scorer falls back to ``torch`` (logged).
    cache : InferenceCache or None
        Where parts are kept; ``None`` means a private cache that stores nothing (every part is
        computed, the same way).

    Attributes
    ----------
    engine_ : str
        The engine actually used.
    model_key_ : ModelKey
        Model, revision, engine and output-changing settings: the first element of every cache key.

    Examples
    --------
    >>> from mlcore.configs import PACKAGED_MINILM, ScorerKind, ScorerSpec
    >>> from mlcore.models.inference import build_scorer
    >>> spec = ScorerSpec(ScorerKind.ZERO_SHOT, PACKAGED_MINILM, "minilm")
    >>> live = IncrementalScorer(build_scorer(spec), engine="torch", cache=InferenceCache(4096))
    >>> draft = MCExample("The glass fell off the table. It",
    ...                   ("shattered on the floor.", "sang a song.", "flew to the moon.", "became a cat."))
    >>> [round(p, 2) for p in live.predict([draft])[0].probs]
    [0.54, 0.15, 0.17, 0.14]
    """

    def __init__(self, scorer: MultipleChoiceModelScorer | ZeroShotEmbeddingScorer, *, engine: str = "torch",
                 cache: InferenceCache | None = None) -> None:
        self.scorer = scorer
        self.engine = engine
        self.cache = cache if cache is not None else InferenceCache(max_entries=0)
        self.spec: ScorerSpec = scorer.spec
        self._is_mc = isinstance(scorer, MultipleChoiceModelScorer)
        output: Output = "logits" if self._is_mc else "last_hidden_state"
        names = scorer.tokenizer_.model_input_names
        resolved = resolve_engine(engine)
        try:
            self._run = build_runner(scorer.model_, engine=resolved, output=output, input_names=names)
        except EngineUnavailable as error:
            if engine != "auto":
                raise
            logger.warning("Engine %s unavailable for %s, using torch: %s", resolved, scorer.spec.name, error)
            resolved = "torch"
            self._run = build_runner(scorer.model_, engine=resolved, output=output, input_names=names)
        self.engine_ = resolved
        if self._is_mc:
            settings: tuple[tuple[str, Hashable], ...] = (
                ("head", "multiple_choice"), ("max_length", self._mc.max_length_), ("answer_only", self._mc.answer_only_))
        else:
            settings = (("head", "mean_pool"), ("max_length", scorer.config.max_length))
        self.model_key_ = ModelKey(scorer.spec.name, scorer.spec.path, scorer.revision_, resolved, settings)

    @property
    def _mc(self) -> MultipleChoiceModelScorer:
        assert isinstance(self.scorer, MultipleChoiceModelScorer)
        return self.scorer

    @property
    def _zero_shot(self) -> ZeroShotEmbeddingScorer:
        assert isinstance(self.scorer, ZeroShotEmbeddingScorer)
        return self.scorer

    # --- the parts ---------------------------------------------------------------------------

    def _part_keys(self, example: MCExample) -> list[tuple[Hashable, ...]]:
        if self._is_mc:
            first = "" if self._mc.answer_only_ else example.prompt
            return [(self.model_key_, first, choice) for choice in example.choices]
        return [(self.model_key_, text) for text in zero_shot_texts(example)]

    def compute_part(self, key: tuple[Hashable, ...]) -> torch.Tensor:
        """One part, alone and unpadded: a 0-d logit or a ``(hidden,)`` embedding (float32)."""
        tokenizer = self.scorer.tokenizer_
        if self._is_mc:
            enc = tokenizer(key[1], key[2], truncation="longest_first", max_length=self._mc.max_length_,
                            return_tensors="pt")  # each (1, seq)
            logits = self._run({name: t.unsqueeze(1) for name, t in enc.items()})  # (1, 1): one question, one choice
            return logits.reshape(()).clone()
        enc = tokenizer(key[1], truncation=True, max_length=self.scorer.config.max_length, return_tensors="pt")
        hidden = self._run(dict(enc))  # (1, seq, hidden)
        return mean_pool_normalize(hidden, enc["attention_mask"])[0].clone()  # (hidden,)

    def parts(self, examples: Sequence[MCExample]) -> list[list[torch.Tensor]]:
        """Each example's parts (4 pair logits, or 9 text embeddings), from the cache or computed.

        A part needed twice in one call is computed once; the model runs under the wrapped
        scorer's lock, the cache is read without it (a fully cached question never waits for a
        running batch).
        """
        keys = [self._part_keys(example) for example in examples]
        found: dict[Hashable, torch.Tensor] = {}
        for key in dict.fromkeys(k for question in keys for k in question):
            value = self.cache.get(key)
            if value is not None:
                found[key] = value
        missing = [key for key in dict.fromkeys(k for question in keys for k in question) if key not in found]
        if missing:
            with self.scorer.lock:
                for key in missing:
                    found[key] = self.compute_part(key)
            for key in missing:
                self.cache.put(key, found[key])
        return [[found[key] for key in question] for question in keys]

    # --- questions ---------------------------------------------------------------------------

    def scores(self, examples: Sequence[MCExample]) -> torch.Tensor:
        """Pre-softmax scores ``(batch, 4)``: pair logits, or the zero-shot scores (unscaled)."""
        rows = []
        for question in self.parts(examples):
            if self._is_mc:
                rows.append(torch.stack(question))  # (4,)
            else:
                emb = torch.stack(question).unsqueeze(0)  # (1, 9, hidden): one question at a time
                rows.append(zero_shot_scores(emb, self._zero_shot.config.odd_one_out_weight)[0])
        return torch.stack(rows) if rows else torch.empty(0, NUM_CHOICES)

    def predict_proba(self, examples: Sequence[MCExample]) -> torch.Tensor:
        """Probabilities ``(batch, 4)`` in float64, each question's softmax taken alone."""
        scores = self.scores(examples).double()  # (batch, 4)
        if not self._is_mc:
            scores = scores / self._zero_shot.config.temperature
        if len(examples) == 0:
            return scores
        return torch.stack([torch.softmax(row, dim=-1) for row in scores])

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """Predictions in order, recording the model's name and revision."""
        return to_predictions(self.predict_proba(examples), self.spec, self.scorer.revision_)


class EncoderLiveModel:
    """The encoder kinds (multiple-choice cross-encoder, zero-shot embeddings) as a :class:`~mlcore.models.live.LiveModel`.

    ``warm_up`` loads the weights (:func:`~mlcore.models.inference.build_scorer`) and builds the
    engine (an ONNX export takes seconds); ``predict`` then scores part by part with an
    :class:`IncrementalScorer` whose parts go to ``cache``. A new model version comes with a new
    spec (a new revision), hence a new live model and new cache keys.

    Parameters
    ----------
    spec : ScorerSpec
        Of kind ``multiple_choice`` or ``zero_shot_embedding``.
    engine : str
        ``"auto"`` or one of :data:`mlcore.models.engines.ENGINES` (see :class:`IncrementalScorer`).
    device : str
        Only ``"cpu"`` (the engines run there).
    cache : InferenceCache or None
        Where parts are kept; by default :data:`~mlcore.models.inference_cache.shared_cache`, which
        drafts, submissions and leaderboards share; ``None`` stores nothing (a throw-away model).

    Raises
    ------
    ModelLoadError
        If the device is not ``"cpu"`` (these models run where their engines do: on CPU).
    """

    def __init__(self, spec: ScorerSpec, *, engine: str = "auto", device: str = "cpu",
                 cache: InferenceCache | None = shared_cache) -> None:
        if device != "cpu":
            raise ModelLoadError(f"{spec.name}: encoder models run on cpu, not {device!r}")
        self.spec, self.engine, self._cache = spec, engine, cache
        self._live: IncrementalScorer | None = None
        self._lock = threading.Lock()  # one load, even when two threads warm up at once

    @property
    def incremental(self) -> IncrementalScorer:
        """The part-by-part scorer (loaded first if needed)."""
        return self._load()

    def _load(self) -> IncrementalScorer:
        with self._lock:
            if self._live is None:
                self._live = IncrementalScorer(build_scorer(self.spec), engine=self.engine, cache=self._cache)
            return self._live

    def ready(self) -> bool:
        return self._live is not None

    def warm_up(self) -> None:
        self._load()

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        return self.incremental.predict(examples)

    def close(self) -> None:
        # Dropping the reference frees the weights and the engine once no running predict holds them.
        with self._lock:
            self._live = None
