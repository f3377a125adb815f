"""The rows and card inputs of a round's release (ORM reads; the card itself is pure).

Statistics come from the functions the round's pages use: ``mlcore.models.crossval.fooled_cv`` and
``answer_only_summary``, ``mlcore.stats.human_accuracy.human_accuracy`` and ``pairwise_cohen_kappa`` (as
the quality page), and the bias headline of the latest finished evaluation report.
"""
from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from collector.models import CVPrediction, Prediction, Question, QuestionStatus, Round, ScoringRun
from collector.selectors.item_quality import item_quality_fields, round_item_quality
from collector.selectors.quality import MIN_SHARED_FOR_KAPPA
from collector.selectors.scoring import latest_scoring_run
from collector.selectors.validation import validation_answers
from evaluation.selectors.releases import (
    ReleaseContent,
    ReleaseError,
    ReleaseOptions,
    bias_of,
    model_uses,
    release_source,
    weights_of,
)
from mlcore.configs import CATEGORIES, NUM_CHOICES
from mlcore.data.release.card import MULTIPLE_CHOICE, AnswerOnly, CardInputs, Rate, Validation, render_card
from mlcore.data.release.files import features_for
from mlcore.data.release.splits import SplitAssignment, author_split, fold_split, pseudonymise
from mlcore.models.crossval import answer_only_summary, fooled_cv
from mlcore.stats.agreement import pairwise_cohen_kappa
from mlcore.stats.human_accuracy import human_accuracy

NEVER = (QuestionStatus.REJECTED, QuestionStatus.APPEALED)  # an appealed question is rejected until decided
UNCATEGORISED = "(uncategorised)"  # the card's row for questions with no category (CODAH has 10)


def _imported(q: Question) -> bool:
    # An imported question's ``author`` is whoever ran the import, not who wrote it: no author is released.
    return q.source == "imported"


def _questions(round_: Round, options: ReleaseOptions) -> list[Question]:
    counts = Counter(Question.objects.filter(round=round_).values_list("status", flat=True))
    if not counts:
        raise ReleaseError(f"Round {round_.name} has no questions yet: there is nothing to release.")
    wanted = [QuestionStatus.ACCEPTED] if options.status == "accepted" else [
        s for s in QuestionStatus.values if s not in NEVER]
    if not any(counts[s] for s in wanted):
        waiting = ", ".join(f"{counts[s]} {QuestionStatus(s).label.lower()}" for s in QuestionStatus.values if counts[s])
        if options.status == "accepted":
            raise ReleaseError(
                f"Round {round_.name} has no accepted questions yet ({waiting}): each question needs "
                f"{round_.validations_required} validator(s) agreeing with its answer key (or the owner's "
                "acceptance in review). Validate the round first, or release the questions not yet accepted too.",
                fix=("status", "all"))
        raise ReleaseError(f"Round {round_.name} has only rejected questions ({waiting}): there is nothing to release.")
    return list(Question.objects.filter(round=round_, status__in=wanted).select_related("author").order_by("id"))


def _cv(round_: Round, ids: list[int], gold: dict[int, int]) -> tuple[ScoringRun | None, dict, dict]:
    """The latest finished CV run, ``fooled_cv`` per question predicted in every trial, fold per question."""
    run = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION, finished=True)
    if run is None:
        return None, {}, {}
    picks: dict[int, dict[int, int]] = defaultdict(dict)
    folds: dict[int, int] = {}
    for qid, trial, fold, index in CVPrediction.objects.filter(run=run, question_id__in=ids).values_list(
            "question_id", "trial", "fold", "predicted_index"):
        picks[qid][trial] = index
        if trial == 0:
            folds[qid] = fold
    complete = sorted(q for q, t in picks.items() if len(t) == run.trials)
    if not complete:
        return run, {}, folds
    rates = fooled_cv([gold[q] for q in complete], [[picks[q][t] for q in complete] for t in range(run.trials)])
    return run, dict(zip(complete, (float(r) for r in rates))), folds


