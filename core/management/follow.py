"""Following a background job from a management command: the one loop every ``--wait`` uses.

A command has no socket to hear the channel layer's pushes on, so it reads the job's row every
``POLL_SECONDS`` until the job is no longer queued or running, handing each reading to the
command's ``show`` (which writes a ``ProgressLine`` and any permanent lines). Ctrl+C stops the
following, never the job: its worker goes on.
"""
import time
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.core.management.base import CommandError, OutputWrapper

from core.models import BackgroundJob

POLL_SECONDS = 0.5  # how often a command reads the job row
Job = TypeVar("Job", bound=BackgroundJob)


class ProgressLine:
    """A self-rewriting progress line on a terminal (a new line per change of ``key`` when piped),
    plus permanent lines (``note``) such as a finished fold."""

    WIDTH = 24

    def __init__(self, stream: OutputWrapper) -> None:
        self.stream = stream
        self.interactive = stream.isatty()
        self.shown_width = 0
        self.last_key: Hashable = None

    def update(self, percent: float, words: str, *, key: Hashable) -> None:
        """Show ``[####....] 42.0% words``; piped, only when ``key`` (what the words are about) changed."""
        filled = int(percent / 100 * self.WIDTH)
        text = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:5.1f}% {words}"
        if self.interactive:
            self.stream.write("\r" + text.ljust(self.shown_width), ending="")
            self.stream.flush()
            self.shown_width = len(text)
        elif key != self.last_key:
            self.last_key = key
            self.stream.write(text)

    def note(self, text: str) -> None:
        """A permanent line under the progress line."""
        self.finish()
        self.stream.write(text)

    def finish(self) -> None:
        if self.interactive and self.shown_width:
            self.stream.write("")
            self.shown_width = 0


def job_follow(model: type[Job], job_id: int, *, line: ProgressLine,
               show: Callable[[Job, ProgressLine], None]) -> Job | None:
    """Read job ``job_id`` every ``POLL_SECONDS`` and ``show`` it on ``line`` until it has ended.

    Returns the ended job, or None when the user pressed Ctrl+C (the job goes on in its worker).
    """
    try:
        while True:
            job = model.objects.get(pk=job_id)
            show(job, line)
            if job.status not in model.ACTIVE:
                line.finish()
                return job
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        line.finish()
        return None


def job_follow_done(model: type[Job], job_id: int, *, stderr: OutputWrapper, show: Callable[[Job, ProgressLine], None],
                    what: str = "training job") -> Job:
    """:func:`job_follow` for a command that reports only a finished job: the done job, or a
    ``CommandError`` (non-zero exit) that says the job failed or that the following stopped."""
    job = job_follow(model, job_id, line=ProgressLine(stderr), show=show)
    if job is None:
        raise CommandError(f"Stopped following {what} {job_id}; its worker goes on.")
    if job.status != model.Status.DONE:
        raise CommandError(f"{what[:1].upper()}{what[1:]} {job_id} failed: {job.error}")
    return job

