"""Helpers building annotation test data through the services (the same path the product takes),
and the signed-in API client the API tests share."""
from django.urls import reverse
from rest_framework.response import Response
from rest_framework.test import APIClient

from annotation.models import AnnotationSession, Article, Paragraph, Project, SpanQuestion
from annotation.services.authoring import question_add, session_start_next, session_submit
from annotation.services.projects import project_create

ZWNJ = "\u200c"
# Written for these tests (not taken from any dataset).
EN_CONTEXT = ("The Nile is the longest river in Africa. It flows north for about 6,650 kilometres and "
              "empties into the Mediterranean Sea near Alexandria. Its two main branches are the White Nile "
              "and the Blue Nile, which meet at Khartoum.")
# "Tehran is the capital of Iran and its largest city; its libraries (کتاب‌خانه‌ها) keep about ۲ million books 🏛."
FA_CONTEXT = ("تهران پایتخت ایران و بزرگ‌ترین شهر آن است. کتاب" + ZWNJ + "خانه" + ZWNJ + "های تهران حدود ۲ میلیون "
              "کتاب دارند \U0001F3DB و علي و كريم در آن‌جا کار می‌کنند.")
# A two-question SQuAD-2.0 file (one unanswerable) for the import and export commands.
SQUAD = {"version": "v2.0", "data": [{"title": "France", "paragraphs": [{"context": "Paris is the capital of France.",
         "qas": [{"question": "Capital?", "id": "q1", "answers": [{"text": "Paris", "answer_start": 0}],
                  "is_impossible": False},
                 {"question": "Capital of Spain?", "id": "q2", "answers": [], "is_impossible": True}]}]}]}


def make_project(owner, name: str = "nile", language: str = "en", **settings) -> Project:
    defaults = {"questions_min": 2, "questions_max": 4}
    defaults.update(settings)
    return project_create(owner=owner, name=name, language=language, **defaults)


def add_paragraphs(project: Project, contexts: list[str], *, split: str = "train", title: str = "Nile") -> list[Paragraph]:
    """Paragraphs under one article (imports build these; tests need exact control over them)."""
    article = Article.objects.create(project=project, title=title, split=split,
                                     position=project.articles.count(), rank=project.articles.count() + 1)
    return [Paragraph.objects.create(article=article, position=i, context=c) for i, c in enumerate(contexts)]


def answer(context: str, text: str, occurrence: int = 0) -> dict:
    """An answer in SQuAD's form (code-point offset) for the n-th occurrence of ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = context.index(text, start + 1)
    return {"text": text, "answer_start": start}


def selection(context: str, text: str) -> dict:
    """What a browser reports for selecting ``text``: UTF-16 offsets."""
    start = context.index(text)
    before = len(context[:start].encode("utf-16-le")) // 2
    return {"start16": before, "end16": before + len(text.encode("utf-16-le")) // 2}


def submitted_paragraph(project, worker, paragraph_contexts=None, *, split="validation", questions=None):
    """A paragraph in ``split`` with ``worker``'s submitted questions (for second-pass tests)."""
    paragraph = add_paragraphs(project, paragraph_contexts or [EN_CONTEXT], split=split,
                               title=f"article-{project.articles.count()}")[0]
    session = session_start_next(user=worker, project=project)
    assert session.paragraph_id == paragraph.pk
    context = paragraph.context
    questions = questions or [
        {"question": "Which sea does the Nile empty into?", "answer": answer(context, "the Mediterranean Sea")},
        {"question": "Where do the two branches meet?", "answer": answer(context, "Khartoum")},
        {"question": "Who built the first dam on the Nile?", "is_impossible": True},
    ]
    for q in questions:
        question_add(session=session, user=worker, **q)
    session_submit(session=session, user=worker)
    return paragraph


def api_client(user, language: str | None = None) -> APIClient:
    """An API client signed in as ``user``; ``language`` is the worker's choice (the ``django_language``
    cookie that set_language writes when the worker switches)."""
    client = APIClient()
    client.force_authenticate(user)
    if language:
        client.cookies["django_language"] = language
    return client


def task_next(client: APIClient, project: Project, kind: str = "authoring") -> Response:
    """The worker's "resume or start the next paragraph" request (``annotation_api:task_next``)."""
    return client.post(reverse("annotation_api:task_next", args=[project.pk]), {"kind": kind}, format="json")


def second_pass_start(project: Project, user) -> AnnotationSession | None:
    """``user``'s next second-pass session in ``project`` (None when nothing needs answering)."""
    return session_start_next(user=user, project=project, kind="second_pass")


def paragraph_questions(paragraph: Paragraph) -> list[SpanQuestion]:
    """The paragraph's questions in the order they were written."""
    return list(SpanQuestion.objects.filter(paragraph=paragraph).order_by("position"))
