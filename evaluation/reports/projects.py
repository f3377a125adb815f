"""The report of a span-annotation project: PQuAD-style EM/F1 (SPEC-bias §6), lexical artifacts of
its questions (answerable vs unanswerable) and the QA ambiguity probes.

``project_report`` computes the data sections from ``evaluation.selectors.reports.project_report_inputs``
without touching the database; the ambiguity probes (``evaluation/services/ambiguity.py``) load
their model and passages themselves and are called through
``evaluation.services.ambiguity_datasets.ambiguity_sections``.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from evaluation.reports.lexical import HeldOutPredictions, LexicalInstances, lexical_section
from evaluation.reports.sections import Progress, ReportInputs, section, table, unavailable
from mlcore.stats.annotation_stats import human_performance
from mlcore.stats.squad_metrics import SquadAnswer, SquadQuestion, normalize_en, normalize_fa, squad_evaluate

LABELS = ("answerable", "unanswerable")
SPLITS = ("train", "validation", "test")


@dataclass(frozen=True)
class SpanQuestionRecord:
    id: int
    qid: str
    question: str
    context: str
    title: str
    split: str
    is_impossible: bool
    answers: tuple[str, ...]
    answer_starts: tuple[int, ...]
    prediction: str | None  # the model-in-the-loop answer ("" = no answer); None: never predicted
    model_version_id: int | None


@dataclass(frozen=True)
class ProjectReportInputs(ReportInputs):
    project_name: str
    language: str
    questions: tuple[SpanQuestionRecord, ...]
    # Human performance: (gold texts, answer) of each blind second-pass answer (annotation.selectors.stats.blind_answers).
    human_pairs: tuple[tuple[tuple[str, ...], str], ...] = ()
    human_left_out: int = 0


def project_report(inputs: ProjectReportInputs, *, config: dict, progress: Progress) -> dict[str, dict]:
    """Overview, SQuAD metrics and lexical artifacts of the project's submitted questions."""
    progress("EM/F1 per split", 0.02)
    data, held_out, note = _lexical_instances(inputs)
    return {
        "overview": _overview(inputs), "squad": _squad(inputs),
        "lexical": lexical_section(data, held_out=held_out, config=config, progress=progress,
                                   empty_note="The project has no submitted questions yet.", no_predictions_note=note),
    }


def _overview(inputs: ProjectReportInputs) -> dict:
    questions = inputs.questions
    summary = {
        "project": inputs.project_name, "language": inputs.language, "questions": len(questions),
        "answerable": sum(not q.is_impossible for q in questions),
        "unanswerable": sum(q.is_impossible for q in questions),
        **{f"{split}_questions": sum(q.split == split for q in questions) for split in SPLITS},
        "with_model_answer": sum(q.prediction is not None for q in questions),
        "data_digest": inputs.digest()[:16],
    }
    note = "" if questions else "The project has no submitted questions yet."
    return section("Data and models", summary=summary, note=note)


def _squad_question(q: SpanQuestionRecord) -> SquadQuestion:
    answers = () if q.is_impossible else tuple(SquadAnswer(t, s) for t, s in zip(q.answers, q.answer_starts))
    return SquadQuestion(q.qid, q.question, q.context, q.title, answers, q.is_impossible)


def _squad(inputs: ProjectReportInputs) -> dict:
    title = "Question answering: EM and F1 (SQuAD 2.0 / PQuAD style)"
    if not inputs.questions:
        return unavailable(title, "The project has no submitted questions yet.")
    predictions = {q.qid: q.prediction for q in inputs.questions if q.prediction is not None}
    normalizers = ("fa", "en") if inputs.language == "fa" else ("en",)
    if not predictions:
        return _squad_without_model(title, inputs, normalizers)
    # PQuAD publishes no script: Persian is scored with the §6.2 normalizer and, for comparison
    # with an unmodified SQuAD script, with the English one too.
    groups = [("all", inputs.questions)] + [
        (split, tuple(q for q in inputs.questions if q.split == split)) for split in SPLITS
    ]
    rows, chart_groups, series = [], [], {"EM": [], "F1": [], "HasAns F1": [], "NoAns": []}
    for name, questions in groups:
        if not questions:
            continue
        for normalizer in normalizers:
            r = squad_evaluate([_squad_question(q) for q in questions], predictions, normalizer=normalizer)
            rows.append([name, normalizer, r.exact, r.f1, r.has_ans_exact, r.has_ans_f1, r.no_ans_exact, r.no_ans_f1,
                         r.avna, r.total, r.has_ans_total, r.no_ans_total, r.n_missing])
            if normalizer == normalizers[0]:
                chart_groups.append(name)
                for key, value in (("EM", r.exact), ("F1", r.f1), ("HasAns F1", r.has_ans_f1),
                                   ("NoAns", r.no_ans_exact)):
                    series[key].append(None if value is None else value / 100)
    missing = len(inputs.questions) - len(predictions)
    note = ("These are the answers of the model in the loop when each question was written: authors tried to fool "
            "it, so low scores are the point.")
    if missing:
        note += f" {missing} question(s) have no model answer and are scored as “no answer” (counted as missing)."
    metrics = table(
        "EM and F1 in percent, overall and per split (NoAns EM = NoAns F1; AvNA = answered vs not)",
        ["split", "normalizer", "exact", "f1", "HasAns_exact", "HasAns_f1", "NoAns_exact", "NoAns_f1", "AvNA", "total",
         "HasAns_total", "NoAns_total", "missing"],
        rows,
    )
    chart = {"kind": "grouped_bar", "title": f"EM and F1 per split ({normalizers[0]} normalizer)", "format": "percent",
             "x_label": "score", "y_label": "Split", "value_label": "score",
             "max": 1.0, "groups": chart_groups, "series": [{"name": k, "values": v} for k, v in series.items()]}
    overall = rows[0]
    summary = {"exact": overall[2], "f1": overall[3], "HasAns_f1": overall[5], "NoAns_f1": overall[7],
               "normalizer": normalizers[0], "missing": missing}
    human_summary, human_table, human_note = _human_performance(inputs, normalizers)
    return section(title, summary={**summary, **human_summary}, tables={"metrics": metrics, "human": human_table},
                   charts={"by_split": chart}, note=f"{note} {human_note}")


