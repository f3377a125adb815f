"""Helpers for building test data; the fixtures that use them are in the root conftest.py."""
from accounts.models import User
from accounts.services import user_create
from mlcore.configs import MCPrediction

PASSWORD = "a-long-test-password-42"
FIXED_PREDICTION = MCPrediction(probs=(0.1, 0.2, 0.3, 0.4), predicted=3, model_name="tiny", model_revision="r")
MODEL_PICK = 3


def make_user(username: str, role: str = User.Role.STUDENT, **extra) -> User:
    user = user_create(username=username, password=PASSWORD, role=role)
    if extra:
        User.objects.filter(pk=user.pk).update(**extra)
        user.refresh_from_db()
    return user


def question_data(**overrides) -> dict:
    """A valid submission in the service's keyword form."""
    data = {
        "prompt": "The man ate the whole pizza by himself. He",
        "choices": ["was very hungry.", "was not hungry at all.", "gave the pizza to his dog.", "ate a salad instead."],
        "correct_index": 0,
        "categories": [],
    }
    data.update(overrides)
    return data
