"""Scoring runs: one description for the round page, the websocket and the CLI.

Pure functions over an already-fetched ``ScoringRun``; the accuracies are named as in
``presentation/cv_accuracy.py``.
"""
from collector.models import ScoringRun
from collector.presentation.cv_accuracy import FOLD_MEAN_LABEL, POOLED_LABEL, fold_questions, small_folds_warning
from collector.presentation.format import duration
from core.jobs import job_display, job_progress_shown


def scoring_run_payload(run: ScoringRun) -> dict:
    """``{id, kind, status, progress, summary, error, display}`` of one scoring run.

    ``display`` holds the same run in words (status, progress line, result line, a warning when
    folds are too small, per-fold bars; ``stalled`` when its worker went silent), so the page,
    ``scoring.js`` and ``score_round`` say the same thing. The worker's host and
    pid (``progress["owner"]``) stay on the server.
    """
    progress = job_progress_shown(run)
    summary = run.summary or {}
    return {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "progress": progress,
        "summary": summary,
        "error": run.error,
        "display": job_display(run, {
            "kind": run.get_kind_display(),
            "status": run.get_status_display(),
            "percent": scoring_percent(run.status, progress),
            "progress": scoring_progress_text(run, progress),
            "result": scoring_result_text(run.kind, summary) if run.status == ScoringRun.Status.DONE else "",
            "warning": small_folds_warning(summary) if run.status == ScoringRun.Status.DONE else "",
            "folds": fold_bars(summary),
        }),
    }


def scoring_percent(status: str, progress: dict) -> float:
    """How much of the run is done, 0-100: finished folds plus the current fold's steps."""
    if status == ScoringRun.Status.DONE:
        return 100.0
    total = progress.get("total_folds") or 0
    if not total:
        return 0.0
    done = progress.get("done_folds") or 0
    steps = progress.get("total_steps") or 0
    step = progress.get("step") or 0
    # A fold at its last step is counted once it is stored (done_folds), not twice meanwhile.
    partial = step / steps if steps and step < steps and progress.get("stage") == "training" else 0.0
    return round(100.0 * min(1.0, (done + partial) / total), 1)


def scoring_progress_text(run: ScoringRun, progress: dict) -> str:
    """One line: where the run is (fold, trial, step, loss) and about how long it still needs."""
    done, total = progress.get("done_folds", 0), progress.get("total_folds", run.folds * run.trials)
    if run.status == ScoringRun.Status.QUEUED:
        return "Waiting for a worker to start it."
    if run.status == ScoringRun.Status.DONE:
        return f"Finished all {total} folds."
    if run.status == ScoringRun.Status.FAILED:
        return f"Stopped after {done} of {total} folds."
    if run.status == ScoringRun.Status.CANCELLED:
        return f"Cancelled after {done} of {total} folds; resume it to score the rest."
    if progress.get("stage") != "training" or "fold" not in progress:
        return f"Preparing ({done} of {total} folds done)."
    parts = [f"Fold {progress['fold'] + 1} of {run.folds}"]
    if run.trials > 1:
        parts.append(f"trial {progress.get('trial', 0) + 1} of {run.trials}")
    if progress.get("total_steps"):
        parts.append(f"step {progress.get('step', 0)}/{progress['total_steps']}")
    if progress.get("loss") is not None:
        parts.append(f"loss {progress['loss']:.3f}")
    if progress.get("eta_seconds") is not None:
        parts.append(f"about {duration(progress['eta_seconds'])} left")
    return " · ".join(parts)


def scoring_result_text(kind: str, summary: dict) -> str:
    """The finished run's headline: the pooled CV accuracy, then the CODAH-style mean over folds
    under its own name (``presentation/cv_accuracy.py``); or answer-only accuracy vs chance."""
    if kind == ScoringRun.Kind.ANSWER_ONLY and summary.get("answer_only_accuracy") is not None:
        pvalue = summary.get("binomial_pvalue")
        test = f" (one-sided binomial test p = {pvalue:.3g})" if pvalue is not None else ""
        return f"Answer-only accuracy {100 * summary['answer_only_accuracy']:.1f}% vs 25% chance{test}."
    if summary.get("accuracy") is None:
        return ""
    trials = len(summary.get("fold_accuracy") or []) or 1
    questions = f" of {summary['questions']} questions" if summary.get("questions") else ""
    times = f" × {trials} trials" if trials > 1 else ""
    text = f"{POOLED_LABEL} {100 * summary['accuracy']:.1f}%{questions}{times}."
    if summary.get("mean") is not None:
        spread = f" ± {100 * summary['std']:.1f} (std over {trials} trials)" if summary.get("std") is not None else ""
        text += f" {FOLD_MEAN_LABEL} {100 * summary['mean']:.1f}%{spread}."
    return text


def fold_bars(summary: dict) -> list[dict]:
    """Per-fold accuracy averaged over trials, as ``{label, accuracy, percent, questions}`` bars
    (the label says how many questions the fold holds; folds emptied by deletions are left out)."""
    rows = summary.get("fold_accuracy") or []
    if not rows:
        return []
    sizes = fold_questions(summary)
    bars = []
    for fold in range(len(rows[0])):
        values = [row[fold] for row in rows if fold < len(row) and row[fold] is not None]
        if not values:
            continue
        accuracy = sum(values) / len(values)
        size = sizes[fold] if fold < len(sizes) else None
        label = f"Fold {fold + 1}" + (f" ({size})" if size is not None else "")
        bars.append({"label": label, "accuracy": accuracy, "percent": round(100 * accuracy, 1), "questions": size})
    return bars


def scoring_cards(payloads: list[dict]) -> list[dict]:
    """One card per kind of run for the round page, ``run`` None for a kind never run."""
    by_kind = {payload["kind"]: payload for payload in payloads}
    cards = [{"kind": kind, "label": label, "run": by_kind.get(kind)} for kind, label in ScoringRun.Kind.choices]
    for card in cards:
        status = card["run"]["status"] if card["run"] else ""
        card["active"] = status in ScoringRun.ACTIVE
        card["resumable"] = status in (ScoringRun.Status.CANCELLED, ScoringRun.Status.FAILED)
    return cards
