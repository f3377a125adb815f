"""The round's quality report: status counts, human accuracy, agreement, validators' workload and
speed, the coach's warnings and near-duplicates (the quality page and its API)."""
import statistics
from collections import defaultdict

from django.db.models import Count

from accounts.models import User
from collector.models import NUM_CHOICES, Appeal, Question, QuestionStatus, Round, Validation
from collector.selectors.coach import coach_report
from collector.selectors.duplicates import duplicate_flag_counts
from collector.selectors.validation import ValidatorAnswer, validation_answers
from mlcore.stats.agreement import fleiss_kappa, pairwise_cohen_kappa, rating_counts
from mlcore.stats.human_accuracy import human_accuracy

MIN_SHARED_FOR_KAPPA = 5


def status_counts(*, round_: Round) -> dict[str, int]:
    rows = Question.objects.filter(round=round_).values("status").annotate(n=Count("id"))
    counts = dict.fromkeys(QuestionStatus.values, 0)
    counts.update({row["status"]: row["n"] for row in rows})
    return counts


def _interval(result) -> dict:
    ci = result.confidence_interval()
    return {"low": _finite(ci.low), "high": _finite(ci.high)}


def _finite(value: float) -> float | None:
    return None if value != value else round(float(value), 4)  # nan -> None (JSON has no NaN)


def _accuracy_report(answers: list[ValidatorAnswer], categories: list[str]) -> dict:
    result = human_accuracy([a.is_correct for a in answers], [a.categories for a in answers])
    overall = result.overall
    per_category = [
        {"category": name, "accuracy": _finite(r.statistic), "correct": r.k, "n": r.n, "ci": _interval(r)}
        for name, r in result.per_group.items() if name in categories
    ]
    return {
        "accuracy": _finite(overall.statistic), "correct": overall.k, "n": overall.n, "ci": _interval(overall),
        "per_category": per_category,
    }


def _answer_kappa(answers: list[ValidatorAnswer]) -> dict:
    ratings: dict[int, dict[int, int]] = defaultdict(dict)
    for a in answers:
        if a.chosen_index is not None:
            ratings[a.validator_id][a.question_id] = a.chosen_index
    result = pairwise_cohen_kappa(ratings, labels=list(range(NUM_CHOICES)), min_shared=MIN_SHARED_FOR_KAPPA)
    names = dict(User.objects.filter(pk__in=list(ratings)).values_list("pk", "username"))
    pairs = [
        {"a": names.get(p.rater_a), "b": names.get(p.rater_b), "kappa": _finite(p.result.statistic), "n": p.result.n,
         "ci": _interval(p.result)}
        for p in result.pairs
    ]
    return {"mean": _finite(result.statistic), "pairs": pairs, "min_shared": MIN_SHARED_FOR_KAPPA}


def _category_kappa(round_: Round, answers: list[ValidatorAnswer]) -> dict:
    """Fleiss' kappa of category labels: each (question, category) is an item the author and
    the first ``validations_required`` validators marked present or absent."""
    raters = round_.validations_required + 1
    by_question: dict[int, list[ValidatorAnswer]] = defaultdict(list)
    for a in answers:
        by_question[a.question_id].append(a)
    offered = list(round_.categories)
    rows, per_category_rows = [], defaultdict(list)
    for question_answers in by_question.values():
        if len(question_answers) < raters - 1:
            continue
        label_sets = [set(question_answers[0].categories)] + [set(a.validator_categories) for a in question_answers[: raters - 1]]
        for category in offered:
            row = ["yes" if category in labels else "no" for labels in label_sets]
            rows.append(row)
            per_category_rows[category].append(row)
    if not rows:
        return {"kappa": None, "items": 0, "raters": raters, "per_category": []}

    def kappa(table_rows: list[list[str]]) -> float | None:
        return _finite(fleiss_kappa(rating_counts(table_rows, ("yes", "no"))).statistic)

    return {
        "kappa": kappa(rows), "items": len(rows), "questions": len(rows) // max(len(offered), 1), "raters": raters,
        "per_category": [{"category": c, "kappa": kappa(r), "items": len(r)} for c, r in per_category_rows.items()],
    }


def _validator_stats(answers: list[ValidatorAnswer]) -> list[dict]:
    by_validator: dict[int, list[ValidatorAnswer]] = defaultdict(list)
    for a in answers:
        by_validator[a.validator_id].append(a)
    names = dict(User.objects.filter(pk__in=list(by_validator)).values_list("pk", "username"))
    stats = [
        {
            "validator": names.get(pk, str(pk)), "validations": len(rows),
            "median_seconds": statistics.median(r.seconds_spent for r in rows),
            "accuracy": round(sum(r.is_correct for r in rows) / len(rows), 4),
            "flags": sum(len(r.flags) for r in rows),
        }
        for pk, rows in by_validator.items()
    ]
    stats.sort(key=lambda s: (-s["validations"], s["validator"]))
    return stats


def round_quality_report(*, round_: Round) -> dict:
    """Status counts, human accuracy, agreement, validators' workload and speed, the coach's
    warnings and near-duplicates of a round (the quality page and its API)."""
    answers = validation_answers(round_=round_)
    return {
        "round": round_.name,
        "status": status_counts(round_=round_),
        "validations": len(answers),
        "human_accuracy": _accuracy_report(answers, list(round_.categories)),
        "answer_agreement": _answer_kappa(answers),
        "category_agreement": _category_kappa(round_, answers),
        "validators": _validator_stats(answers),
        "coach": coach_report(round_=round_),
        "duplicates_flagged": duplicate_flag_counts(round_=round_),
        "open_appeals": Appeal.objects.filter(question__round=round_, status=Appeal.Status.OPEN).count(),
        "flags": _flag_counts(round_),
    }


def _flag_counts(round_: Round) -> dict[str, int]:
    counts = dict.fromkeys(Validation.Flag.values, 0)
    for flags in Validation.objects.filter(question__round=round_).exclude(flags=[]).values_list("flags", flat=True):
        for flag in flags:
            counts[flag] = counts.get(flag, 0) + 1
    return counts
