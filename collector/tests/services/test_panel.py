"""A round's panel of target models: a verdict per model at submission, and the round's credit rule."""
from unittest import mock

import pytest

from collector.models import PanelRole, Prediction, RoundPanelMember, SubmissionVerdict
from collector.selectors.questions import author_round_tally
from collector.services.questions import question_submit
from collector.services.reviews import _refresh_model_answers
from collector.services.rounds import round_set_live_model
from collector.tests.factories import FIXED_PREDICTION, MODEL_PICK, question_data
from mlcore.configs import MCPrediction
from modelhub.models import ModelVersion


def _version(name: str, kind: str = ModelVersion.Kind.MULTIPLE_CHOICE, **fields) -> ModelVersion:
    return ModelVersion.objects.create(name=name, kind=kind, path=f"/models/{name}", **fields)


def _pick(index: int, name: str) -> MCPrediction:
    probs = tuple(0.7 if i == index else 0.1 for i in range(4))
    return MCPrediction(probs, index, name, "rev-" + name)


@pytest.fixture
def panel_round(round_):
    """The round's live model (shown, weight 3), ``shown-b`` (weight 1) and ``held-c`` (held out)."""
    live = round_.live_model
    b, c = _version("shown-b"), _version("held-c", ModelVersion.Kind.OPENAI_COMPATIBLE)
    RoundPanelMember.objects.filter(round=round_).delete()
    for position, (version, role, weight) in enumerate(
            [(live, PanelRole.SHOWN, 3), (b, PanelRole.SHOWN, 1), (c, PanelRole.HELD_OUT, 1)]):
        RoundPanelMember.objects.create(round=round_, model_version=version, position=position, role=role, weight=weight)
    return round_


def _answers(by_name: dict):
    """``predict_examples`` of the verdicts service: each version answers as ``by_name`` says."""
    def predict(version, examples):
        answer = by_name[version.name]
        if isinstance(answer, Exception):
            raise answer
        return [answer]
    return mock.patch("collector.services.verdicts.predict_examples", side_effect=predict)


def test_a_round_of_one_model_gets_one_verdict_equal_to_its_live_prediction(round_, student, fake_model):
    question = question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
    live = question.predictions.get(kind=Prediction.Kind.LIVE)
    [verdict] = SubmissionVerdict.objects.filter(question=question)
    assert (verdict.model_version_id, verdict.role, verdict.status) == (live.model_version_id, "shown", "done")
    assert (verdict.predicted_index, verdict.probs, verdict.fooled) == (MODEL_PICK, list(FIXED_PREDICTION.probs), True)
    assert verdict.model_revision == live.model_revision == "r"
    assert author_round_tally(user=student, round_=round_).credit == round_.weight_live  # today's credit


def test_every_panel_model_gets_a_verdict_and_a_failing_one_blocks_no_other(panel_round, student, fake_model):
    with _answers({"shown-b": _pick(0, "shown-b"), "held-c": RuntimeError("endpoint down")}):
        question = question_submit(user=student, round_id=panel_round.pk, **question_data(correct_index=0))
    verdicts = list(SubmissionVerdict.objects.filter(question=question).order_by("position"))
    assert [(v.model_version.name, v.role, v.status, v.fooled) for v in verdicts] == [
        (panel_round.live_model.name, "shown", "done", True),
        ("shown-b", "shown", "done", False),
        ("held-c", "held_out", "failed", None),
    ]
    assert verdicts[1].model_revision == "rev-shown-b" and verdicts[1].probs == [0.7, 0.1, 0.1, 0.1]
    assert "endpoint down" in verdicts[2].detail


def test_a_remote_models_failed_call_is_a_failed_verdict_with_its_status(panel_round, student, fake_model):
    failed = MCPrediction.failure(model_name="held-c", model_revision="m", status="timeout", detail="no answer in 2 s")
    with _answers({"shown-b": _pick(1, "shown-b"), "held-c": failed}):
        question = question_submit(user=student, round_id=panel_round.pk, **question_data(correct_index=0))
    verdict = SubmissionVerdict.objects.get(question=question, model_version__name="held-c")
    assert (verdict.status, verdict.detail, verdict.fooled, verdict.probs) == ("failed", "timeout: no answer in 2 s", None, None)
    assert SubmissionVerdict.objects.get(question=question, model_version__name="shown-b").fooled is True


