"""Admin pages of the quality loop's models render for staff, with the related rows inline."""
import pytest
from django.urls import reverse

from collector.models import Appeal, CoachWarning, DuplicateFlag, ReviewDecision, Validation
from collector.services.reviews import appeal_submit, question_review_decide
from collector.tests.factories import make_user, validate

pytestmark = pytest.mark.django_db


def test_changelists_and_question_page(client, submitted, classmates, instructor, student):
    validate(submitted, classmates[0], 1, flags=["grammar"])
    question_review_decide(reviewer=instructor, question_id=submitted.pk, action="reject",
                                               reason="Ambiguous.")
    appeal_submit(author=student, question_id=submitted.pk, message="Please look again.")
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    for model in (Validation, ReviewDecision, Appeal, DuplicateFlag, CoachWarning):
        url = reverse(f"admin:collector_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("admin:collector_question_change", args=[submitted.pk])).content.decode()
    assert "Ambiguous." in page and "grammar" in page  # decisions and validations inline
    assert client.get(reverse("admin:collector_question_changelist") + "?status__exact=appealed").status_code == 200
