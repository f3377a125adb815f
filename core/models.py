"""Abstract models only: the ``core`` app has no tables of its own."""
from django.db import models
from django.utils.translation import gettext_lazy as _


class BackgroundJob(models.Model):
    """A long job a Celery worker runs: status, progress, error and the worker's heartbeat.

    ``ScoringRun``, ``TrainingJob`` and ``EvaluationRun`` are such jobs; ``core.jobs`` claims,
    heartbeats, reports progress and resumes them the same way. ``progress`` is a JSON object the
    job's page shows; a resumable job also records its worker there as ``owner`` (``host:pid``).
    """

    class Status(models.TextChoices):
        # Labels in the active language: every job's badge, page, socket and API words them so.
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)
    FINISHED = (Status.DONE, Status.FAILED)
    # Foreign keys whose object's page follows all its jobs: each change of the job is also pushed
    # to the group of that object (``core.jobs.job_scope_group``), so a page that shows every job
    # of a round hears of one started after it opened.
    push_scopes: tuple[str, ...] = ()

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


def job_status_choices(**extra: tuple[str, str]) -> type[models.TextChoices]:
    """``BackgroundJob.Status`` and a job's own further states, given as ``NAME=(value, label)``.

    For a job that has more states than the common ones (a scoring run can be cancelled): an enum
    with members cannot be subclassed, so the states are copied into a new one rather than
    written out again.
    """
    common = {status.name: (status.value, status.label) for status in BackgroundJob.Status}
    return models.TextChoices("Status", {**common, **extra})
