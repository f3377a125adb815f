"""Fixtures of the scoring tests: a round of toy questions that a tiny BERT fine-tunes on."""
from unittest import mock

import pytest

from collector.services.scoring import scoring_start
from collector.tests.factories import toy_scoring_round

TINY_SCORING = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}
CATEGORIES = [["idioms"], ["negation"], ["other"], ["other"], ["quantitative"]]


@pytest.fixture
def scored_round(open_round, student, tiny_model_dir):
    """An open round of 20 toy questions whose scoring fine-tunes the tiny BERT."""
    open_round.categories = ["idioms", "negation", "quantitative", "other"]
    return toy_scoring_round(open_round, student, tiny_model_dir, TINY_SCORING, questions=20, seed=3,
                             categories=CATEGORIES)


def start(round_, **kwargs):
    """``scoring_start`` without enqueuing a task (the test runs the run itself)."""

    with mock.patch("collector.services.scoring.scoring_schedule"):
        return scoring_start(round_=round_, **kwargs)
