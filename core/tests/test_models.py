"""core.models: a job with states of its own keeps the common ones, values and labels alike."""
from core.models import BackgroundJob, job_status_choices


def test_a_job_with_more_states_keeps_the_common_ones_first():
    Status = job_status_choices(CANCELLED=("cancelled", "Cancelled"))
    assert Status.choices == [*BackgroundJob.Status.choices, ("cancelled", "Cancelled")]
    assert Status.QUEUED == BackgroundJob.Status.QUEUED == "queued"
    assert Status.CANCELLED.label == "Cancelled"
    assert Status.RUNNING in BackgroundJob.ACTIVE and Status.CANCELLED not in BackgroundJob.ACTIVE
