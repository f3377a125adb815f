"""A course's survival forecast (issue 29 §1): trained as a background job, stored with its measured quality."""
from django.conf import settings
from django.db import models

from collector.models.rounds import Round
from core.models import BackgroundJob
from courses.models import Course


class SurvivalForecastJob(BackgroundJob):
    """One training of a course's forecast of "still missed in cross-validation", and its result.

    The job row is the stored forecast: once done it holds the fitted logistic regression as plain
    numbers (``params``: ``mlcore.stats.survival_verdict.forecast_params``), how many scored
    questions it was trained on, from which rounds and scoring runs, and its held-out quality. The
    newest done job of a course is the forecast its author pages use
    (``collector.selectors.forecast.forecast_for_course``); it is shown only when ``usable`` and its
    held-out Brier score beats the base rate's. It is advice for authors and never used for credit.
    """

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="survival_forecasts")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="survival_forecasts",
                              help_text="The round whose page (or finished scoring) started the training")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    push_scopes = ("round",)  # shown on the round page, whose socket follows the round's jobs

    params = models.JSONField(default=dict, blank=True, help_text="Coefficients, intercept, means and scales")
    n_train = models.PositiveIntegerField(default=0, help_text="Scored questions it was trained on")
    n_survived = models.PositiveIntegerField(default=0, help_text="Of those, still missed in cross-validation")
    source_rounds = models.JSONField(default=list, blank=True, help_text="Ids of the rounds trained on")
    source_runs = models.JSONField(default=list, blank=True, help_text="Ids of the scoring runs whose outcomes were used")
    usable = models.BooleanField(default=False)
    reason = models.TextField(blank=True)
    brier = models.FloatField(null=True, blank=True)
    brier_base = models.FloatField(null=True, blank=True)
    log_loss = models.FloatField(null=True, blank=True)
    log_loss_base = models.FloatField(null=True, blank=True)
    auc = models.FloatField(null=True, blank=True)
    calibration_slope = models.FloatField(null=True, blank=True)
    pvalue = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One training per course at a time: a second start (a button, a finished scoring) reuses it.
            models.UniqueConstraint(fields=["course"], condition=models.Q(status__in=["queued", "running"]),
                                    name="one_active_survival_forecast"),
        ]

    def __str__(self) -> str:
        return f"Survival forecast of {self.course} ({self.status})"
