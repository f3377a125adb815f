"""Train-on-some, predict-the-rest for cross-validation folds, with or without a frozen cache.

``FoldRunner`` is what a scoring service calls once per (trial, fold). With
``config.cache_frozen`` the frozen lower layers run once for all questions
(:class:`mlcore.models.fast_finetune.FrozenPrefixCache`) and every fold and trial reuses
them; otherwise each fold is a plain full fine-tune
(:class:`mlcore.models.finetune.MultipleChoiceTrainer`), the baseline the benchmark compares against.
"""
from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mlcore.configs import (
    FineTuneConfig,
    MCExample,
    MCPrediction,
    ScorerKind,
    ScorerSpec,
    TrainProgress,
)
from mlcore.models.live import LiveModel

if TYPE_CHECKING:  # torch is imported only when a fold is trained
    from mlcore.models.frozen_prefix import FrozenPrefixCache

__all__ = ["FoldRunner"]


class FoldRunner:
    """Fine-tune ``base_path`` on some of ``examples`` and predict others, fold after fold.

    Parameters
    ----------
    base_path : str
        Starting checkpoint (folder, hub id or ``PACKAGED_MINILM``).
    examples : sequence of MCExample
        Every question of the run; folds refer to them by index.
    config : FineTuneConfig
        Hyperparameters; ``seed`` is replaced per call of :meth:`run_fold`.

    Attributes
    ----------
    hardware_ : mlcore.models.hardware.HardwareResolution
        What ``config.bf16`` resolved to in the last fold (the precision it trained in).
    threads_ : int
        The torch threads the last fold trained with.

    Examples
    --------
    One fold of a toy task (the right completion is the one holding "zebra"):

    >>> from mlcore.configs import PACKAGED_MINILM
    >>> from mlcore.testing import make_toy_examples
    >>> examples = make_toy_examples(40)
    >>> runner = FoldRunner(PACKAGED_MINILM, examples, FineTuneConfig.fast_cv(epochs=2, learning_rate=5e-4))
    >>> predictions = runner.run_fold(range(32), range(32, 40), seed=0)
    >>> [p.predicted for p in predictions] == [example.label for example in examples[32:]]
    True
    >>> predictions[0].model_name
    'packaged:all-MiniLM-L6-v2 (fast fine-tune)'
    """

    def __init__(self, base_path: str, examples: Sequence[MCExample], config: FineTuneConfig) -> None:
        self.base_path = base_path
        self.examples = list(examples)
        self.config = config
        self._cache: FrozenPrefixCache | None = None

    def run_fold(
        self,
        train_index: Sequence[int],
        test_index: Sequence[int],
        *,
        seed: int,
        progress: Callable[[TrainProgress], None] | None = None,
    ) -> list[MCPrediction]:
        """Predictions for ``test_index`` (in that order) of a model trained on ``train_index``."""
        if set(train_index) & set(test_index):
            raise ValueError("a question cannot be in the training and the test part of one fold")
        config = dataclasses.replace(self.config, seed=seed)
        if config.cache_frozen:
            return self._run_cached(config, train_index, test_index, progress)
        return self._run_plain(config, train_index, test_index, progress)

    def _run_cached(self, config: FineTuneConfig, train_index: Sequence[int], test_index: Sequence[int],
                    progress: Callable[[TrainProgress], None] | None) -> list[MCPrediction]:
        from mlcore.models.fast_finetune import FastMultipleChoiceTrainer
        from mlcore.models.frozen_prefix import FrozenPrefixCache

        if self._cache is None:
            # Unlabelled or not, every question's frozen states are computed once and shared.
            self._cache = FrozenPrefixCache.build(self.base_path, self.examples, config)
        trainer = FastMultipleChoiceTrainer(config, self._cache).fit(list(train_index), progress=progress)
        self.hardware_, self.threads_ = trainer.hardware_, trainer.threads_
        return trainer.predict(list(test_index))

    def _run_plain(self, config: FineTuneConfig, train_index: Sequence[int], test_index: Sequence[int],
                   progress: Callable[[TrainProgress], None] | None) -> list[MCPrediction]:
        from mlcore.models.finetune import MultipleChoiceTrainer
        from mlcore.models.incremental import EncoderLiveModel

        trainer = MultipleChoiceTrainer(config, self.base_path)
        trainer.fit([self.examples[i] for i in train_index], progress=progress)
        self.hardware_, self.threads_ = trainer.hardware_, trainer.threads_
        with tempfile.TemporaryDirectory(prefix="stumper-fold-") as directory:
            trainer.save(directory)
            spec = ScorerSpec(kind=ScorerKind.MULTIPLE_CHOICE, path=directory, name="cv-fold")
            test = [dataclasses.replace(self.examples[i], label=None) for i in test_index]
            # The live path, as for a registered model; a fold's parts are never asked for again: no cache.
            model: LiveModel = EncoderLiveModel(spec, engine="torch", cache=None)
            try:
                return model.predict(test)
            finally:
                model.close()
