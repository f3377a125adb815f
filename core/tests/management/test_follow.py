"""``core.management.follow``: the one loop by which a command follows a job (``score_round --wait``).

The commands' own tests follow real jobs (collector/tests/commands/test_score_round.py); these read
a stand-in model whose rows change under the loop, as a worker's writes would.
"""
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management.base import OutputWrapper

from core.management import follow
from core.models import BackgroundJob


class Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def stand_in(statuses: list[str], *, interrupt_after: int | None = None):
    """A model whose ``objects.get`` returns the next status on each reading (Ctrl+C after ``interrupt_after``)."""
    readings: list[int] = []

    def get(pk: int):
        if interrupt_after is not None and len(readings) == interrupt_after:
            raise KeyboardInterrupt
        readings.append(pk)
        return SimpleNamespace(pk=pk, status=statuses[min(len(readings), len(statuses)) - 1])

    return SimpleNamespace(objects=SimpleNamespace(get=get), ACTIVE=BackgroundJob.ACTIVE), readings


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(follow.time, "sleep", slept.append)
    return slept


def show_status(job, line: follow.ProgressLine) -> None:
    line.update(100.0 if job.status == "done" else 50.0, job.status, key=job.status)


def test_follows_until_the_job_ends_and_returns_it(no_waiting):
    model, readings = stand_in(["queued", "running", "running", "done"])
    out = StringIO()
    job = follow.job_follow(model, 7, line=follow.ProgressLine(OutputWrapper(out)), show=show_status)
    assert (job.pk, job.status) == (7, "done")
    assert readings == [7, 7, 7, 7] and no_waiting == [follow.POLL_SECONDS] * 3  # no sleep after the end
    # Piped: one line per change of key, none for the repeated "running".
    assert out.getvalue().splitlines() == [
        "[" + "#" * 12 + "." * 12 + "]  50.0% queued",
        "[" + "#" * 12 + "." * 12 + "]  50.0% running",
        "[" + "#" * 24 + "] 100.0% done",
    ]


@pytest.mark.parametrize("ended", ["failed", "cancelled"])
def test_a_failed_or_cancelled_job_ends_the_following_too(ended):
    model, readings = stand_in(["running", ended])
    job = follow.job_follow(model, 1, line=follow.ProgressLine(OutputWrapper(StringIO())), show=show_status)
    assert job.status == ended and len(readings) == 2


def test_ctrl_c_stops_following_not_the_job_and_ends_the_terminal_line():
    model, readings = stand_in(["running"], interrupt_after=2)
    out = Terminal()
    assert follow.job_follow(model, 3, line=follow.ProgressLine(OutputWrapper(out)), show=show_status) is None
    assert len(readings) == 2
    text = out.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n")  # the rewritten line is closed, the prompt starts clean


def test_notes_are_permanent_lines_under_the_rewritten_one():
    out = Terminal()
    line = follow.ProgressLine(OutputWrapper(out))
    line.update(10.0, "step 1", key=1)
    line.note("  fold 1/3 done")
    line.update(40.0, "step 2", key=2)
    line.finish()
    assert out.getvalue() == ("\r[##" + "." * 22 + "]  10.0% step 1\n  fold 1/3 done\n"
                              "\r[#########" + "." * 15 + "]  40.0% step 2\n")
