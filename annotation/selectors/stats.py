"""The project dashboard's numbers (reads only): progress per split, distributions, human performance.

Counting happens in the database; the statistics themselves are the pure functions of
:mod:`mlcore.stats.annotation_stats`. Human performance comes from the blind second-pass answers only
(:func:`blind_answers`, which the project report reads too).
"""
from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from annotation.models import (
    AnnotationSession,
    Paragraph,
    Project,
    QuestionFlag,
    SecondPassAnswer,
    SpanAnswer,
    SpanQuestion,
    Split,
)
from mlcore.stats.annotation_stats import HumanPerformance, binned_counts, human_performance

SUBMITTED = SpanQuestion.Status.SUBMITTED
ANSWER_WORD_EDGES = (1, 2, 3, 4, 5, 6, 11, 21)
QUESTIONS_PER_PARAGRAPH_EDGES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
FIRST_ANSWER_KINDS = (SpanAnswer.Kind.ORIGINAL, SpanAnswer.Kind.IMPORTED, SpanAnswer.Kind.CORRECTION)


@dataclass(frozen=True)
class SplitProgress:
    split: str
    label: str
    articles: int
    paragraphs: int
    open: int
    done: int
    discarded: int
    questions: int
    unanswerable: int
    second_pass_answers: int

    @property
    def done_share(self) -> float | None:
        active = self.paragraphs - self.discarded
        return self.done / active if active else None

    @property
    def unanswerable_share(self) -> float | None:
        return self.unanswerable / self.questions if self.questions else None


@dataclass(frozen=True)
class ProjectStats:
    splits: tuple[SplitProgress, ...]
    questions: int
    unanswerable: int
    questions_per_paragraph: tuple[tuple[str, int], ...]
    answer_words: tuple[tuple[str, int], ...]
    human: tuple[HumanPerformance, ...]
    blind_answers: int  # how many second-pass answers ``human`` is computed from
    blind_left_out: int  # second-pass answers without an independent reference
    predicted: int
    fooled: int
    open_flags: int
    workers: int
    in_progress: int

    @property
    def unanswerable_share(self) -> float | None:
        return self.unanswerable / self.questions if self.questions else None

    @property
    def fooled_share(self) -> float | None:
        return self.fooled / self.predicted if self.predicted else None


def _split_progress(project: Project) -> tuple[SplitProgress, ...]:
    paragraphs = Counter(
        (row["article__split"], row["status"]) for row in
        Paragraph.objects.filter(article__project=project).values("article__split", "status")
    )
    articles = Counter(project.articles.values_list("split", flat=True))
    questions = {row["paragraph__article__split"]: row for row in
                 SpanQuestion.objects.filter(project=project, status=SUBMITTED)
                 .values("paragraph__article__split")
                 .annotate(n=Count("id"), impossible=Count("id", filter=Q(is_impossible=True)))}
    second = Counter(SecondPassAnswer.objects.filter(question__project=project, question__status=SUBMITTED)
                     .values_list("question__paragraph__article__split", flat=True))
    out = []
    for split, label in Split.choices:
        q = questions.get(split, {"n": 0, "impossible": 0})
        by_status = {s: paragraphs[(split, s)] for s in Paragraph.Status.values}
        out.append(SplitProgress(
            split=split, label=str(label), articles=articles[split], paragraphs=sum(by_status.values()),
            open=by_status["open"], done=by_status["done"], discarded=by_status["discarded"],
            questions=q["n"], unanswerable=q["impossible"], second_pass_answers=second[split],
        ))
    return tuple(out)


def _first_answers(questions: QuerySet[SpanQuestion]) -> dict[int, tuple[str, int | None]]:
    """question id -> (text, author id) of its first answer: the reference of human performance."""
    first: dict[int, tuple[str, int | None]] = {}
    rows = SpanAnswer.objects.filter(question__in=questions, kind__in=FIRST_ANSWER_KINDS) \
        .order_by("question_id", "position", "id").values_list("question_id", "text", "author_id")
    for question_id, text, author_id in rows:
        first.setdefault(question_id, (text, author_id))
    return first