def _answer_only(round_: Round, ids: list[int], gold: dict[int, int]) -> AnswerOnly | None:
    run = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY, finished=True)
    if run is None:
        return None
    picks = dict(CVPrediction.objects.filter(run=run, trial=0, question_id__in=ids)
                 .values_list("question_id", "predicted_index"))
    scored = sorted(picks)
    if not scored:
        return None
    result = answer_only_summary([gold[q] for q in scored], [picks[q] for q in scored])
    return AnswerOnly(run.pk, result.statistic, result.correct, result.n, result.pvalue, result.chance)


def _validation(answers: list, released: int) -> Validation | None:
    if not answers:
        return None
    validated = len({a.question_id for a in answers})
    accuracy = human_accuracy([a.is_correct for a in answers]).overall
    ci = accuracy.confidence_interval()
    ratings: dict[int, dict[int, int]] = defaultdict(dict)
    for a in answers:
        if a.chosen_index is not None:
            ratings[a.validator_id][a.question_id] = a.chosen_index
    kappa = pairwise_cohen_kappa(ratings, labels=list(range(NUM_CHOICES)), min_shared=MIN_SHARED_FOR_KAPPA)
    defined = not np.isnan(kappa.statistic)
    return Validation(float(accuracy.statistic), accuracy.k, accuracy.n, float(ci.low), float(ci.high),
                      float(kappa.statistic) if defined else None,
                      sum(not np.isnan(p.result.statistic) for p in kappa.pairs),
                      f"{validated} of the {released} released questions have blind validation answers.")


def _included(options: ReleaseOptions, imported: int) -> str:
    """The release's filter in words; imported questions were accepted at import, not by validation here."""
    if options.status == "accepted":
        text = "questions with status accepted only"
        if imported:
            text += f" ({imported} of them imported, accepted at import as published, not validated here)"
    else:
        text = "every question not rejected (accepted, awaiting validation or in review)"
    return text + "; rejected questions (and rejected ones under appeal) are never released"


def _split(round_: Round, questions: list[Question], options: ReleaseOptions, folds: dict, run) -> SplitAssignment:
    ids = [q.pk for q in questions]
    method = options.split_by or "author"
    if method == "article":
        raise ReleaseError("A round has no articles: split it by author or by the cross-validation folds.",
                           fix=("split_by", "author"))
    if method == "author":
        # Imported questions have no recorded author: each is its own group.
        return author_split(ids, [f"none-{q.pk}" if _imported(q) else q.author_id for q in questions],
                            seed=options.seed)
    if run is None:
        raise ReleaseError(f"Round {round_.name} has no finished cross-validation scoring run, so it has no folds: "
                           "run “Score in cross-validation” on the round page, or split by author.",
                           fix=("split_by", "author"))
    missing = [q for q in ids if q not in folds]
    if missing:
        raise ReleaseError(f"{len(missing)} of the {len(ids)} questions to release are not in cross-validation "
                           f"scoring run {run.pk} (e.g. question {missing[0]}), so they have no fold: score the "
                           "round again, or split by author.", fix=("split_by", "author"))
    return fold_split(ids, folds)


