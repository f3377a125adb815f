"""The collector's models, one module per concern; every model is re-exported here, where Django
and the migrations (``collector.models.all_categories``) look for them."""
from collector.models.forecast import SurvivalForecastJob
from collector.models.hardware import WorkerHardware
from collector.models.panel import PanelRole, RoundPanelMember, SubmissionVerdict
from collector.models.quality import Appeal, CoachWarning, DuplicateFlag, ReviewDecision, Validation
from collector.models.questions import Prediction, Question, QuestionStatus
from collector.models.rounds import (
    CATEGORY_CHOICES,
    LETTERS,
    NUM_CHOICES,
    CreditRuleChoice,
    PeerValidation,
    Round,
    all_categories,
)
from collector.models.scoring import CVPrediction, ScoringFold, ScoringFoldClaim, ScoringRun, ScoringRunAssignment
from collector.models.training import TrainingJob

__all__ = [
    "CATEGORY_CHOICES", "LETTERS", "NUM_CHOICES", "Appeal", "CVPrediction", "CoachWarning", "DuplicateFlag", "PeerValidation",
    "Prediction", "Question", "QuestionStatus", "ReviewDecision", "Round", "ScoringFold", "ScoringFoldClaim", "ScoringRun",
    "ScoringRunAssignment", "SurvivalForecastJob", "TrainingJob", "Validation", "WorkerHardware", "all_categories",
    "CreditRuleChoice", "PanelRole", "RoundPanelMember", "SubmissionVerdict",
]
