"""Signals other apps may listen to (apps above annotation cannot be imported from here)."""
from django.dispatch import Signal

# What a worker has finished in a project, or its review, changed (a paragraph submitted, a flag
# raised on their questions or by them, a flag resolved): sent with ``project_id`` and ``user_ids``
# (the workers concerned), from inside the transaction that changed it. Listeners that start work
# (the LTI grade passback) enqueue it with transaction.on_commit.
worker_progress_changed = Signal()


def worker_progress_send(*, sender: type, project_id: int, user_ids: list[int | None]) -> None:
    """Send ``worker_progress_changed`` for the workers among ``user_ids`` (imported questions have none)."""
    workers = sorted({user_id for user_id in user_ids if user_id is not None})
    if workers:
        worker_progress_changed.send(sender=sender, project_id=project_id, user_ids=workers)