@pytest.mark.parametrize(("rule", "k", "b_fooled", "share"), [
    ("any", 1, False, 1.0), ("all", 1, False, 0.0), ("all", 1, True, 1.0), ("at_least_k", 2, False, 0.0),
    ("at_least_k", 2, True, 1.0), ("at_least_k", 5, True, 1.0),  # k above the shown models: all of them
    ("weighted", 1, False, 0.75), ("weighted", 1, True, 1.0),
])
def test_the_credit_rule_counts_the_shown_models_only(panel_round, student, fake_model, rule, k, b_fooled, share):
    panel_round.credit_rule, panel_round.credit_k, panel_round.weight_live = rule, k, 2.0
    panel_round.save()
    # held-c is fooled each time: a held-out model never earns (or costs) credit.
    with _answers({"shown-b": _pick(MODEL_PICK if b_fooled else 0, "shown-b"), "held-c": _pick(2, "held-c")}):
        question_submit(user=student, round_id=panel_round.pk, **question_data(correct_index=0))
    assert author_round_tally(user=student, round_=panel_round).credit == pytest.approx(2.0 * share, abs=0)


def test_a_letter_without_probabilities_is_stored_without_them(panel_round, student, fake_model):
    letter_only = MCPrediction((0.0, 1.0, 0.0, 0.0), 1, "shown-b", "m", has_probabilities=False)
    with _answers({"shown-b": letter_only, "held-c": _pick(0, "held-c")}):
        question = question_submit(user=student, round_id=panel_round.pk, **question_data(correct_index=0))
    verdict = SubmissionVerdict.objects.get(question=question, model_version__name="shown-b")
    assert (verdict.status, verdict.predicted_index, verdict.probs, verdict.fooled) == ("done", 1, None, True)


def test_failed_and_letter_only_predictions_travel_to_and_from_an_inference_worker():
    from mlcore.models.openai_endpoint import EndpointPrediction
    from modelhub.inference import record_from_json, record_to_json

    records = [MCPrediction.failure(model_name="m", model_revision="r", status="rate_limited", detail="HTTP 429"),
               EndpointPrediction((0.0, 0.0, 1.0, 0.0), 2, "m", "r", has_probabilities=False), _pick(3, "m")]
    for record in records:
        back = record_from_json(MCPrediction, record_to_json(record))
        assert (back.probs, back.predicted, back.status, back.detail, back.has_probabilities, back.answered) == (
            record.probs, record.predicted, record.status, record.detail, record.has_probabilities, record.answered)


def test_an_edit_rejudges_every_verdict(panel_round, student, fake_model):
    with _answers({"shown-b": _pick(0, "shown-b"), "held-c": _pick(2, "held-c")}):
        question = question_submit(user=student, round_id=panel_round.pk, **question_data(correct_index=0))
    question.correct_index = 2
    question.save()
    _refresh_model_answers(question, text_changed=False)
    fooled = dict(SubmissionVerdict.objects.filter(question=question).values_list("model_version__name", "fooled"))
    assert fooled == {panel_round.live_model.name: True, "shown-b": True, "held-c": False}
    with mock.patch("collector.services.reviews.task_enqueue"):
        _refresh_model_answers(question, text_changed=True)
    assert set(SubmissionVerdict.objects.filter(question=question).values_list("status", flat=True)) == {"pending"}


def test_a_question_without_verdicts_keeps_its_live_credit(round_, student, fake_model):
    question = question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
    SubmissionVerdict.objects.filter(question=question).delete()  # as questions submitted before panels
    assert author_round_tally(user=student, round_=round_).credit == round_.weight_live


def test_a_new_live_model_takes_the_first_shown_seat(panel_round):
    b = ModelVersion.objects.get(name="shown-b")
    round_set_live_model(round_=panel_round, model_version=b)
    seats = list(RoundPanelMember.objects.filter(round=panel_round).values_list("model_version__name", "role"))
    assert seats == [("shown-b", "shown"), ("held-c", "held_out")]
