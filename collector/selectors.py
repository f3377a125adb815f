"""Read-only queries of the collector; views, consumers and commands read through these."""
import re
from collections.abc import Mapping

from django.db.models import (
    Avg,
    BooleanField,
    Case,
    Count,
    F,
    FloatField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone

from accounts.models import User
from collector.cv_accuracy import small_folds_warning, smallest_fold
from collector.models import CVPrediction, Prediction, Question, Round, ScoringFold, ScoringRun, TrainingJob
from core.exceptions import AccessError
from courses.models import Course
from courses.selectors import user_in_course, user_manages_course
from mlcore.configs import CATEGORIES, MCExample
from mlcore.data.codah import format_codah_tsv
from modelhub.models import ModelVersion


def rounds_for_user(*, user: User) -> QuerySet[Round]:
    """Rounds a user can see: of courses they are in, or all of them for staff."""
    rounds = Round.objects.select_related("course", "live_model")
    if user.is_staff or user.is_superuser:
        return rounds.all()
    return rounds.filter(
        Q(course__enrollments__user=user) | Q(course__owner=user) | Q(course__instructors=user)
    ).distinct()


def round_get(*, round_id: int) -> Round:
    try:
        return Round.objects.select_related("course", "live_model").get(pk=round_id)
    except (Round.DoesNotExist, ValueError, TypeError):
        raise AccessError("This round does not exist.") from None


def round_get_by_name(*, name: str) -> Round:
    try:
        return Round.objects.select_related("course", "live_model").get(name=name)
    except Round.DoesNotExist:
        raise AccessError(f"No round is named {name!r}.") from None


def user_get_by_username(*, username: str) -> User:
    try:
        return User.objects.get(username=username)
    except User.DoesNotExist:
        raise AccessError(f"No user is named {username!r}.") from None


def round_for_author(*, user: User, round_id: int) -> Round:
    """The round if ``user`` may write questions in it now; otherwise a clear AccessError."""
    if not user.is_authenticated:
        raise AccessError("Please sign in to write questions.")
    round_ = round_get(round_id=round_id)
    if not user_in_course(user=user, course=round_.course):
        raise AccessError("This round belongs to a course you are not enrolled in.")
    if not round_.is_open():
        raise AccessError("This round is closed: it no longer accepts questions.")
    return round_


def round_for_manager(*, user: User, round_id: int) -> Round:
    round_ = round_get(round_id=round_id)
    if not user_manages_course(user=user, course=round_.course):
        raise AccessError("Only the course's instructors can open this page.")
    return round_


def _latest_done_run(kind: str) -> Subquery:
    # Nested in the CV-prediction subquery below, hence the double OuterRef to the question.
    runs = ScoringRun.objects.filter(round=OuterRef(OuterRef("round_id")), kind=kind, status=ScoringRun.Status.DONE)
    return Subquery(runs.order_by("-finished_at", "-pk").values("pk")[:1])


def _fooled_cv_fraction() -> Subquery:
    """Share of trials whose out-of-fold model got the question wrong, in the latest finished run."""
    rows = CVPrediction.objects.filter(question=OuterRef("pk"), run=_latest_done_run(ScoringRun.Kind.CROSS_VALIDATION))
    fooled = Avg(Case(When(correct=False, then=Value(1.0)), default=Value(0.0), output_field=FloatField()))
    return Subquery(rows.values("question").annotate(fooled=fooled).values("fooled")[:1], output_field=FloatField())


def _answer_only_correct() -> Subquery:
    rows = CVPrediction.objects.filter(question=OuterRef("pk"), run=_latest_done_run(ScoringRun.Kind.ANSWER_ONLY), trial=0)
    return Subquery(rows.values("correct")[:1], output_field=BooleanField())


def _with_live_prediction(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Questions with their live prediction prefetched and ``fooled_cv`` / ``answer_only_correct``
    annotated (None until a scoring run of that kind has finished)."""
    live = Prediction.objects.filter(kind=Prediction.Kind.LIVE).select_related("model_version")
    return questions.prefetch_related(Prefetch("predictions", queryset=live, to_attr="live_predictions")).annotate(
        fooled_cv=_fooled_cv_fraction(), answer_only_correct=_answer_only_correct()
    )


def live_prediction_of(question: Question) -> Prediction | None:
    """The live prediction, using the prefetch from the selectors above when present."""
    if hasattr(question, "live_predictions"):
        return question.live_predictions[0] if question.live_predictions else None
    return question.predictions.filter(kind=Prediction.Kind.LIVE).first()


def questions_of_author(*, user: User, round_: Round | None = None) -> QuerySet[Question]:
    # The appeal too: the dashboard shows a rejected question's appeal and its answer.
    questions = Question.objects.filter(author=user).select_related("round", "round__course", "appeal")
    if round_ is not None:
        questions = questions.filter(round=round_)
    return _with_live_prediction(questions)


def round_questions(
    *,
    round_: Round,
    category: str | None = None,
    fooled: bool | None = None,
    author_id: int | None = None,
    search: str = "",
) -> QuerySet[Question]:
    questions = Question.objects.filter(round=round_).select_related("author", "round")
    if category:
        # A quoted substring match on the JSON text works on SQLite and PostgreSQL alike and is
        # exact, because category names contain no quotes.
        questions = questions.filter(categories__icontains=f'"{category}"')
    if fooled is not None:
        questions = questions.filter(predictions__kind=Prediction.Kind.LIVE, predictions__fooled=fooled)
    if author_id:
        questions = questions.filter(author_id=author_id)
    if search:
        questions = questions.filter(prompt__icontains=search)
    return _with_live_prediction(questions)


def question_credit(*, question: Question, prediction: Prediction | None) -> float:
    """Credit = weight_live x fooled_live + weight_cv x fooled_cv (fooled_cv: share of trials),
    for questions that earn credit at all (``question_earns_credit``).

    ``fooled_cv`` comes from the annotation of the selectors above; a question not yet scored in
    cross-validation earns only its live credit.
    """
    if not question_earns_credit(question):
        return 0.0
    live = float(bool(prediction and prediction.fooled))
    cv = getattr(question, "fooled_cv", None) or 0.0
    return question.round.weight_live * live + question.round.weight_cv * cv


def question_earns_credit(question: Question) -> bool:
    """Rejected questions (appealed ones too, until the appeal succeeds) earn nothing; with the
    round's ``credit_requires_acceptance`` only accepted ones earn anything."""
    if question.status in (Question.Status.REJECTED, Question.Status.APPEALED):
        return False
    return question.status == Question.Status.ACCEPTED or not question.round.credit_requires_acceptance


def round_stats(*, round_: Round) -> dict:
    """Counts for `round_stats --json` and the instructor page."""
    questions = Question.objects.filter(round=round_)
    per_category = dict.fromkeys(CATEGORIES, 0)
    for categories in questions.values_list("categories", flat=True):
        for category in categories or ["other"]:
            per_category[category] = per_category.get(category, 0) + 1
    live = Prediction.objects.filter(question__round=round_, kind=Prediction.Kind.LIVE)
    counts = live.aggregate(
        done=Count("id", filter=Q(status=Prediction.Status.DONE)),
        pending=Count("id", filter=Q(status=Prediction.Status.PENDING)),
        fooled=Count("id", filter=Q(fooled=True)),
    )
    total = questions.count()
    return {
        "round": round_.name,
        "questions": total,
        "authors": questions.values("author").distinct().count(),
        "categories": per_category,
        "fooled_live": counts["fooled"],
        "predicted_live": counts["done"],
        "pending_live": counts["pending"],
        "fooling_rate_live": (counts["fooled"] / counts["done"]) if counts["done"] else None,
        **_scoring_stats(round_),
    }


def latest_scoring_run(*, round_: Round, kind: str, finished: bool = False) -> ScoringRun | None:
    runs = ScoringRun.objects.filter(round=round_, kind=kind)
    if finished:
        runs = runs.filter(status=ScoringRun.Status.DONE)
    return runs.order_by("-created_at", "-pk").first()


def scoring_runs_latest(*, round_: Round) -> list[ScoringRun]:
    """The newest run of each kind (any status), cross-validation first: the round page's
    "Scoring" section and the scoring websocket show these."""
    runs = (latest_scoring_run(round_=round_, kind=kind) for kind in ScoringRun.Kind.values)
    return [run for run in runs if run is not None]


def training_jobs_latest(*, round_: Round, limit: int = 3) -> list[TrainingJob]:
    """The round's newest training jobs (any status), newest first, for its page and socket."""
    return list(TrainingJob.objects.filter(round=round_).select_related("model_version", "make_live_round")[:limit])


def scoring_run_get(*, run_id: int) -> ScoringRun:
    """A run re-read from the database (``score_round --wait`` polls its progress)."""
    return ScoringRun.objects.select_related("round").get(pk=run_id)


def scoring_run_folds(*, run_id: int, after_id: int = 0) -> QuerySet[ScoringFold]:
    """The run's finished (trial, fold) results, in the order they finished; ``after_id`` skips
    those already seen."""
    return ScoringFold.objects.filter(run_id=run_id, pk__gt=after_id).order_by("pk")


def _scoring_stats(round_: Round) -> dict:
    """``scored_cv``, ``fooled_cv`` (trial-averaged, summed) and the two CV accuracies named as in
    ``collector/cv_accuracy.py`` (``cv_accuracy_pooled``, the headline; ``cv_accuracy_mean`` and
    ``cv_accuracy_std`` over folds, CODAH-style), with ``cv_smallest_fold`` and ``cv_warning``
    when folds are too small; once run, ``answer_only_accuracy``. From the latest finished runs."""
    stats: dict = {"scored_cv": 0, "fooled_cv": 0.0, "cv_accuracy_pooled": None, "cv_accuracy_mean": None,
                   "cv_accuracy_std": None, "cv_smallest_fold": None, "cv_warning": ""}
    cv = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION, finished=True)
    if cv is not None:
        stats.update(
            scored_cv=cv.predictions.values("question").distinct().count(),
            fooled_cv=round(sum(1 - p for p in _correct_fraction_per_question(cv)), 6),
            cv_accuracy_pooled=cv.summary.get("accuracy"),
            cv_accuracy_mean=cv.summary.get("mean"),
            cv_accuracy_std=cv.summary.get("std"),
            cv_smallest_fold=smallest_fold(cv.summary),
            cv_warning=small_folds_warning(cv.summary),
        )
    answer_only = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY, finished=True)
    if answer_only is not None:
        stats["answer_only_accuracy"] = answer_only.summary.get("accuracy")
    return stats


