"""Reads of a finished report's reweighting weights, for dataset exports.

The lexical section of a report stores the weights n·q of every instance as the table
``result["lexical"]["tables"]["weights"]`` with rows ``[*key, label, weight]``: a round's
instances are completions keyed ``(question_id, choice_index)``, a project's are questions keyed
``(question_id, qid)`` (only the questions the statistics were computed on, normally the train
split). The CODAH and SQuAD exports look their rows up in the mapping returned here.
"""
from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from annotation.models import Project
from collector.models import Round
from evaluation.models import EvaluationRun

SECTION = "lexical"
TABLE = "weights"
KEY_COLUMNS = {
    EvaluationRun.Target.ROUND: ("question_id", "choice_index"),
    EvaluationRun.Target.PROJECT: ("question_id", "qid"),
}

InstanceKey = tuple[int, int] | tuple[int, str]


def _target_filter(round_: Round | None, project: Project | None) -> dict:
    if (round_ is None) == (project is None):
        raise TypeError("give exactly one of round_ and project")
    return {"round": round_} if round_ is not None else {"project": project}


def evaluation_runs_with_weights(*, round_: Round | None = None,
                                 project: Project | None = None) -> QuerySet[EvaluationRun]:
    """The target's finished reports that stored a weights table, newest first (export form choices)."""
    return (EvaluationRun.objects.filter(**_target_filter(round_, project), status=EvaluationRun.Status.DONE,
                                         **{f"result__{SECTION}__tables__has_key": TABLE})
            .select_related("model_version").order_by("-created_at", "-pk"))


def evaluation_run_weights(*, run_id: int, round_: Round | None = None,
                           project: Project | None = None) -> dict[InstanceKey, float]:
    """``instance key -> weight`` of report ``run_id``, which must be a finished report of the
    given round (or project) with a weights table.

    Raises
    ------
    ValidationError
        If there is no such report of this target (another target's report is not told apart
        from a missing one), it has not finished, or it stored no weights (e.g. a round with one
        label only), each with a message meant for the user.
    """
    run = EvaluationRun.objects.filter(pk=run_id, **_target_filter(round_, project)).first()
    target = f"round {round_.name}" if round_ is not None else f"project {project.name}"
    if run is None:
        raise ValidationError(f"Evaluation report {run_id} is not a report of {target}.", code="not_found")
    if run.status != EvaluationRun.Status.DONE:
        raise ValidationError(f"Evaluation report {run_id} has not finished (it is {run.get_status_display().lower()}); "
                              "only a finished report has weights.", code="not_finished")
    lexical = (run.result or {}).get(SECTION) or {}
    weights = (lexical.get("tables") or {}).get(TABLE)
    if not weights:
        reason = f" ({lexical['note']})" if lexical.get("note") else ""
        raise ValidationError(f"Evaluation report {run_id} has no weights table{reason}.", code="no_weights")
    return _weights_by_key(weights, KEY_COLUMNS[run.target], run_id)


def _weights_by_key(weights: dict, key_columns: tuple[str, ...], run_id: int) -> dict[InstanceKey, float]:
    # A table in another layout (an older report) would silently match nothing, so it is refused.
    if list(weights.get("columns") or ()) != [*key_columns, "label", "weight"]:
        raise ValidationError(f"Evaluation report {run_id} stores its weights in an unknown layout; "
                              "compute a new report.", code="bad_layout")
    n = len(key_columns)
    out: dict[InstanceKey, float] = {}
    for row in weights.get("rows") or ():
        weight = row[n + 1]
        if not isinstance(weight, (int, float)) or not math.isfinite(weight):
            raise ValidationError(f"Evaluation report {run_id} has a weight that is not a number: {weight!r}.",
                                  code="bad_layout")
        out[tuple(row[:n])] = float(weight)
    return out
