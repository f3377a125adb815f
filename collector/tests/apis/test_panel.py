"""``apis/panel.py`` and ``services/panel.py``: a round's panel and credit rule, set all or nothing."""
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from collector.models import Round, RoundPanelMember
from collector.services.panel import PanelChoice, round_panel_set
from collector.tests.factories import api_client
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db


def _version(name: str, kind: str = ModelVersion.Kind.MULTIPLE_CHOICE, **fields) -> ModelVersion:
    return ModelVersion.objects.create(**{"name": name, "kind": kind, "path": f"/models/{name}", **fields})


@pytest.fixture
def loads():
    """Every model loads (no weights are read); a test swaps in a failure where it needs one."""
    with mock.patch("collector.services.panel.live_model_for") as patched:
        yield patched


def _seats(round_):
    return list(RoundPanelMember.objects.filter(round=round_).order_by("position")
                .values_list("model_version__name", "role", "weight"))


def test_a_new_round_reads_as_the_panel_of_its_live_model(instructor, round_):
    data = api_client(instructor).get(reverse("api:round_panel", args=[round_.pk])).json()
    assert data == {"members": [{"position": 0, "model_version": round_.live_model_id, "name": round_.live_model.name,
                                 "kind": round_.live_model.kind, "role": "shown", "weight": 1}],
                    "credit_rule": "any", "credit_k": 1}


def test_add_reorder_and_hold_out_models_and_set_the_rule(instructor, round_, loads):
    b, c = _version("b"), _version("c", ModelVersion.Kind.CAUSAL_LM)
    url = reverse("api:round_panel_update", args=[round_.pk])
    body = {"members": [{"model_version": b.pk, "weight": 2}, {"model_version": round_.live_model_id},
                        {"model_version": c.pk, "role": "held_out"}], "credit_rule": "at_least_k", "credit_k": 2}
    response = api_client(instructor).post(url, body, format="json")
    assert response.status_code == 200, response.data
    assert _seats(round_) == [("b", "shown", 2), (round_.live_model.name, "shown", 1), ("c", "held_out", 1)]
    saved = Round.objects.get(pk=round_.pk)
    assert (saved.live_model_id, saved.credit_rule, saved.credit_k) == (b.pk, "at_least_k", 2)  # first shown is live
    assert [m["name"] for m in response.data["members"]] == ["b", round_.live_model.name, "c"]
    assert {call.args[0].name for call in loads.call_args_list} == {"b", "c"}  # new models only are loaded


def test_a_model_that_fails_to_load_is_refused_with_its_error_and_the_panel_stays(instructor, round_, tmp_path):
    broken = _version("broken-lm", ModelVersion.Kind.CAUSAL_LM, path=str(tmp_path / "no-such-checkpoint"))
    before = Round.objects.get(pk=round_.pk).live_model_id
    url = reverse("api:round_panel_update", args=[round_.pk])
    body = {"members": [{"model_version": round_.live_model_id}, {"model_version": broken.pk}]}
    response = api_client(instructor).post(url, body, format="json")  # a real load of a missing checkpoint
    assert response.status_code == 400
    [message] = response.data["panel"]
    assert message.startswith("broken-lm could not be loaded: ") and len(message) > len("broken-lm could not be loaded: ")
    assert _seats(round_) == [] and Round.objects.get(pk=round_.pk).live_model_id == before


@pytest.mark.parametrize(("members", "rule", "k", "expected"), [
    ([("held_out", 1)], "any", 1, "At least one model must be shown"),
    ([("shown", 1), ("shown", 1)], "at_least_k", 3, "k must be from 1 to the number of shown models (2)"),
    ([("shown", 0), ("held_out", 4)], "weighted", 1, "at least one shown model needs a weight above 0"),
    ([("shown", 1)], "most", 1, "Choose a credit rule"),
    ([("shown", -1)], "any", 1, "whole number from 0 to 1000"),
])
def test_bad_panels_are_refused_whole(round_, loads, members, rule, k, expected):
    versions = [_version(f"m{i}") for i in range(len(members))]
    choices = [PanelChoice(v, role, weight) for v, (role, weight) in zip(versions, members)]
    with pytest.raises(ValidationError) as refused:
        round_panel_set(round_=round_, members=choices, credit_rule=rule, credit_k=k)
    assert any(expected in message for message in refused.value.message_dict["panel"])
    assert _seats(round_) == [] and not loads.called  # nothing loaded, nothing saved


def test_an_endpoint_cannot_be_the_first_shown_model_but_can_follow(round_, loads):
    remote = _version("remote", ModelVersion.Kind.OPENAI_COMPATIBLE, path="http://127.0.0.1:9/v1")
    with pytest.raises(ValidationError, match="make it a local model"):
        round_panel_set(round_=round_, members=[PanelChoice(remote), PanelChoice(round_.live_model)])
    round_panel_set(round_=round_, members=[PanelChoice(round_.live_model), PanelChoice(remote)])
    assert [name for name, _, _ in _seats(round_)] == [round_.live_model.name, "remote"]


def test_a_model_twice_or_none_is_refused(round_, loads):
    b = _version("b")
    with pytest.raises(ValidationError, match="only once"):
        round_panel_set(round_=round_, members=[PanelChoice(b), PanelChoice(b)])
    with pytest.raises(ValidationError, match="from 1 to"):
        round_panel_set(round_=round_, members=[])


def test_another_courses_model_does_not_exist_for_this_instructor(instructor, round_, other_course, loads):
    theirs = _version("theirs", course=other_course)
    url = reverse("api:round_panel_update", args=[round_.pk])
    response = api_client(instructor).post(url, {"members": [{"model_version": theirs.pk}]}, format="json")
    assert response.status_code == 400 and "members" in response.data
    with pytest.raises(ValidationError, match="no such model"):
        round_panel_set(round_=round_, members=[PanelChoice(theirs)], user=instructor)
    assert _seats(round_) == []


def test_only_the_courses_instructors_read_or_change_the_panel(student, other_instructor, round_, loads):
    for user in (student, other_instructor):
        client = api_client(user)
        assert client.get(reverse("api:round_panel", args=[round_.pk])).status_code in (403, 404)
        body = {"members": [{"model_version": round_.live_model_id}]}
        assert client.post(reverse("api:round_panel_update", args=[round_.pk]), body, format="json").status_code in (403, 404)
    assert _seats(round_) == []


def test_a_question_answer_model_cannot_join_a_panel(round_, loads):
    qa = _version("qa", ModelVersion.Kind.QUESTION_ANSWERING)
    with pytest.raises(ValidationError, match="does not answer multiple-choice"):
        round_panel_set(round_=round_, members=[PanelChoice(qa)])


def test_an_api_key_variable_must_be_a_name_not_a_key() -> None:
    version = ModelVersion(name="remote", kind=ModelVersion.Kind.OPENAI_COMPATIBLE, path="http://127.0.0.1:8000/v1",
                           options={"model": "m", "api_key_env": "sk-live-1234"})
    with pytest.raises(ValidationError, match="not the key itself"):
        version.full_clean()
    version.options = {"model": "m", "api_key_env": "OPENAI_API_KEY"}
    version.full_clean()
    version.options = {"temperature": "0"}
    with pytest.raises(ValidationError, match="Unknown options"):
        version.full_clean()
