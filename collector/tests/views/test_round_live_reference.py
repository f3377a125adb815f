"""``views/rounds.py``: the round page says how easy the live model is to fool (its accuracy on a
reference set where one is known, ``modelhub.selectors.model_reference_accuracy``) and where
stronger models come from."""
import html

import pytest
from django.urls import reverse

from collector.models import Round
from modelhub.services import model_version_register

pytestmark = pytest.mark.django_db


def _reference(client, instructor, round_) -> str:
    client.force_login(instructor)
    page = html.unescape(client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode())
    start = page.index('data-testid="live-model-reference"')
    return " ".join(page[start:page.index("</p>", start)].split())


def test_version_0_shows_its_codah_accuracy_and_that_it_is_easy_to_fool(client, instructor, round_):
    assert round_.live_model.name == "v0-minilm-zero-shot"
    text = _reference(client, instructor, round_)
    assert ("On a reference set (CODAH, fold-0 test, 555 questions) the live model v0-minilm-zero-shot picks the "
            "right completion for 42.5% of them; guessing gives 25%.") in text
    assert "It is easy to fool" in text
    assert 'Stronger models: <a href="#train-heading">train one on this round' in text


def test_a_trained_model_shows_its_stored_evaluation(client, instructor, round_):
    trained = model_version_register(name="codah-fold0", kind="multiple_choice", path="/models/codah-fold0",
                                     metrics={"eval_accuracy": 0.564, "eval_examples": 555})
    Round.objects.filter(pk=round_.pk).update(live_model=trained)
    text = _reference(client, instructor, round_)
    assert "(held-out questions, 555 questions) the live model codah-fold0 picks the right completion for 56.4%" in text
    assert "easy to fool" not in text


def test_a_model_without_an_evaluation_says_so(client, instructor, round_):
    untested = model_version_register(name="mystery", kind="multiple_choice", path="/models/mystery")
    Round.objects.filter(pk=round_.pk).update(live_model=untested)
    text = _reference(client, instructor, round_)
    assert "The accuracy of the live model mystery on a reference set is not known" in text
