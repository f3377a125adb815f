"""Reads of a project's data in SQuAD form: the export file and frozen question records.

Only submitted questions count (drafts are unfinished work, removed ones were flagged out);
discarded paragraphs and paragraphs without questions are left out. Order is the import
order: articles, then paragraphs, then questions, then answers as they were stored.
"""
from collections.abc import Mapping

from django.db.models import Prefetch, QuerySet

from annotation.models import Article, Paragraph, Project, SpanAnswer, SpanQuestion
from mlcore.stats.squad_metrics import SquadAnswer, SquadQuestion

SQUAD_VERSION = "v2.0"


def _articles(project: Project, split: str | None) -> QuerySet[Article]:
    questions = SpanQuestion.objects.filter(status=SpanQuestion.Status.SUBMITTED).order_by("position", "id") \
        .prefetch_related(Prefetch("answers", queryset=SpanAnswer.objects.order_by("position", "id")))
    paragraphs = Paragraph.objects.exclude(status=Paragraph.Status.DISCARDED).order_by("position") \
        .prefetch_related(Prefetch("questions", queryset=questions))
    articles = project.articles.order_by("position", "id").prefetch_related(Prefetch("paragraphs", queryset=paragraphs))
    return articles.filter(split=split) if split else articles


def _qa(question: SpanQuestion, weights: Mapping[tuple[int, str], float] | None) -> dict:
    # PQuAD's key order: question, id, answers, is_impossible (SQuAD 2.0's plausible_answers when present).
    qa = {
        "question": question.question,
        "id": question.qid,
        "answers": [{"text": a.text, "answer_start": a.answer_start} for a in question.answers.all()],
        "is_impossible": question.is_impossible,
    }
    if question.plausible_answers:
        qa["plausible_answers"] = question.plausible_answers
    if weights is not None:
        qa["weight"] = weights.get((question.pk, question.qid))
    return qa


def project_squad_dict(*, project: Project, split: str | None = None,
                       weights: Mapping[tuple[int, str], float] | None = None) -> dict:
    """The project's (or one split's) data as a SQuAD-2.0 JSON object in PQuAD's layout.

    ``weights`` (``(question_id, qid) -> weight``, from
    ``evaluation.export_weights.evaluation_run_weights``) gives every qa a ``"weight"``: ``null``
    for questions the report did not weigh (it weighs the train split, and knows no later question).
    """
    data = []
    for article in _articles(project, split):
        paragraphs = [
            {"qas": [_qa(q, weights) for q in paragraph.questions.all()], "context": paragraph.context}
            for paragraph in article.paragraphs.all()
        ]
        paragraphs = [p for p in paragraphs if p["qas"]]
        if paragraphs:
            data.append({"title": article.title, "paragraphs": paragraphs})
    return {"version": SQUAD_VERSION, "data": data}


def project_squad_questions(*, project: Project, split: str | None = None) -> tuple[SquadQuestion, ...]:
    """Submitted questions with context, title and gold answers, as :mod:`mlcore.stats.squad_metrics` records.

    This is what retrieval and lexical analyses over a project's passages and questions read.
    """
    out = []
    for article in _articles(project, split):
        for paragraph in article.paragraphs.all():
            for q in paragraph.questions.all():
                answers = tuple(SquadAnswer(a.text, a.answer_start) for a in q.answers.all())
                plausible = tuple(SquadAnswer(a["text"], a["answer_start"]) for a in q.plausible_answers)
                out.append(SquadQuestion(q.qid, q.question, paragraph.context, article.title, answers,
                                         q.is_impossible, plausible))
    return tuple(out)
