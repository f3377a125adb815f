"""The round settings page: instructors of the course only; errors shown next to the fields."""
import pytest
from django.urls import reverse

from collector import round_settings
from collector.models import Round


def settings_url(round_) -> str:
    return reverse("collector:round_settings", args=[round_.pk])


def form_data(round_, **changes) -> dict:
    data = {
        "title": round_.title, "instructions": "", "opens_at": "", "closes_at": "", "weight_live": 1.0,
        "weight_cv": 1.0, "live_model": round_.live_model_id, "base_checkpoint": "",
        **{k: v for k, v in round_settings.round_scoring_settings(round_=round_).items() if k != "bf16"},
        "bf16": "on",
    }
    data.update(changes)
    return data


@pytest.mark.django_db
class RoundSettingsPageTests:
    def test_instructor_sees_current_values_and_saves(self, client, instructor, round_):
        client.force_login(instructor)
        page = client.get(settings_url(round_))
        assert page.status_code == 200
        assert page.context["form"].initial["freeze_layers"] == 2
        response = client.post(settings_url(round_), form_data(round_, weight_cv=3, epochs=2), follow=True)
        assert "Round settings saved" in response.content.decode()
        saved = Round.objects.get(pk=round_.pk)
        assert saved.weight_cv == 3.0 and saved.scoring_config == {"epochs": 2}

    def test_bad_values_are_shown_and_nothing_is_saved(self, client, instructor, round_):
        client.force_login(instructor)
        response = client.post(settings_url(round_), form_data(round_, epochs=0, weight_cv=-1, learning_rate="fast"))
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert {"epochs", "weight_cv", "learning_rate"} <= set(errors)
        assert Round.objects.get(pk=round_.pk).scoring_config == {}

    @pytest.mark.parametrize("who", ["student", "other_instructor", "crowdworker"])
    def test_others_are_refused(self, client, round_, who, request):
        client.force_login(request.getfixturevalue(who))
        assert client.get(settings_url(round_)).status_code == 403
        assert client.post(settings_url(round_), form_data(round_, weight_cv=9)).status_code == 403
        assert Round.objects.get(pk=round_.pk).weight_cv == 1.0

    def test_anonymous_is_sent_to_sign_in(self, client, round_):
        assert client.get(settings_url(round_)).status_code == 302