@dataclass(frozen=True)
class BlindAnswers:
    """What human performance is computed from: (gold texts, answer) pairs, one per blind answer.

    ``left_out`` counts second-pass answers without an independent reference (see
    :func:`blind_answers`).
    """

    pairs: tuple[tuple[tuple[str, ...], str], ...]
    left_out: int

    @property
    def n(self) -> int:
        return len(self.pairs)


def blind_answers(*, questions: QuerySet[SpanQuestion],
                  first: dict[int, tuple[str, int | None]] | None = None) -> BlindAnswers:
    """Each second-pass answer to ``questions`` paired with the question's first answer ("" if unanswerable).

    A second-pass answer is written once, before the worker sees the original, so every stored
    one is blind; flags (proposals after the reveal) are never answers. Left out: answers to an
    answerable question that has lost its first answer (nothing to compare with), and answers
    whose reference is the same worker's accepted correction (an answer scored against its own
    author's span is not independent).
    """
    first = _first_answers(questions) if first is None else first
    rows = SecondPassAnswer.objects.filter(question__in=questions).order_by("question_id", "id") \
        .values_list("question_id", "worker_id", "question__is_impossible", "is_impossible", "text")
    pairs, left_out = [], 0
    for question_id, worker_id, impossible, said_impossible, text in rows:
        reference = first.get(question_id)
        if not impossible and (reference is None or reference[1] == worker_id):
            left_out += 1
            continue
        pairs.append(((() if impossible else (reference[0],)), "" if said_impossible else text))
    return BlindAnswers(tuple(pairs), left_out)


def blind_answers_of_questions(*, question_ids: list[int]) -> BlindAnswers:
    """:func:`blind_answers` for the still-submitted ones of these questions (a report's snapshot)."""
    return blind_answers(questions=SpanQuestion.objects.filter(pk__in=question_ids, status=SUBMITTED))


def human_performances(answers: BlindAnswers, language: str) -> tuple[HumanPerformance, ...]:
    """Human EM/F1 of the blind answers; a Persian project gets both normalisers."""
    if not answers.pairs:
        return ()
    # PQuAD has no official script: Persian projects show the SPEC's Persian normaliser and the
    # unmodified SQuAD one side by side (SPEC-bias §6.2).
    normalizers = ("fa", "en") if language == "fa" else ("en",)
    return tuple(human_performance(answers.pairs, normalizer=n) for n in normalizers)


def project_stats(*, project: Project) -> ProjectStats:
    """Everything the project dashboard shows."""
    splits = _split_progress(project)
    submitted = SpanQuestion.objects.filter(project=project, status=SUBMITTED)
    per_paragraph = list(submitted.values("paragraph_id").annotate(n=Count("id")).values_list("n", flat=True))
    first = _first_answers(submitted)
    blind = blind_answers(questions=submitted, first=first)
    predicted = submitted.filter(qa_prediction_f1__isnull=False)
    return ProjectStats(
        splits=splits,
        questions=sum(s.questions for s in splits),
        unanswerable=sum(s.unanswerable for s in splits),
        questions_per_paragraph=binned_counts(per_paragraph, QUESTIONS_PER_PARAGRAPH_EDGES),
        answer_words=binned_counts([len(text.split()) for text, _ in first.values()], ANSWER_WORD_EDGES),
        human=human_performances(blind, project.language),
        blind_answers=blind.n,
        blind_left_out=blind.left_out,
        predicted=predicted.count(),
        fooled=predicted.filter(fooled_model=True).count(),
        open_flags=QuestionFlag.objects.filter(question__project=project, status=QuestionFlag.Status.OPEN).count(),
        workers=AnnotationSession.objects.filter(paragraph__article__project=project).values("worker").distinct().count(),
        in_progress=AnnotationSession.objects.filter(paragraph__article__project=project,
                                                     status=AnnotationSession.Status.IN_PROGRESS).count(),
    )
