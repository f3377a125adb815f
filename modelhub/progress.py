"""A training run's progress: on a management command's terminal (``train_mc_model``, ``train_qa_model``), or
stored on the background job that runs it (a round's or a project's training job)."""
from typing import Any

from core.jobs import ProgressWriter
from mlcore.configs import TrainProgress


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressBar:
    """One self-rewriting line on a terminal; a line per ~10% when piped into a log."""

    WIDTH = 30

    def __init__(self, stdout: Any) -> None:
        self.stdout = stdout
        self.interactive = stdout.isatty()
        self.last_decile = -1

    def __call__(self, p: TrainProgress) -> None:
        done = p.step / p.total_steps
        filled = int(done * self.WIDTH)
        eta = p.elapsed_seconds / p.step * (p.total_steps - p.step)
        line = (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] step {p.step}/{p.total_steps} "
                f"epoch {p.epoch} loss {p.loss:.4f} ETA {clock(eta)}")
        if self.interactive:
            self.stdout.write("\r" + line, ending="\n" if p.step == p.total_steps else "")
            self.stdout.flush()
        elif int(done * 10) > self.last_decile or p.step == p.total_steps:
            self.last_decile = int(done * 10)
            self.stdout.write(line)


class TrainingJobProgress(ProgressWriter):
    """Stores step, loss and time left on a training job at most once a second (its page polls them)."""

    def __call__(self, step: TrainProgress) -> None:
        per_step = step.elapsed_seconds / max(step.step, 1)
        self.save(final=step.step >= step.total_steps, stage="training", step=step.step,
                  total_steps=step.total_steps, epoch=step.epoch, loss=round(step.loss, 4),
                  eta_seconds=round(per_step * (step.total_steps - step.step)))
