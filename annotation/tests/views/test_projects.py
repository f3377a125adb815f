"""The owner's project pages: creating a project, its dashboard, its settings (bad values, the groups)."""
import re

import pytest
from django.urls import reverse

from annotation.forms.projects import ProjectForm
from annotation.models import Project, SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.projects import EDITABLE_FIELDS
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import EN_CONTEXT, answer, submitted_paragraph

pytestmark = pytest.mark.django_db


class OwnerPageTests:
    def test_create_a_project_and_see_the_empty_dashboard(self, client, owner):
        client.force_login(owner)
        assert "No annotation projects yet" in client.get(reverse("annotation:project_list")).content.decode()
        data = {"name": "pquad-like", "language": "fa", "questions_min": 5, "questions_max": 10,
                "minutes_per_paragraph": 15, "overlap": 1, "second_pass_answers": 2, "fool_f1_threshold": 0.4,
                "pagerank_damping": 0.4, "top_articles": 100, "paragraphs_per_article": 20,
                "paragraph_min_chars": 500, "paragraph_max_chars": 1100, "train_ratio": 0.8,
                "validation_ratio": 0.1, "test_ratio": 0.1, "split_seed": 0, "is_active": "on"}
        response = client.post(reverse("annotation:project_list"), data)
        project = Project.objects.get(name="pquad-like")
        assert response.url == reverse("annotation:project_import", args=[project.pk])
        dashboard = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
        assert "has no paragraphs yet" in dashboard and 'class="vl-chart"' in dashboard

    def test_bad_settings_show_the_message(self, client, owner, project):
        client.force_login(owner)
        response = client.post(reverse("annotation:project_settings", args=[project.pk]), {
            "questions_min": 9, "questions_max": 3, "minutes_per_paragraph": 15, "overlap": 1,
            "second_pass_answers": 2, "fool_f1_threshold": 0.4, "pagerank_damping": 0.4, "top_articles": 10,
            "paragraphs_per_article": 20, "paragraph_min_chars": 500, "paragraph_max_chars": 1100,
            "train_ratio": 0.8, "validation_ratio": 0.1, "test_ratio": 0.1, "split_seed": 0})
        assert "larger than the maximum" in response.content.decode()
        project.refresh_from_db()
        assert project.questions_min == 2

    def test_dashboard_shows_progress_human_performance_and_charts(self, client, project, crowdworker, worker2):
        paragraph = submitted_paragraph(project, crowdworker)
        session = session_start_next(user=worker2, project=project, kind="second_pass")
        q = SpanQuestion.objects.filter(paragraph=paragraph).order_by("position").first()
        second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        client.force_login(project.owner)
        html = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
        assert "Human performance" in html and "100.0" in html and html.count('class="vl-chart"') == 4
        assert "Human EM/F1 from 1 blind second-pass answer</strong>" in html

    def test_other_instructors_and_workers_get_403(self, client, project, other_instructor, crowdworker):
        for user in (other_instructor, crowdworker):
            client.force_login(user)
            assert client.get(reverse("annotation:project_dashboard", args=[project.pk])).status_code == 403
        assert client.get(reverse("annotation:project_list")).status_code == 403


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
