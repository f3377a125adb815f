"""Scoring runs: one description for the round page, the websocket and the CLI.

Pure functions over an already-fetched ``ScoringRun``; the accuracies are named as in
``presentation/cv_accuracy.py``.
"""
from django.utils.translation import gettext as _

from collector.models import ScoringRun
from collector.presentation.cv_accuracy import fold_questions, small_folds_warning
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
    if progress.get("stage") == "training" and "partial_folds" in progress:
        partial = progress["partial_folds"]  # folds training in parallel, summed (services.scoring_folds)
    return round(100.0 * min(1.0, (done + partial) / total), 1)


def scoring_progress_text(run: ScoringRun, progress: dict) -> str:
    """One line: where the run is (fold, trial, step, loss) and about how long it still needs."""
    done, total = progress.get("done_folds", 0), progress.get("total_folds", run.folds * run.trials)
    if run.status == ScoringRun.Status.QUEUED:
        return _("Waiting for a worker to start it.")
    counts = {"done": done, "total": total}
    if run.status == ScoringRun.Status.DONE:
        return _("Finished all %(total)s folds.") % counts
    if run.status == ScoringRun.Status.FAILED:
        return _("Stopped after %(done)s of %(total)s folds.") % counts
    if run.status == ScoringRun.Status.CANCELLED:
        return _("Cancelled after %(done)s of %(total)s folds; resume it to score the rest.") % counts
    if progress.get("stage") != "training" or "fold" not in progress:
        return _("Preparing (%(done)s of %(total)s folds done).") % counts
    parts = [_("Fold %(fold)s of %(folds)s") % {"fold": progress["fold"] + 1, "folds": run.folds}]
    if run.trials > 1:
        parts.append(_("trial %(trial)s of %(trials)s") % {"trial": progress.get("trial", 0) + 1, "trials": run.trials})
    if progress.get("total_steps"):
        parts.append(_("step %(step)s/%(total)s") % {"step": progress.get("step", 0), "total": progress["total_steps"]})
    if progress.get("loss") is not None:
        parts.append(_("loss %(loss)s") % {"loss": f"{progress['loss']:.3f}"})
    if progress.get("eta_seconds") is not None:
        parts.append(_("about %(time)s left") % {"time": duration(progress["eta_seconds"])})
    return " · ".join(parts)


def scoring_result_text(kind: str, summary: dict) -> str:
    """The finished run's headline: the pooled CV accuracy, then the CODAH-style mean over folds
    under its own name (``presentation/cv_accuracy.py``); or answer-only accuracy vs chance."""
    if kind == ScoringRun.Kind.ANSWER_ONLY and summary.get("answer_only_accuracy") is not None:
        pvalue = summary.get("binomial_pvalue")
        values = {"accuracy": f"{100 * summary['answer_only_accuracy']:.1f}",
                  "p": f"{pvalue:.3g}" if pvalue is not None else ""}
        if pvalue is None:
            return _("Answer-only accuracy %(accuracy)s%% vs 25%% chance.") % values
        return _("Answer-only accuracy %(accuracy)s%% vs 25%% chance (one-sided binomial test p = %(p)s).") % values
    if summary.get("accuracy") is None:
        return ""
    trials = len(summary.get("fold_accuracy") or []) or 1
    values = {"accuracy": f"{100 * summary['accuracy']:.1f}", "questions": summary.get("questions"), "trials": trials}
    # The labels are POOLED_LABEL and FOLD_MEAN_LABEL, in the words of the round page.
    if summary.get("questions"):
        text = (_("CV accuracy (pooled) %(accuracy)s%% of %(questions)s questions × %(trials)s trials.") if trials > 1
                else _("CV accuracy (pooled) %(accuracy)s%% of %(questions)s questions.")) % values
    else:
        text = (_("CV accuracy (pooled) %(accuracy)s%% × %(trials)s trials.") if trials > 1
                else _("CV accuracy (pooled) %(accuracy)s%%.")) % values
    if summary.get("mean") is not None:
        values["mean"] = f"{100 * summary['mean']:.1f}"
        if summary.get("std") is not None:
            values["std"] = f"{100 * summary['std']:.1f}"
            text += " " + _("Mean per-fold accuracy (CODAH) %(mean)s%% ± %(std)s (std over %(trials)s trials).") % values
        else:
            text += " " + _("Mean per-fold accuracy (CODAH) %(mean)s%%.") % values
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
        label = _("Fold %(fold)s") % {"fold": fold + 1} + (f" ({size})" if size is not None else "")
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
