"""Pages of the quality loop: validating, the review queue, a question's review, appeals, the report."""
from unittest import mock

import pytest
from django.urls import reverse

from collector.models import Appeal, Question, Round, Validation
from collector.selectors.validation import display_order, validation_token
from collector.tests.factories import validate

pytestmark = pytest.mark.django_db
VALIDATE = reverse("collector:validate")


class ValidatePageTests:
    def test_shows_one_blind_question_with_shuffled_completions(self, client, submitted, classmates):
        bob = classmates[0]
        client.force_login(bob)
        page = client.get(VALIDATE).content.decode()
        assert submitted.prompt in page
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        positions = [page.index(submitted.choices[i]) for i in order]
        assert positions == sorted(positions)  # in the shuffled order
        assert "alice" not in page and "model's pick" not in page and "answer key" not in page
        assert 'name="flags"' in page and "No single right answer" in page

    def test_posting_saves_and_shows_the_next_question(self, client, submitted, classmates):
        bob = classmates[0]
        client.force_login(bob)
        token = validation_token(question=submitted, validator=bob)
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        response = client.post(VALIDATE, {"token": token, "choice": order.index(0), "categories": ["negation"]},
                               follow=True)
        assert Validation.objects.get().is_correct
        page = response.content.decode()
        assert "your answer is saved" in page and "All caught up" in page

    def test_an_incomplete_answer_shows_the_same_question_with_the_error(self, client, submitted, classmates):
        bob = classmates[0]
        client.force_login(bob)
        token = validation_token(question=submitted, validator=bob)
        response = client.post(VALIDATE, {"token": token})
        page = response.content.decode()
        assert response.status_code == 200 and "Pick the completion" in page and submitted.prompt in page
        assert not Validation.objects.exists()

    def test_a_forged_form_gets_a_fresh_question(self, client, submitted, classmates):
        client.force_login(classmates[0])
        response = client.post(VALIDATE, {"token": "forged", "choice": 0}, follow=True)
        assert "too old or not yours" in response.content.decode()
        assert not Validation.objects.exists()

    def test_skip_moves_a_question_to_the_end(self, client, submitted, classmates):
        client.force_login(classmates[0])
        response = client.get(f"{VALIDATE}?skip={submitted.pk}", follow=True)
        # It is the only one, so it comes back rather than leaving an empty page.
        assert submitted.prompt in response.content.decode()

    def test_empty_states(self, client, round_, student, submitted):
        client.force_login(student)  # the author: only her own question is waiting
        Round.objects.filter(pk=round_.pk).update(peer_validation="off")
        assert "nothing for you to validate" in client.get(VALIDATE).content.decode()
        Round.objects.filter(pk=round_.pk).update(peer_validation="always")
        assert "All caught up" in client.get(VALIDATE).content.decode()


class ReviewPagesTests:
    def test_the_queue_shows_the_evidence_and_reject_needs_a_reason(self, client, submitted, classmates, instructor):
        validate(submitted, classmates[0], 2, flags=["grammar"], comment="Typo in B.")
        client.force_login(instructor)
        queue = reverse("collector:review_queue", args=[submitted.round_id])
        page = client.get(queue).content.decode()
        assert submitted.prompt in page and "bob picked C, the key is A" in page and "Typo in B." in page
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
        assert "It is, really." in client.get(queue).content.decode()
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


class QualityPageTests:
    def test_report_with_vega_lite_charts_and_their_tables(self, client, submitted, classmates, instructor):
        validate(submitted, classmates[0], 0)
        validate(submitted, classmates[1], 0)
        client.force_login(instructor)
        page = client.get(reverse("collector:round_quality", args=[submitted.round_id])).content.decode()
        assert page.count('class="vl-chart"') == 2  # accuracy and workload; no coach warnings yet
        assert "Human accuracy per category (95% Wilson interval)" in page
        assert '<th scope="row">All questions</th><td class="num">100.0%</td>' in page  # the table beside it
        assert "vendor/vega-embed/vega-embed.min.js" in page
        assert "no answer-only model yet" in page

    def test_settings_are_shown_and_changed_on_the_round_settings_page(self, client, peer_round, instructor):
        client.force_login(instructor)
        page = client.get(reverse("collector:round_quality", args=[peer_round.pk])).content.decode()
        assert "2 agreeing validators accept a question" in page
        assert reverse("collector:round_settings", args=[peer_round.pk]) + "#quality-settings" in page
        assert 'name="validations_required"' not in page
        assert client.post(reverse("collector:round_quality", args=[peer_round.pk])).status_code == 405

    def test_training_the_answer_only_model_is_queued_or_explained(self, client, submitted, instructor,
                                                                   django_capture_on_commit_callbacks):
        client.force_login(instructor)
        url = reverse("collector:round_answer_only_model", args=[submitted.round_id])
        response = client.post(url, follow=True)
        assert "needs at least 10" in response.content.decode()
        with mock.patch("collector.services.coach.answer_only_model_check"), \
                mock.patch("collector.tasks.answer_only_model_train_task.delay") as delay, \
                django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, follow=True)
        assert "is queued" in response.content.decode()
        delay.assert_called_once_with(submitted.round_id)

    def test_round_page_links_here_and_shows_statuses(self, client, submitted, instructor):
        client.force_login(instructor)
        page = client.get(reverse("collector:round_detail", args=[submitted.round_id])).content.decode()
        assert reverse("collector:round_quality", args=[submitted.round_id]) in page
        assert "Awaiting validation" in page
