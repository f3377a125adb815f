"""``project_squad_dict`` with and without an evaluation report's weights."""
import pytest

from annotation.models import SpanQuestion
from annotation.squad_selectors import project_squad_dict
from evaluation.selectors.exports import evaluation_run_weights

pytestmark = pytest.mark.django_db


def qas(data: dict) -> list[dict]:
    return [qa for article in data["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]


def test_without_weights_no_qa_has_a_weight_field(weighed_project):
    project, _ = weighed_project
    data = project_squad_dict(project=project)
    assert len(qas(data)) == 12
    assert all(set(qa) == {"question", "id", "answers", "is_impossible"} for qa in qas(data))


def test_weights_go_to_the_train_questions_and_null_elsewhere(weighed_project):
    project, run = weighed_project
    weights = evaluation_run_weights(run_id=run.pk, project=project)
    plain = project_squad_dict(project=project)

    data = project_squad_dict(project=project, weights=weights)

    # Only the "weight" key is added, last, to the same qas in the same order.
    assert [{k: v for k, v in qa.items() if k != "weight"} for qa in qas(data)] == qas(plain)
    assert all(list(qa)[-1] == "weight" for qa in qas(data))
    pk_of = dict(SpanQuestion.objects.filter(project=project).values_list("qid", "pk"))
    by_qid = {qa["id"]: qa["weight"] for qa in qas(data)}
    assert by_qid == {qid: weights.get((pk_of[qid], qid)) for qid in by_qid}
    assert [by_qid[f"q{i}"] is None for i in range(12)] == [False] * 8 + [True] * 4  # validation is not weighed
    # Unanswerable train questions all say "first", so reweighting gives them other weights than the rest.
    assert by_qid["q0"] != by_qid["q4"]


def test_one_split_with_weights(weighed_project):
    project, run = weighed_project
    weights = evaluation_run_weights(run_id=run.pk, project=project)

    data = project_squad_dict(project=project, split="train", weights=weights)

    assert sorted(qa["weight"] for qa in qas(data)) == sorted(weights.values())
