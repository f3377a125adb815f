"""Turn questions and their live predictions into what pages and the API show.

Pure functions over already-fetched objects (no queries beyond the selectors' prefetches), so
the dashboard, the instructor table and the API describe a prediction the same way.
"""
from dataclasses import dataclass

from collector import selectors
from collector.cv_accuracy import FOLD_MEAN_LABEL, POOLED_LABEL, fold_questions, small_folds_warning
from collector.models import LETTERS, Prediction, Question, ScoringRun, TrainingJob


@dataclass(frozen=True)
class ChoiceView:
    letter: str
    text: str
    is_correct: bool
    is_predicted: bool
    percent: float | None  # the model's probability in percent; None while pending


@dataclass(frozen=True)
class QuestionView:
    question: Question
    prediction: Prediction | None
    state: str  # "fooled" | "not_fooled" | "pending"
    choices: list[ChoiceView]
    predicted_text: str | None
    predicted_letter: str | None
    credit: float
    model_name: str | None
    fooled_cv: float | None  # share of CV trials fooled; None until scored in cross-validation
    cv_text: str  # "yes" | "no" | "67% of trials" | "not scored yet"
    live_credit: float
    cv_credit: float


@dataclass(frozen=True)
class CategoryBar:
    name: str
    count: int
    percent: float  # of the largest category, for the bar's length


def _is_done(prediction: Prediction | None) -> bool:
    return (
        prediction is not None
        and prediction.status == Prediction.Status.DONE
        and prediction.predicted_index is not None
        and prediction.probs is not None
    )


def prediction_state(prediction: Prediction | None) -> str:
    if not _is_done(prediction) or prediction.fooled is None:
        return "pending"
    return "fooled" if prediction.fooled else "not_fooled"


def question_view(question: Question) -> QuestionView:
    prediction = selectors.live_prediction_of(question)
    done = _is_done(prediction)
    predicted = prediction.predicted_index if done else None
    choices = [
        ChoiceView(
            letter=LETTERS[i],
            text=text,
            is_correct=i == question.correct_index,
            is_predicted=i == predicted,
            percent=round(100 * float(prediction.probs[i]), 1) if done else None,
        )
        for i, text in enumerate(question.choices)
    ]
    version = prediction.model_version if prediction is not None else None
    fooled_cv = getattr(question, "fooled_cv", None)
    credit = selectors.question_credit(question=question, prediction=prediction)
    live_credit = question.round.weight_live * float(bool(prediction is not None and prediction.fooled))
    if not selectors.question_earns_credit(question):
        live_credit = 0.0
    return QuestionView(
        question=question,
        prediction=prediction,
        state=prediction_state(prediction),
        choices=choices,
        predicted_text=question.choices[predicted] if predicted is not None else None,
        predicted_letter=LETTERS[predicted] if predicted is not None else None,
        credit=credit,
        model_name=version.name if version is not None else None,
        fooled_cv=fooled_cv,
        cv_text=cv_text(fooled_cv),
        live_credit=live_credit,
        cv_credit=credit - live_credit,
    )


def cv_text(fooled_cv: float | None) -> str:
    """How a question did in cross-validation, in words."""
    if fooled_cv is None:
        return "not scored yet"
    if fooled_cv >= 1.0:
        return "yes"
    if fooled_cv <= 0.0:
        return "no"
    return f"{100 * fooled_cv:.0f}% of trials"


def prediction_payload(question: Question) -> dict:
    """The JSON description of a question's live prediction (API responses)."""
    prediction = selectors.live_prediction_of(question)
    done = _is_done(prediction)
    version = prediction.model_version if prediction is not None else None
    return {
        "status": prediction.status if prediction is not None else Prediction.Status.PENDING,
        "probs": [float(p) for p in prediction.probs] if done else None,
        "predicted": prediction.predicted_index if done else None,
        "predicted_text": question.choices[prediction.predicted_index] if done else None,
        "fooled": prediction.fooled if done else None,
        "model_version": version.name if version is not None else None,
    }


def submit_message(question: Question) -> str:
    """The message shown after a submission: did the question stump the model?"""
    view = question_view(question)
    if view.state == "fooled":
        return f"Stumped! The model picked “{view.predicted_text}”, but the right answer is “{question.choices[question.correct_index]}”."
    if view.state == "not_fooled":
        return f"Not fooled: the model picked “{view.predicted_text}”, the right answer. Your question is saved."
    return "Saved; the model's answer is pending — it will be computed shortly."


def category_bars(per_category: dict[str, int]) -> list[CategoryBar]:
    largest = max(per_category.values(), default=0)
    return [
        CategoryBar(name=name, count=count, percent=(100.0 * count / largest) if largest else 0.0)
        for name, count in per_category.items()
    ]


def duration(seconds: int) -> str:
    """``83`` -> ``"1:23"``; hours as ``"1:02:03"``."""
    seconds = max(0, int(seconds or 0))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# --- Scoring runs: one description for the round page, the websocket and the CLI ---------------


def scoring_run_payload(run: ScoringRun) -> dict:
    """``{id, kind, status, progress, summary, error, display}`` of one scoring run.

    ``display`` holds the same run in words (status, progress line, result line, a warning when
    folds are too small, per-fold bars), so the page, ``scoring.js`` and ``score_round`` say the
    same thing. The worker's host and
    pid (``progress["owner"]``) stay on the server.
    """
    progress = {key: value for key, value in (run.progress or {}).items() if key != "owner"}
    summary = run.summary or {}
    return {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "progress": progress,
        "summary": summary,
        "error": run.error,
        "display": {
            "kind": run.get_kind_display(),
            "status": run.get_status_display(),
            "percent": scoring_percent(run.status, progress),
            "progress": scoring_progress_text(run, progress),
            "result": scoring_result_text(run.kind, summary) if run.status == ScoringRun.Status.DONE else "",
            "warning": small_folds_warning(summary) if run.status == ScoringRun.Status.DONE else "",
            "folds": fold_bars(summary),
        },
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
    under its own name (``collector/cv_accuracy.py``); or answer-only accuracy vs chance."""
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


def training_job_payload(job: TrainingJob) -> dict:
    """``{id, name, status, error, display}`` of a training job, worded for the round page."""
    progress = job.progress or {}
    total, step = progress.get("total_steps") or 0, progress.get("step") or 0
    if job.status == TrainingJob.Status.DONE:
        percent, text = 100.0, "Finished."
    elif job.status == TrainingJob.Status.QUEUED:
        percent, text = 0.0, "Waiting for a worker to start it."
    elif job.status == TrainingJob.Status.FAILED:
        percent, text = 100.0 * step / total if total else 0.0, "Failed."
    elif total:
        percent = 100.0 * step / total
        text = f"Epoch {progress.get('epoch', 1)} · step {step}/{total}"
        if progress.get("loss") is not None:
            text += f" · loss {progress['loss']:.3f}"
        if progress.get("eta_seconds") is not None:
            text += f" · about {duration(progress['eta_seconds'])} left"
    else:
        percent, text = 0.0, "Loading the base model and the questions."
    result = ""
    if job.status == TrainingJob.Status.DONE and job.model_version is not None:
        result = f"Registered model version {job.model_version.name}"
        result += f", now live in round {job.make_live_round.name}." if job.make_live_round else "."
    return {
        "id": job.pk, "name": job.name, "status": job.status, "error": job.error,
        "display": {"status": job.get_status_display(), "percent": round(percent, 1), "progress": text, "result": result},
    }
