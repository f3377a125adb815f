"""Fixtures of the page tests: a round with a few questions (the round page's scoring and training)."""
import pytest

from collector.services.questions import question_submit
from collector.tests.factories import question_data


@pytest.fixture
def five_questions(round_, student, fake_model):
    return [
        question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Prompt {i}. He", correct_index=i % 4))
        for i in range(5)
    ]
