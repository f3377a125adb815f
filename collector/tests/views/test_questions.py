import html
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from collector.models import Prediction, Question


def write_url(round_) -> str:
    return reverse("collector:round_write", args=[round_.pk])


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def form_data(**overrides) -> dict:
    data = {
        "prompt": "The man ate the whole pizza by himself. He",
        "choice_0": "was very hungry.",
        "choice_1": "was not hungry at all.",
        "choice_2": "gave the pizza to his dog.",
        "choice_3": "ate a salad instead.",
        "answer": "0",
        "categories": ["idioms"],
        "time_spent_seconds": "42",
        "client_token": str(uuid.uuid4()),
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db
class AuthoringPageGetTests:
    def test_renders_form_for_enrolled_student(self, client, student, round_):
        client.force_login(student)
        response = client.get(write_url(round_))
        assert response.status_code == 200
        page = response.content.decode()
        assert "Round one" in page and "Try idioms and negation." in page
        assert round_.live_model.name in page
        assert 'name="client_token"' in page and 'name="time_spent_seconds"' in page
        assert f'data-ws-path="/ws/author/{round_.pk}/"' in page
        assert "js/author.js" in page
        # Only the round's categories are offered.
        assert 'value="idioms"' in page and 'value="negation"' in page
        assert 'value="polysemy"' not in page

    def test_no_field_cuts_a_pasted_text_and_each_counts_its_characters(self, client, student, round_):
        """maxlength would cut a pasted prompt at 500 characters without a word, and save it so."""
        client.force_login(student)
        page = client.get(write_url(round_)).content.decode()
        assert "maxlength" not in page
        assert f'data-max-chars="{settings.STUMPER_MAX_PROMPT_CHARS}"' in page
        assert page.count(f'data-max-chars="{settings.STUMPER_MAX_CHOICE_CHARS}"') == 4
        assert "js/char_counter.js" in page

    def test_each_page_load_gets_a_fresh_client_token(self, client, student, round_):
        client.force_login(student)
        first = client.get(write_url(round_)).context["form"]["client_token"].value()
        second = client.get(write_url(round_)).context["form"]["client_token"].value()
        assert first and second and first != second

    def test_anonymous_is_sent_to_login(self, client, round_):
        response = client.get(write_url(round_))
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:login"))

    def test_student_of_another_course_gets_403_with_reason(self, client, outsider, round_):
        client.force_login(outsider)
        response = client.get(write_url(round_))
        assert response.status_code == 403
        assert "not enrolled" in page_text(response)

    def test_closed_round_gets_403_with_reason(self, client, student, closed_round):
        client.force_login(student)
        response = client.get(write_url(closed_round))
        assert response.status_code == 403
        assert "This round is closed" in page_text(response)

    def test_unknown_round_gets_404(self, client, student):
        client.force_login(student)
        response = client.get(reverse("collector:round_write", args=[999999]))
        assert response.status_code == 404
        assert "does not exist" in page_text(response)


@pytest.mark.django_db
class AuthoringPageSubmitTests:
    def test_stumped_question_is_stored_with_the_servers_prediction(self, client, student, round_, fake_model):
        client.force_login(student)
        response = client.post(write_url(round_), form_data(answer="0"), follow=True)
        assert response.redirect_chain == [(write_url(round_), 302)]
        question = Question.objects.get()
        assert (question.author, question.correct_index, question.categories) == (student, 0, ["idioms"])
        assert question.time_spent_seconds == 42
        prediction = question.predictions.get()
        assert prediction.status == Prediction.Status.DONE and prediction.fooled is True
        page = page_text(response)
        assert "Stumped! The model picked “ate a salad instead.”" in page
        assert "question-saved" in page  # tells author.js to forget the saved draft

    def test_not_fooled_message(self, client, student, round_, fake_model):
        client.force_login(student)
        response = client.post(write_url(round_), form_data(answer="3"), follow=True)
        assert "Not fooled: the model picked “ate a salad instead.”" in page_text(response)

    def test_pending_message_when_the_model_fails(self, client, student, round_, broken_model):
        client.force_login(student)
        response = client.post(write_url(round_), form_data(), follow=True)
        assert Question.objects.count() == 1
        assert "Saved; the model's answer is pending" in page_text(response)

    def test_double_submit_with_same_token_stores_once(self, client, student, round_, fake_model):
        client.force_login(student)
        data = form_data()
        assert client.post(write_url(round_), data).status_code == 302
        assert client.post(write_url(round_), data).status_code == 302
        assert Question.objects.count() == 1

    @pytest.mark.parametrize(
        ("overrides", "field", "message"),
        [
            ({"prompt": ""}, "prompt", "The prompt is empty."),
            ({"prompt": "   \n\t "}, "prompt", "The prompt is empty."),
            ({"choice_2": "   "}, "choice_2", "Completion C is empty."),
            ({"choice_3": None}, "choice_3", "Completion D is empty."),
            ({"choice_1": "WAS  very hungry."}, "choice_1", "Completion B repeats completion A."),
            ({"answer": None}, "answer", "Mark which completion is the right one."),
            ({"answer": "7"}, "answer", "Select a valid choice."),
            ({"prompt": "x" * (settings.STUMPER_MAX_PROMPT_CHARS + 1)}, "prompt", "The prompt is too long"),
            ({"choice_0": "y" * (settings.STUMPER_MAX_CHOICE_CHARS + 1)}, "choice_0", "Completion A is too long"),
            ({"categories": ["polysemy"]}, "categories", "Select a valid choice."),
            ({"categories": ["bogus"]}, "categories", "Select a valid choice."),
            ({"client_token": "not-a-uuid"}, "client_token", "Enter a valid UUID."),
            ({"prompt": "nul \x00 byte"}, "prompt", "Null characters are not allowed."),
        ],
    )
    def test_bad_input_is_explained_and_nothing_is_stored(
        self, client, student, round_, fake_model, overrides, field, message
    ):
        client.force_login(student)
        data = form_data(**overrides)
        response = client.post(write_url(round_), data)
        assert response.status_code == 200
        assert Question.objects.count() == 0
        form = response.context["form"]
        assert any(message in error for error in form.errors[field]), form.errors
        assert message.split("“")[0] in page_text(response)
        # What the author typed is kept.
        if field != "choice_1":
            assert "was not hungry at all." in page_text(response)

    def test_odd_time_spent_is_ignored_not_an_error(self, client, student, round_, fake_model):
        client.force_login(student)
        response = client.post(write_url(round_), form_data(time_spent_seconds="soon"))
        assert response.status_code == 302
        assert Question.objects.get().time_spent_seconds == 0

    def test_closed_round_post_is_403_and_stores_nothing(self, client, student, closed_round, fake_model):
        client.force_login(student)
        response = client.post(write_url(closed_round), form_data())
        assert response.status_code == 403
        assert "This round is closed" in page_text(response)
        assert Question.objects.count() == 0

    def test_outsider_post_is_403_and_stores_nothing(self, client, outsider, round_, fake_model):
        client.force_login(outsider)
        assert client.post(write_url(round_), form_data()).status_code == 403
        assert Question.objects.count() == 0

    def test_post_without_csrf_token_is_rejected(self, student, round_, fake_model):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(student)
        assert client.post(write_url(round_), form_data()).status_code == 403
        assert Question.objects.count() == 0
