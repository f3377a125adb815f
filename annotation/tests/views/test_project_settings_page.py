"""The project settings page: groups with legends and help, the Persian instructions box right to left."""
import re

import pytest
from django.urls import reverse

from annotation.forms.projects import ProjectForm
from annotation.services.projects import EDITABLE_FIELDS

pytestmark = pytest.mark.django_db


def test_every_setting_is_in_one_group_with_a_label_and_help():
    grouped = [name for _, _, names in ProjectForm.FIELDSETS for name in names]
    assert sorted(grouped) == sorted(["name", "language", *EDITABLE_FIELDS]) and len(grouped) == len(set(grouped))
    form = ProjectForm()
    for name, field in form.fields.items():
        assert field.help_text, name
    assert set(ProjectForm.Meta.labels) == set(EDITABLE_FIELDS)  # written labels, not the field names


def test_the_settings_page_shows_the_groups(client, owner, fa_project):
    client.force_login(owner)
    html = client.get(reverse("annotation:project_settings", args=[fa_project.pk])).content.decode()
    legends = re.findall(r"<legend>(.*?)</legend>", html)
    assert legends == ["Crowdworkers", "Writing questions", "Second pass", "Model in the loop", "Passages",
                       "Train, validation and test splits"]
    assert re.search(r'<textarea name="instructions"[^>]*dir="rtl"[^>]*lang="fa"', html)
    assert "Fewest questions per paragraph" in html and "A guide: the page shows the time spent" in html


def test_the_english_instructions_box_is_left_to_right_and_creation_groups_the_rest(client, owner, project):
    client.force_login(owner)
    html = client.get(reverse("annotation:project_settings", args=[project.pk])).content.decode()
    assert re.search(r'<textarea name="instructions"[^>]*dir="ltr"', html)
    created = client.get(reverse("annotation:project_list")).content.decode()
    assert re.findall(r"<legend>(.*?)</legend>", created)[0] == "Crowdworkers"
    assert created.count('name="instructions"') == 1  # shown once, above "More settings"
