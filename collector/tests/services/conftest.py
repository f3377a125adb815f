"""Fixtures of the scoring tests: a round of toy questions that a tiny BERT fine-tunes on."""
from unittest import mock

import pytest

TINY_SCORING = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}
CATEGORIES = [["idioms"], ["negation"], ["other"], ["other"], ["quantitative"]]


@pytest.fixture
def scored_round(open_round, student, tiny_model_dir):
    """An open round of 20 toy questions whose scoring fine-tunes the tiny BERT."""
    from collector.models import Question
    from mlcore.testing import make_toy_examples

    open_round.base_checkpoint = str(tiny_model_dir)
    open_round.scoring_config = TINY_SCORING
    open_round.categories = ["idioms", "negation", "quantitative", "other"]
    open_round.save()
    Question.objects.bulk_create(
        Question(round=open_round, author=student, prompt=e.prompt, choices=list(e.choices), correct_index=e.label,
                 categories=CATEGORIES[i % len(CATEGORIES)])
        for i, e in enumerate(make_toy_examples(20, seed=3))
    )
    return open_round


def start(round_, **kwargs):
    """``scoring_start`` without enqueuing a task (the test runs the run itself)."""
    from collector import scoring

    with mock.patch("collector.scoring.scoring_schedule"):
        return scoring.scoring_start(round_=round_, **kwargs)
