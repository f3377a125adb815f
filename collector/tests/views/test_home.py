"""``views/home.py``: the student's dashboard (where each role lands is ``tests/test_navigation_roles.py``)."""

import pytest
from django.urls import reverse

from collector.models import Question
from collector.services.questions import question_submit
from collector.tests.factories import assert_queries_do_not_grow_with_questions, finished_scoring_run, question_data
from courses.services import course_join

URL = reverse("collector:dashboard")


@pytest.mark.django_db
class DashboardTests:
    def test_anonymous_is_sent_to_login(self, client):
        response = client.get(URL)
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:login"))

    def test_empty_state_lists_open_rounds_only(self, client, student, round_, closed_round):
        client.force_login(student)
        page = client.get(URL).content.decode()
        assert "You haven't written any questions yet" in page
        assert reverse("collector:round_write", args=[round_.pk]) in page
        assert reverse("collector:round_write", args=[closed_round.pk]) not in page

    def test_no_open_round_message(self, client, outsider):
        client.force_login(outsider)
        assert "No round is open right now" in client.get(URL).content.decode()

    def test_shows_questions_with_models_answer_and_credit(self, client, student, round_, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
        question_submit(
            user=student, round_id=round_.pk, **question_data(prompt="Second prompt. It", correct_index=3)
        )
        client.force_login(student)
        response = client.get(URL)
        page = response.content.decode()
        assert "Fooled the model" in page and "Not fooled" in page
        assert "The model answered “ate a salad instead.”" in page
        assert "40%" in page  # the model's probability for its pick
        assert response.context["total_credit"] == 1.0
        assert [row.credit for row in response.context["rows"]] == [0.0, 1.0]

    def test_pending_prediction_is_explained(self, client, student, round_, broken_model):
        question_submit(user=student, round_id=round_.pk, **question_data())
        client.force_login(student)
        page = client.get(URL).content.decode()
        assert "Prediction pending — will be computed shortly." in page

    def test_only_own_questions(self, client, student, outsider, round_, course, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(prompt="Alice's secret prompt. She"))
        course_join(user=outsider, join_code=course.join_code)
        client.force_login(outsider)
        assert "Alice's secret prompt" not in client.get(URL).content.decode()

    def test_user_text_is_escaped(self, client, student, round_, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(prompt="<script>alert(1)</script> He"))
        client.force_login(student)
        page = client.get(URL).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page

    def test_paginates_25_per_page(self, client, student, round_, fake_model):
        for i in range(30):
            question_submit(
                user=student, round_id=round_.pk, compute_prediction=False,
                **question_data(prompt=f"Prompt number {i}. He"),
            )
        assert Question.objects.count() == 30
        client.force_login(student)
        first = client.get(URL)
        second = client.get(URL, {"page": 2})
        assert len(first.context["rows"]) == 25
        assert len(second.context["rows"]) == 5
        assert "Page 2 of 2" in second.content.decode()
        assert client.get(URL, {"page": "nonsense"}).status_code == 200


@pytest.mark.django_db
def test_dashboard_queries_do_not_grow_with_questions(client, student, round_, fake_model):
    client.force_login(student)
    assert_queries_do_not_grow_with_questions(client, URL, author=student, round_=round_)


@pytest.mark.django_db
def test_dashboard_shows_cv_result_and_credit(client, student, round_, fake_model):
    question = question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
    client.force_login(student)
    page = client.get(reverse("collector:dashboard")).content.decode()
    assert "not scored yet" in page and "(live 1 + cross-validation 0)" in page
    round_.weight_cv = 2.0
    round_.save()
    finished_scoring_run(round_, {question.pk: [False]})
    response = client.get(reverse("collector:dashboard"))
    page = response.content.decode()
    assert response.context["total_credit"] == 3.0
    assert "(live 1 + cross-validation 2)" in page
    assert Question.objects.count() == 1


@pytest.mark.django_db
def test_a_junk_question_says_why_it_has_no_live_credit_yet(client, student, round_, fake_model):
    # The fake model picks D, the key is A: fooled, but D is junk, so the live credit waits.
    question_submit(user=student, round_id=round_.pk,
                    **question_data(choices=["was very hungry.", "was not hungry.", "sat.", "x" * 150]))
    client.force_login(student)
    page = client.get(URL).content.decode()
    assert 'data-testid="live-credit-note"' in page
    assert "No live credit yet: completion D is one character repeated." in page
    assert "It counts once a validator accepts the question." in page