def _squad_without_model(title: str, inputs: ProjectReportInputs, normalizers: tuple[str, ...]) -> dict:
    """No model answered any question (the project's model is "none"): scoring "no answer" against
    the gold answers would only measure the share of unanswerable questions, so no model score is
    given; what the data supports is the people's agreement."""
    human_summary, human_table, human_note = _human_performance(inputs, normalizers)
    note = _("No model answered these questions (the project has no model in the loop), so there is no model "
             "score: scoring “no answer” against the gold answers would only count the unanswerable questions.")
    summary = {"with_model_answer": 0, **human_summary}
    return section(title, summary=summary, tables={"human": human_table}, note=f"{note} {human_note}")


def _human_performance(inputs: ProjectReportInputs, normalizers: tuple[str, ...]) -> tuple[dict, dict, str]:
    """Human EM/F1 from the blind second-pass answers only (each worker's first, final answer)."""
    n = len(inputs.human_pairs)
    results = [human_performance(inputs.human_pairs, normalizer=name) for name in normalizers] if n else []
    rows = [[r.normalizer, r.n, r.exact, r.f1, r.has_ans_exact, r.has_ans_f1, r.no_ans_exact, r.has_ans_n, r.no_ans_n]
            for r in results]
    human = table(f"Human EM/F1 from {n} blind second-pass answers, scored against the first answer (percent)",
                  ["normalizer", "blind_answers", "exact", "f1", "HasAns_exact", "HasAns_f1", "NoAns_exact",
                   "HasAns_answers", "NoAns_answers"], rows)
    left_out = (f" {inputs.human_left_out} more second-pass answer(s) are left out: they have no independent "
                "first answer to compare with." if inputs.human_left_out else "")
    note = (f"Human EM/F1 from {n} blind second-pass answers: each worker's first answer, given before the "
            "original answer was shown and final after it; corrections proposed after seeing the original are flags, "
            f"not answers.{left_out}")
    summary = {"human_exact": results[0].exact if results else None, "human_f1": results[0].f1 if results else None,
               "human_blind_answers": n}
    return summary, human, note


def _answered(prediction: str, language: str) -> bool:
    return bool((normalize_fa if language == "fa" else normalize_en)(prediction))


def _lexical_instances(inputs: ProjectReportInputs) -> tuple[LexicalInstances, HeldOutPredictions | None, str]:
    """Questions labelled answerable/unanswerable: statistics from the train split, the test on
    the validation and test splits (the model "predicts" answerable when it gives an answer)."""
    def label(q) -> str:
        return LABELS[1] if q.is_impossible else LABELS[0]

    train = [q for q in inputs.questions if q.split == "train"]
    note = ""
    if len({label(q) for q in train}) < 2:
        train = list(inputs.questions)
        note = ("The train split lacks answerable or unanswerable questions, so the statistics use every question "
                "and no held-out test is possible. ")
    data = LexicalInstances(keys=tuple((q.id, q.qid) for q in train), texts=tuple(q.question for q in train),
                            labels=tuple(label(q) for q in train), label_set=LABELS,
                            key_columns=("question_id", "qid"))
    held = [q for q in inputs.questions if q.split in ("validation", "test") and q.prediction is not None]
    if note or not held:
        return data, None, note + "No validation or test question has a model answer yet, so the model's reliance on these features cannot be tested."
    held_out = HeldOutPredictions(
        name="validation + test splits", texts=tuple(q.question for q in held), gold=tuple(label(q) for q in held),
        predictions=tuple(LABELS[0] if _answered(q.prediction, inputs.language) else LABELS[1] for q in held),
    )
    return data, held_out, ""