def _correct_fraction_per_question(run: ScoringRun) -> list[float]:
    rows = run.predictions.values("question").annotate(
        correct=Avg(Case(When(correct=True, then=Value(1.0)), default=Value(0.0), output_field=FloatField()))
    )
    return [row["correct"] for row in rows]


def _single_line(text: str) -> str:
    # CODAH TSV has no quoting: a tab or line break typed into a form would split the row.
    return re.sub(r"[\t\r\n]", " ", text)


def round_examples(*, round_: Round) -> list[MCExample]:
    """The round's questions as labelled examples, oldest first (TSV export and fine-tuning)."""
    return _as_examples(Question.objects.filter(round=round_))


def course_examples_so_far(*, round_: Round) -> list[MCExample]:
    """Every question of ``round_`` and of the course's earlier rounds (by creation), oldest
    first: the training set of the next round's live model."""
    rounds = Round.objects.filter(course_id=round_.course_id, created_at__lte=round_.created_at)
    return _as_examples(Question.objects.filter(Q(round__in=rounds) | Q(round=round_)))


def _as_examples(questions: QuerySet[Question]) -> list[MCExample]:
    return [_as_example(q) for q in questions.order_by("created_at", "id")]


def _as_example(q: Question) -> MCExample:
    return MCExample(
        prompt=_single_line(q.prompt),
        choices=tuple(_single_line(c) for c in q.choices),
        label=q.correct_index,
        categories=tuple(c for c in q.categories if c in CATEGORIES),
    )


