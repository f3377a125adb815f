"""Cancel and resume a round's scoring run (services).

Cancelling marks the run ``cancelled`` at once; the worker running it notices between training
steps (at most about a second later) or before its next fold and stops without storing the fold
it was on. Finished folds stay stored, so resuming queues the run again and only the missing
folds are trained (``scoring.scoring_run`` skips the stored ones).
"""
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from collector.models import ScoringRun
from collector.scoring import ScoringRefused, scoring_schedule


def scoring_cancel(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Cancel a queued or running scoring run; refused once it has ended."""
    with transaction.atomic():
        run = ScoringRun.objects.select_for_update().get(pk=run_id)
        if run.status not in ScoringRun.ACTIVE:
            raise ScoringRefused(f"Run {run.pk} is {run.get_status_display().lower()} already; there is nothing to cancel.")
        run.status = ScoringRun.Status.CANCELLED
        run.finished_at = timezone.now()
        run.progress = {**run.progress, "cancelled_by": user.username if user else ""}
        run.save(update_fields=["status", "finished_at", "progress"])
    return run


def scoring_resume(*, run_id: int, user: User | None = None) -> ScoringRun:
    """Queue a cancelled or failed run again; it trains only the folds it has not finished.

    Refused while another run of the same kind of this round is active (one at a time).
    """
    try:
        with transaction.atomic():
            run = ScoringRun.objects.select_for_update().get(pk=run_id)
            if run.status not in (ScoringRun.Status.CANCELLED, ScoringRun.Status.FAILED):
                raise ScoringRefused(
                    f"Run {run.pk} is {run.get_status_display().lower()}; only a cancelled or failed run can be resumed."
                )
            run.status, run.error, run.finished_at = ScoringRun.Status.QUEUED, "", None
            run.progress = {key: value for key, value in run.progress.items() if key != "cancelled_by"}
            run.save(update_fields=["status", "error", "finished_at", "progress"])
    except IntegrityError:
        raise ScoringRefused(
            f"Another {run.get_kind_display().lower()} run of round {run.round.name} is in progress; "
            "cancel it or wait until it finishes before resuming this one."
        ) from None
    transaction.on_commit(lambda: scoring_schedule(run_id=run.pk))
    return run
