"""The rows and card inputs of an annotation project's release, in the ``squad_v2`` schema.

``--status accepted``: submitted questions without an open flag; ``all``: every submitted one.
Drafts and removed questions are never released. Human EM/F1 is the latest finished evaluation
report's (blind second-pass answers, ``evaluation/reports/projects.py``).
"""
from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import Prefetch

from annotation.models import Project, QuestionFlag, SpanAnswer, SpanQuestion
from evaluation.selectors import reports as report_selectors
from evaluation.selectors.releases import (
    ReleaseContent,
    ReleaseError,
    ReleaseOptions,
    bias_of,
    model_uses,
    release_source,
    weights_of,
)
from mlcore.data.release.card import SPAN, CardInputs, Rate, Validation, render_card
from mlcore.data.release.files import features_for
from mlcore.data.release.splits import SplitAssignment, article_split, author_split, pseudonymise

GOLD_KINDS = (SpanAnswer.Kind.ORIGINAL, SpanAnswer.Kind.CORRECTION, SpanAnswer.Kind.IMPORTED)
# A project has no validation step: "accepted" is the review's word for a question nobody flagged.
INCLUDED = {"accepted": "submitted questions without an open flag (drafts and removed questions are never released)",
            "all": "every submitted question, flagged or not (drafts and removed questions are never released)"}


def _author_id(q: SpanQuestion):
    """The recorded author, ``None`` for an imported question (written outside Stumper)."""
    return None if q.source == SpanQuestion.Source.IMPORTED else q.author_id


def _questions(project: Project, options: ReleaseOptions) -> tuple[list[SpanQuestion], Counter]:
    statuses = Counter(SpanQuestion.objects.filter(project=project).values_list("status", flat=True))
    if not statuses[SpanQuestion.Status.SUBMITTED]:
        drafts = f" ({statuses[SpanQuestion.Status.DRAFT]} draft(s) not submitted yet)" if statuses else ""
        raise ReleaseError(f"Project {project.name} has no submitted questions{drafts}: there is nothing to release.")
    submitted = (SpanQuestion.objects.filter(project=project, status=SpanQuestion.Status.SUBMITTED)
                 .select_related("paragraph__article", "author", "qa_model_version")
                 .prefetch_related(Prefetch("answers", queryset=SpanAnswer.objects.order_by("position", "id")),
                                   "second_pass_answers")
                 .order_by("id"))
    flagged = set(QuestionFlag.objects.filter(question__project=project, status=QuestionFlag.Status.OPEN)
                  .values_list("question_id", flat=True))
    questions = [q for q in submitted if options.status == "all" or q.pk not in flagged]
    if not questions:
        raise ReleaseError(f"Every submitted question of project {project.name} has an open flag "
                           f"({len(flagged)}): resolve the flags on the project's review page, or release the flagged "
                           "questions too.", fix=("status", "all"))
    excluded = Counter({s: n for s, n in statuses.items() if s != SpanQuestion.Status.SUBMITTED})
    if options.status == "accepted" and flagged:
        excluded["open flag"] = sum(1 for q in submitted if q.pk in flagged)
    return questions, excluded


def _split(project: Project, questions: list[SpanQuestion], options: ReleaseOptions) -> SplitAssignment:
    ids = [q.pk for q in questions]
    method = options.split_by or "article"
    if method == "folds":
        raise ReleaseError(f"Project {project.name} has no cross-validation folds: split it by article (its "
                           "train/validation/test articles) or by author.", fix=("split_by", "article"))
    if method == "article":
        return article_split(ids, [q.paragraph.article.split for q in questions])
    # Imported questions have no author: each is its own group.
    return author_split(ids, [_author_id(q) or f"none-{q.pk}" for q in questions], seed=options.seed)


def _agrees(second, gold: list[SpanAnswer]) -> bool:
    if second.is_impossible:
        return not gold
    return any(a.text == second.text for a in gold)


def _validation(project: Project, second_pass: int) -> Validation | None:
    run = report_selectors.latest_evaluation_run(project=project, finished=True)
    summary = (((run.result or {}).get("squad") or {}).get("summary") or {}) if run else {}
    if summary.get("human_f1") is None:
        if not second_pass:
            return None
        return Validation(None, 0, second_pass, None, None, None, 0,
                          f"{second_pass} second-pass answers; compute an evaluation report for human EM/F1.")
    return Validation(None, 0, int(summary.get("human_blind_answers") or 0), None, None, None, 0,
                      f"Human performance (blind second-pass answers against the first answer, evaluation report "
                      f"{run.pk}): EM {summary.get('human_exact'):.1f}, F1 {summary['human_f1']:.1f}.")