def round_export_codah_tsv(*, round_: Round, weights: Mapping[tuple[int, int], float] | None = None) -> str:
    """The round's questions in CODAH's 7-column TSV format, readable by ``import_codah``.

    ``weights`` (``(question_id, choice_index) -> weight``, from
    ``evaluation.export_weights.evaluation_run_weights``) adds one column per answer, empty
    where the report weighed no such completion (e.g. a question written after it); such an
    11-column file is for weighted training, ``import_codah`` reads 7.
    """
    questions = list(Question.objects.filter(round=round_).order_by("created_at", "id"))
    rows = None if weights is None else [_choice_weights(q, weights) for q in questions]
    return format_codah_tsv([_as_example(q) for q in questions], weights=rows)


def _choice_weights(q: Question, weights: Mapping[tuple[int, int], float]) -> list[float | None]:
    return [weights.get((q.pk, index)) for index in range(len(q.choices))]


def round_export_records(*, round_: Round, weights: Mapping[tuple[int, int], float] | None = None) -> list[dict]:
    """One JSON-ready record per question with its live prediction, oldest first (JSONL export);
    with ``weights`` (as for the TSV) each record also has ``"weights"``, one per choice or null."""
    questions = _with_live_prediction(
        Question.objects.filter(round=round_).select_related("author").order_by("created_at", "id")
    )
    records = []
    for q in questions:
        prediction = live_prediction_of(q)
        done = prediction is not None and prediction.status == Prediction.Status.DONE
        records.append(
            {
                "id": q.pk,
                "author": q.author.username,
                "prompt": q.prompt,
                "choices": list(q.choices),
                "answer": q.correct_index,
                "categories": list(q.categories),
                "created_at": q.created_at.isoformat(),
                "live_prediction": None if prediction is None else {
                    "status": prediction.status,
                    "probs": prediction.probs if done else None,
                    "predicted": prediction.predicted_index if done else None,
                    "fooled": prediction.fooled if done else None,
                    "model_version": prediction.model_version.name if prediction.model_version else None,
                },
            }
        )
        if weights is not None:
            records[-1]["weights"] = _choice_weights(q, weights)
    return records


