"""Rounds with answers from people and models, for the item quality tests (selectors and views)."""
import pytest

from collector.services.questions import question_submit
from collector.tests.factories import finished_scoring_run, question_data, validate


def numbered_question(user, round_, i: int, key: int):
    """Question ``i`` of ``user`` in ``round_`` with answer key ``key`` (the fake live model picks 3)."""
    return question_submit(user=user, round_id=round_.pk, **question_data(
        prompt=f"Unrelated prompt number {i} about topic {i * 7}. He", correct_index=key,
        choices=[f"did thing {i}a.", f"did thing {i}b.", f"did thing {i}c.", f"did thing {i}d."]))


@pytest.fixture
def scored_round(peer_round, student, classmates, fake_model):
    """Three questions (keys 0, 3, 0; the fake live model picks 3), validated by bob and carol,
    with a cross-validation run and an answer-only run of two folds each."""
    bob, carol, _ = classmates
    q = [numbered_question(student, peer_round, i, key) for i, key in enumerate((0, 3, 0))]
    validate(q[0], bob, 0)
    validate(q[1], bob, 3)
    validate(q[2], bob, 1)
    validate(q[0], carol, 0)
    validate(q[1], carol, 0)
    # finished_scoring_run puts question i (by id) in fold i % 2.
    cv = finished_scoring_run(peer_round, {q[0].pk: [False], q[1].pk: [True], q[2].pk: [True]})
    ao = finished_scoring_run(peer_round, {q[0].pk: [True], q[1].pk: [False], q[2].pk: [False]}, kind="answer_only")
    return peer_round, q, cv, ao
