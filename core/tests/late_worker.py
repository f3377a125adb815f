"""A Celery worker elsewhere, played in a test by a thread that picks the task up late: for the
commands' tests that check a command only starts and follows a job (core/management/follow.py)."""
import threading
import time
from collections.abc import Callable

from django.db import connections


class LateWorker:
    """Runs ``run(**{keyword: job_id})`` in a thread named "worker", 0.3 s after ``start``."""

    def __init__(self, run: Callable[..., object], *, keyword: str = "job_id") -> None:
        self.run, self.keyword = run, keyword
        self.ran_in: list[str] = []
        self.threads: list[threading.Thread] = []

    def start(self, job_id: int) -> None:
        self.threads.append(threading.Thread(target=self._work, args=(job_id,), name="worker"))
        self.threads[-1].start()

    def _work(self, job_id: int) -> None:
        time.sleep(0.3)
        self.ran_in.append(threading.current_thread().name)
        try:
            self.run(**{self.keyword: job_id})
        finally:
            connections.close_all()

    def join(self) -> None:
        """Wait for its last read of the row, before the test database is emptied."""
        for thread in self.threads:
            thread.join(timeout=60)
