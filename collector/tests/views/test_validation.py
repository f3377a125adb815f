"""``views/validation.py``: the blind validation page."""
import pytest
from django.urls import reverse

from collector.models import Round, Validation
from collector.selectors.validation import display_order, validation_token

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