# --- Reads for the HTML pages and the API ---------------------------------------------------------


def course_rounds(*, course: Course) -> QuerySet[Round]:
    """The course's rounds, newest first, each with ``num_questions``."""
    return (
        Round.objects.filter(course=course)
        .select_related("live_model")
        .annotate(num_questions=Count("questions"))
        .order_by("-created_at")
    )


def rounds_open_for_author(*, user: User) -> list[Round]:
    """Rounds ``user`` may write questions in right now (the authoring page's access rule)."""
    rounds = rounds_for_user(user=user).order_by(F("closes_at").asc(nulls_last=True), "-created_at")
    return [round_ for round_ in rounds if round_.is_open()]


def course_question_counts(*, course_id: int, user_ids: list[int]) -> dict[int, int]:
    """How many questions each of ``user_ids`` wrote in the course's rounds (absent: none), in one query."""
    rows = (Question.objects.filter(round__course_id=course_id, author_id__in=user_ids)
            .values("author_id").annotate(n=Count("pk")).values_list("author_id", "n"))
    return dict(rows)


def round_authors(*, round_: Round) -> QuerySet[User]:
    return User.objects.filter(questions__round=round_).distinct().order_by("username")


def author_credit_total(*, user: User) -> float:
    """Sum of ``question_credit`` over all of ``user``'s questions."""
    return sum(
        question_credit(question=question, prediction=live_prediction_of(question))
        for question in questions_of_author(user=user)
    )


def model_versions_live() -> list[ModelVersion]:
    """The models drafts need now: live and answer-only models of the rounds open (or not yet closed)."""
    rounds = Round.objects.select_related("live_model", "answer_only_model").filter(
        Q(closes_at__isnull=True) | Q(closes_at__gt=timezone.now()))
    versions = {}
    for round_ in rounds:
        for version in (round_.live_model, round_.answer_only_model if round_.coach_answer_only else None):
            if version is not None:
                versions[version.pk] = version
    return list(versions.values())
