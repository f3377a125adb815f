"""The demo projects behind ``seed_demo``: real data through the services, idempotent."""
from io import StringIO
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from annotation.demo import Z, annotation_demo_seed
from annotation.models import Paragraph, Project, SpanQuestion
from annotation.services.authoring import session_start_next
from mlcore.data.spans import check_span

pytestmark = pytest.mark.django_db


def test_seed_creates_an_english_and_a_persian_project_with_a_second_pass_ready(instructor):
    seed = annotation_demo_seed(owner=instructor)
    assert [p.language for p in seed.projects] == ["en", "fa"] and set(seed.created_users) == {"mina", "sam"}
    sam = authenticate(username="sam", password="stumper-demo-worker")
    assert sam.role == "crowdworker"
    for project in seed.projects:
        assert Paragraph.objects.filter(article__project=project).count() == 3
        questions = SpanQuestion.objects.filter(project=project, status="submitted")
        assert questions.count() == 5 and questions.filter(is_impossible=True).count() == 1
        assert {q.paragraph.article.split for q in questions} == {"validation"}
        for q in questions:
            for a in q.answers.all():
                check_span(q.paragraph.context, a.text, a.answer_start)
        assert session_start_next(user=sam, project=project, kind="second_pass") is not None
        assert session_start_next(user=sam, project=project) is not None  # train paragraphs open
    persian = Paragraph.objects.filter(article__project=seed.projects[1]).first().context
    assert Z in persian and "+" not in persian


def test_seed_twice_changes_nothing(instructor):
    annotation_demo_seed(owner=instructor)
    counts = (Project.objects.count(), Paragraph.objects.count(), SpanQuestion.objects.count())
    again = annotation_demo_seed(owner=instructor)
    assert again.created_users == ()
    assert (Project.objects.count(), Paragraph.objects.count(), SpanQuestion.objects.count()) == counts


def test_the_demo_command_prints_the_worker_logins():
    out = StringIO()
    with mock.patch("collector.services.questions.prediction_schedule"):
        call_command("seed_demo", stdout=out)
    text = out.getvalue()
    assert "Annotation projects: Demo: English reading comprehension" in text and "mina" in text