def round_release_content(*, round_: Round, options: ReleaseOptions, key: bytes) -> ReleaseContent:
    """Rows per split, features and card of the round's release; a ReleaseError says what is missing."""
    questions = _questions(round_, options)
    ids = [q.pk for q in questions]
    gold = {q.pk: q.correct_index for q in questions}
    live = {p.question_id: p for p in Prediction.objects.filter(
        question_id__in=ids, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE,
        predicted_index__isnull=False).select_related("model_version")}
    cv_run, cv_rates, folds = _cv(round_, ids, gold)
    if "fooled_cv" in options.fields and cv_run is None:
        raise ReleaseError(f"fooled_cv needs a finished cross-validation scoring run of round {round_.name}; "
                           "run “Score in cross-validation” first, or leave the field out.", field="fields")
    weights = weights_of(round_=round_) if "weights" in options.fields else {}
    quality = round_item_quality(round_=round_) if "item_quality" in options.fields else None
    answers = validation_answers(question_ids=ids)
    by_question = defaultdict(list)
    for a in answers:
        by_question[a.question_id].append(a)
    split = _split(round_, questions, options, folds, cv_run)
    written = [q for q in questions if not _imported(q)]
    imported = len(questions) - len(written)
    source = release_source(options=options, written=len(written), imported=imported,
                            recorded=(round_.source_dataset, round_.source_license), what=f"Round {round_.name}")
    names = pseudonymise([q.author_id for q in written], key=key)
    categories = list(dict.fromkeys([*CATEGORIES, *sorted({c for q in questions for c in q.categories})]))
    rows_by_split: dict[str, list[dict]] = {name: [] for name in split.names}
    category_counts: dict[str, Counter] = defaultdict(Counter)
    for q, split_name in zip(questions, split.splits):
        author = None if _imported(q) else names(q.author_id) if options.pseudonymise else q.author.username
        row = _row(q, source.imported_from if _imported(q) else round_.name, options, author, categories,
                   live.get(q.pk), cv_rates.get(q.pk), by_question[q.pk], weights)
        if quality is not None:  # null scores until the round has people's and models' answers
            row.update(item_quality_fields(quality.get(q.pk)))
        rows_by_split[split_name].append(row)
        for category in q.categories or [UNCATEGORISED]:
            category_counts[category][split_name] += 1
    fooled = [p.fooled for p in live.values() if p.fooled is not None]
    excluded = Counter(Question.objects.filter(round=round_).exclude(pk__in=ids).values_list("status", flat=True))
    card = render_card(CardInputs(
        pretty_name=f"Stumper round {round_.name}", kind=MULTIPLE_CHOICE,
        source=f"round {round_.name} of the course {round_.course.name}", license=source.license, language="en",
        status=options.status, split_method=split.method, split_counts=split.counts(),
        category_counts={c: dict(category_counts[c]) for c in [*categories, UNCATEGORISED] if c in category_counts},
        status_counts=dict(Counter(q.status for q in questions)), excluded_counts=dict(excluded),
        collected_from=_day(min(q.created_at for q in questions)), collected_to=_day(max(q.created_at for q in questions)),
        models=model_uses((p.model_version, p.model_revision, p.computed_at) for p in live.values()),
        fooled_live=Rate(sum(fooled), len(fooled)) if fooled else None,
        fooled_cv=Rate(sum(cv_rates.values()), len(cv_rates)) if cv_rates else None,
        cv_description=(f"scoring run {cv_run.pk}: {cv_run.folds} folds × {cv_run.trials} trial(s) fine-tuning "
                        f"{cv_run.base_checkpoint}; a question counts by the share of trials that got it wrong")
        if cv_run else "",
        validation=_validation(answers, len(questions)), answer_only=_answer_only(round_, ids, gold),
        bias=bias_of(round_=round_), fields=options.fields, pseudonymised=options.pseudonymise,
        authors=len({q.author_id for q in written}), included=_included(options, imported), unattributed=imported,
        imported=imported, imported_from=source.imported_from, source_datasets=source.source_datasets,
    ))
    features = features_for(MULTIPLE_CHOICE, categories=categories, fields=options.fields)
    return ReleaseContent(f"stumper-{round_.name}", MULTIPLE_CHOICE, rows_by_split, features, card, source.license)


def _day(value) -> str:
    return value.strftime("%Y-%m-%d %H:%M")


def _row(q: Question, source: str, options: ReleaseOptions, author: str | None, categories: list[str], live: Prediction | None,
         cv_rate: float | None, answers: list, weights: dict) -> dict:
    row = {"id": q.pk, "source": source, "author": author, "prompt": q.prompt,
           "choices": list(q.choices), "answer": q.correct_index,
           "categories": [categories.index(c) for c in q.categories], "status": q.status,
           "created_at": q.created_at.isoformat()}
    fields = options.fields
    if "predictions" in fields:
        row.update(live_prediction=live.predicted_index if live else None,
                   live_model=live.model_version.name if live and live.model_version else None,
                   live_model_revision=live.model_revision if live else None,
                   live_probs=list(live.probs) if live and live.probs else None)
    if "fooled_live" in fields:
        row["fooled_live"] = live.fooled if live else None
    if "fooled_cv" in fields:
        row["fooled_cv"] = cv_rate
    if "agreement" in fields:
        agreeing = sum(a.is_correct for a in answers)
        row.update(validations=len(answers), validators_agreeing=agreeing,
                   agreement=agreeing / len(answers) if answers else None)
    if "weights" in fields:
        found = [weights.get((q.pk, i)) for i in range(NUM_CHOICES)]
        row["weights"] = None if any(w is None for w in found) else found
    return row
