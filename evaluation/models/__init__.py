"""The evaluation app's models (Django finds them here), one module per group: reports (and the
ambiguity datasets they may read), leaderboards; ``targets`` holds their abstract base."""
from evaluation.models.ambiguity_datasets import AmbiguityDataset
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.models.reports import EvaluationRun

__all__ = ["AmbiguityDataset", "EvaluationRun", "ModelEvaluation"]