def project_release_content(*, project: Project, options: ReleaseOptions, key: bytes) -> ReleaseContent:
    """Rows per split, features and card of the project's release; a ReleaseError says what is missing."""
    if "fooled_cv" in options.fields:
        raise ReleaseError("fooled_cv is a field of rounds: span projects are not scored in cross-validation.",
                           field="fields")
    if "item_quality" in options.fields:
        raise ReleaseError("item_quality is a field of rounds: span projects have no item quality scores.",
                           field="fields")
    questions, excluded = _questions(project, options)
    weights = weights_of(project=project) if "weights" in options.fields else {}
    split = _split(project, questions, options)
    imported = sum(q.source == SpanQuestion.Source.IMPORTED for q in questions)
    source = release_source(options=options, written=len(questions) - imported, imported=imported,
                            recorded=(project.source_dataset, project.source_license), what=f"Project {project.name}")
    authors = [_author_id(q) for q in questions]
    names = pseudonymise([a for a in authors if a is not None], key=key)
    rows_by_split: dict[str, list[dict]] = {name: [] for name in split.names}
    kinds: dict[str, Counter] = defaultdict(Counter)
    second_pass = 0
    for q, split_name in zip(questions, split.splits):
        gold = [a for a in q.answers.all() if a.kind in GOLD_KINDS]
        seconds = list(q.second_pass_answers.all())
        second_pass += len(seconds)
        author = None if _author_id(q) is None else names(q.author_id) if options.pseudonymise else q.author.username
        rows_by_split[split_name].append(_row(q, author, options, seconds, gold, weights))
        kinds["unanswerable" if q.is_impossible else "answerable"][split_name] += 1
    fooled = [q.fooled_model for q in questions if q.fooled_model is not None]
    card = render_card(CardInputs(
        pretty_name=f"Stumper project {project.name}", kind=SPAN, source=f"the annotation project {project.name}",
        license=source.license, language=project.language, status=options.status, split_method=split.method,
        split_counts=split.counts(), category_counts={k: dict(v) for k, v in sorted(kinds.items())},
        status_counts={"submitted": len(questions)}, excluded_counts=dict(excluded),
        collected_from=min(q.created_at for q in questions).strftime("%Y-%m-%d %H:%M"),
        collected_to=max(q.created_at for q in questions).strftime("%Y-%m-%d %H:%M"),
        models=model_uses((q.qa_model_version, q.qa_model_revision, q.created_at)
                          for q in questions if q.qa_model_version_id is not None),
        fooled_live=Rate(sum(fooled), len(fooled)) if fooled else None, fooled_cv=None, cv_description="",
        validation=_validation(project, second_pass), answer_only=None, bias=bias_of(project=project),
        fields=options.fields, pseudonymised=options.pseudonymise,
        authors=len({a for a in authors if a is not None}), included=INCLUDED[options.status],
        unattributed=authors.count(None), imported=imported, imported_from=source.imported_from,
        source_datasets=source.source_datasets,
        limitations=("Unanswerable questions were written to look answerable (SQuAD 2.0, PQuAD); their "
                     "`answers` lists are empty.",),
    ))
    return ReleaseContent(f"stumper-{project.name}", SPAN, rows_by_split, features_for(SPAN, categories=[],
                          fields=options.fields), card, source.license)


def _row(q: SpanQuestion, author: str | None, options: ReleaseOptions, seconds: list, gold: list[SpanAnswer],
         weights: dict) -> dict:
    # Every span answer is a gold answer (SQuAD keeps the second-pass answers of evaluation splits too).
    answers = list(q.answers.all())
    row = {"id": q.qid, "title": q.paragraph.article.title, "context": q.paragraph.context, "question": q.question,
           "answers": {"text": [a.text for a in answers], "answer_start": [a.answer_start for a in answers]},
           "author": author, "created_at": q.created_at.isoformat()}
    fields = options.fields
    predicted = q.qa_model_version_id is not None
    if "predictions" in fields:
        row.update(model_prediction=q.qa_prediction_text if predicted else None,
                   model=q.qa_model_version.name if predicted else None,
                   model_revision=q.qa_model_revision if predicted else None, model_f1=q.qa_prediction_f1)
    if "fooled_live" in fields:
        row["fooled_live"] = q.fooled_model
    if "agreement" in fields:
        agreeing = sum(_agrees(s, gold) for s in seconds)
        row.update(second_pass_answers=len(seconds), second_pass_agreeing=agreeing,
                   agreement=agreeing / len(seconds) if seconds else None)
    if "weights" in fields:
        row["weight"] = weights.get((q.pk, q.qid))
    return row
