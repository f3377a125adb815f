"""The evaluation app's models (Django finds them here): one module per group."""
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.models.reports import AmbiguityDataset, EvaluationRun

__all__ = ["AmbiguityDataset", "EvaluationRun", "ModelEvaluation"]
