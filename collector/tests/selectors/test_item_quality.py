"""``selectors/item_quality.py``: a round's response matrix and its IRT item quality."""
import numpy as np
import pytest

from collector.models import Prediction, Round
from collector.selectors.item_quality import HUMAN, MODEL, OTHER, round_item_quality, round_response_matrix
from collector.tests.factories import validate
from collector.tests.item_quality_fixtures import numbered_question as _submit
from mlcore.stats.irt import adversarial_quality, fit_2pl

pytestmark = pytest.mark.django_db
nan = np.nan


def test_the_matrix_is_the_hand_built_one(scored_round, classmates):
    round_, q, cv, ao = scored_round
    bob, carol, _ = classmates
    live = Prediction.objects.get(question=q[0], kind=Prediction.Kind.LIVE).model_version_id or "default"
    matrix = round_response_matrix(round_=round_)
    assert matrix.question_ids == tuple(x.pk for x in q)
    expected = {  # column -> (group, answers to q0, q1, q2)
        f"cv:{cv.pk}:0:0": (MODEL, [0, nan, 1]),
        f"cv:{cv.pk}:0:1": (MODEL, [nan, 1, nan]),
        f"model:{live}": (MODEL, [0, 1, 0]),
        f"answer_only:{ao.pk}:0:0": (OTHER, [1, nan, 0]),
        f"answer_only:{ao.pk}:0:1": (OTHER, [nan, 0, nan]),
        f"human:{bob.pk}": (HUMAN, [1, 1, 0]),
        f"human:{carol.pk}": (HUMAN, [1, 0, nan]),
    }
    assert [r.key for r in matrix.respondents] == list(expected)
    assert [r.group for r in matrix.respondents] == [group for group, _ in expected.values()]
    hand_built = np.array([answers for _, answers in expected.values()], dtype=float).T
    np.testing.assert_array_equal(matrix.responses, hand_built)


def test_quality_order_and_scores_match_the_pure_functions(scored_round):
    round_, q, _, _ = scored_round
    matrix = round_response_matrix(round_=round_)
    fit = fit_2pl(matrix.responses)
    humans, models = matrix.columns(HUMAN), matrix.columns(MODEL)
    scores = adversarial_quality(fit, matrix.responses, human_columns=humans, model_columns=models)
    result = round_item_quality(round_=round_)
    assert result.ready and (result.n_questions, result.n_humans, result.n_models) == (3, 2, 3)
    assert result.order == tuple(q[i].pk for i in scores.ranking())
    for i, question in enumerate(q):
        item = result.get(question.pk)
        assert item.quality == pytest.approx(scores.score[i])
        assert item.difficulty == pytest.approx(fit.difficulty[i])
        assert item.discrimination == pytest.approx(fit.discrimination[i])
        assert (item.n_human, item.n_model) == (int(scores.n_human[i]), int(scores.n_model[i]))
    # q0: both people right and every model wrong; q1: the models right -> q0 ranks above q1.
    assert result.order.index(q[0].pk) < result.order.index(q[1].pk)


def test_empty_and_unvalidated_rounds_are_not_ready(peer_round, student, classmates, fake_model):
    empty = round_item_quality(round_=peer_round)
    assert not empty.ready and empty.reason and empty.n_questions == 0 and not empty.items
    q = [_submit(student, peer_round, i, 0) for i in range(2)]
    unvalidated = round_item_quality(round_=peer_round)
    assert not unvalidated.ready and unvalidated.n_models == 1 and unvalidated.n_humans == 0
    # A validation is a data change: the cached "not ready" gives way to scores.
    validate(q[0], classmates[0], 0)
    ready = round_item_quality(round_=peer_round)
    assert ready.ready and set(ready.items) == {x.pk for x in q}


def test_other_rounds_answers_stay_out(scored_round, course):
    round_, q, _, _ = scored_round
    other = Round.objects.create(course=course, name="r2", title="Other")
    matrix = round_response_matrix(round_=other)
    assert matrix.question_ids == () and matrix.respondents == () and matrix.responses.shape == (0, 0)


def test_the_jsonl_export_carries_the_scores(scored_round):
    from collector.selectors.exports import round_export_records

    round_, q, _, _ = scored_round
    result = round_item_quality(round_=round_)
    records = round_export_records(round_=round_)
    assert [r["id"] for r in records] == [x.pk for x in q]
    for record in records:
        item = result.get(record["id"])
        assert record["quality"] == pytest.approx(item.quality, abs=1e-4)
        assert record["difficulty"] == pytest.approx(item.difficulty, abs=1e-4)
        assert record["discrimination"] == pytest.approx(item.discrimination, abs=1e-4)
