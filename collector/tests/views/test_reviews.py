"""``views/reviews.py``: the review queue, a question's review and appeals."""
import pytest
from django.urls import reverse

from collector.models import Appeal, Question
from collector.tests.factories import validate

pytestmark = pytest.mark.django_db


class ReviewPagesTests:
    def test_the_queue_shows_the_evidence_and_reject_needs_a_reason(self, client, submitted, classmates, instructor):
        validate(submitted, classmates[0], 2, flags=["grammar"], comment="Typo in B.")
        client.force_login(instructor)
        queue = reverse("collector:review_queue", args=[submitted.round_id])
        page = client.get(queue).content.decode()
        assert submitted.prompt in page and "bob picked C, the key is A" in page and "Typo in B." in page
        assert f'<label for="reason-{submitted.pk}">' in page and f'id="reason-{submitted.pk}" name="reason"' in page
        review = reverse("collector:question_review", args=[submitted.pk])
        response = client.post(review, {"action": "reject", "reason": "", "next": queue})
        assert "The reason is required." in response.content.decode()
        response = client.post(review, {"action": "reject", "reason": "Two answers fit.", "next": queue}, follow=True)
        assert response.redirect_chain[-1][0] == queue
        assert Question.objects.get(pk=submitted.pk).status == "rejected"
        assert "Nothing to review" in response.content.decode()

    def test_edit_and_accept(self, client, submitted, instructor):
        client.force_login(instructor)
        review = reverse("collector:question_review", args=[submitted.pk])
        assert "Edit and accept" in client.get(review).content.decode()
        data = {"action": "edit", "prompt": submitted.prompt, "answer": 1, "categories": ["negation"],
                **{f"choice_{i}": text for i, text in enumerate(submitted.choices)}, "reason": "Key was B."}
        client.post(review, data)
        question = Question.objects.get(pk=submitted.pk)
        assert (question.status, question.correct_index) == ("accepted", 1)

    def test_students_and_other_instructors_are_refused(self, client, submitted, classmates, other_instructor):
        for user in (classmates[0], other_instructor):
            client.force_login(user)
            assert client.get(reverse("collector:question_review", args=[submitted.pk])).status_code == 403
            assert client.get(reverse("collector:review_queue", args=[submitted.round_id])).status_code == 403


class AppealPagesTests:
    def test_the_author_reads_the_reason_appeals_once_and_reads_the_answer(self, client, submitted, instructor,
                                                                           student):
        client.force_login(instructor)
        client.post(reverse("collector:question_review", args=[submitted.pk]),
                    {"action": "reject", "reason": "Not common sense."})
        client.force_login(student)
        dashboard = client.get(reverse("collector:dashboard")).content.decode()
        assert "Not common sense." in dashboard and "Appeal this decision" in dashboard
        assert "Credit: <strong>0</strong>" in dashboard
        client.post(reverse("collector:appeal_submit", args=[submitted.pk]), {"message": "It is, really."})
        appeal = Appeal.objects.get()
        dashboard = client.get(reverse("collector:dashboard")).content.decode()
        assert "It is, really." in dashboard and "Appeal this decision" not in dashboard
        client.force_login(instructor)
        queue = reverse("collector:review_queue", args=[submitted.round_id])
        page = client.get(queue).content.decode()
        assert "It is, really." in page and f'id="response-{submitted.pk}" name="response"' in page
        client.post(reverse("collector:appeal_decide", args=[appeal.pk]),
                    {"decision": "deny", "response": "Hunger is not implied.", "next": queue})
        client.force_login(student)
        dashboard = client.get(reverse("collector:dashboard")).content.decode()
        assert "denied" in dashboard and "Hunger is not implied." in dashboard

    def test_an_empty_appeal_is_not_sent(self, client, submitted, student, instructor):
        client.force_login(instructor)
        client.post(reverse("collector:question_review", args=[submitted.pk]), {"action": "reject", "reason": "No."})
        client.force_login(student)
        response = client.post(reverse("collector:appeal_submit", args=[submitted.pk]), {"message": ""}, follow=True)
        assert "Appeal not sent" in response.content.decode() and not Appeal.objects.exists()
