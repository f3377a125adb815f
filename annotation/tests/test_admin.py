"""Admin pages of the annotation models load, and an answer span that does not fit is refused."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation.models import SpanAnswer, SpanQuestion
from annotation.tests.factories import submitted_paragraph

pytestmark = pytest.mark.django_db

MODELS = ("project", "article", "paragraph", "spanquestion", "annotationsession", "secondpassanswer", "questionflag")


def test_changelists_and_change_pages_load(client, project, crowdworker):
    submitted_paragraph(project, crowdworker)
    client.force_login(project.owner.__class__.objects.create_superuser("root", "r@example.org", "pw-long-enough-1"))
    for model in MODELS:
        assert client.get(reverse(f"admin:annotation_{model}_changelist")).status_code == 200, model
    question = SpanQuestion.objects.first()
    assert client.get(reverse("admin:annotation_spanquestion_change", args=[question.pk])).status_code == 200


def test_answer_spans_are_checked_on_full_clean(project, crowdworker):
    submitted_paragraph(project, crowdworker)
    answer = SpanAnswer.objects.first()
    answer.answer_start += 1
    with pytest.raises(ValidationError, match="does not match the paragraph"):
        answer.full_clean()
    impossible = SpanQuestion.objects.get(is_impossible=True)
    with pytest.raises(ValidationError, match="unanswerable question has no answer spans"):
        SpanAnswer(question=impossible, text=answer.text, answer_start=answer.answer_start - 1).full_clean()
