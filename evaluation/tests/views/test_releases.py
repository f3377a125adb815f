"""The release as a zip from the round page and the project dashboard (owners and instructors only)."""
import io
import zipfile

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.tests.factories import make_project
from evaluation.tests.factories import load_release, span_project

pytestmark = pytest.mark.django_db


def _unzip(content: bytes, tmp_path, name: str):
    zipfile.ZipFile(io.BytesIO(content)).extractall(tmp_path)
    return load_release(tmp_path / name)


def test_round_page_offers_the_release_and_the_zip_loads(client, tmp_path, release_round, instructor):
    client.force_login(instructor)
    page = client.get(reverse("collector:round_detail", args=[release_round.pk]))
    url = reverse("evaluation:round_release", args=[release_round.pk])
    assert url in page.content.decode() and "Download dataset release" in page.content.decode()
    response = client.get(url, {"status": "all", "fields": ["fooled_live", "agreement"], "license": "cc-by-4.0"})
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="stumper-r1.zip"' in response["Content-Disposition"]
    loaded = _unzip(response.content, tmp_path, "stumper-r1")
    assert sum(len(loaded[s]) for s in loaded) == 18 and "agreement" in loaded["train"].features


def _refused(client, url, query):
    """Follow a refused download back to its page: (the page's URL, its HTML, its release form)."""
    response = client.get(url, query, follow=True)
    html = response.content.decode()
    form = html[html.index('aria-labelledby="release-heading"'):]
    return response.redirect_chain[-1][0], html, form[:form.index("</form>")]


def test_a_licence_typo_is_shown_beside_the_licence_with_the_choices_kept(client, release_round, instructor):
    client.force_login(instructor)
    where, html, form = _refused(client, reverse("evaluation:round_release", args=[release_round.pk]),
                                 {"license": "cc-by-4", "status": "all", "split_by": "folds",
                                  "fields": ["agreement", "fooled_cv"], "authors": "usernames"})
    assert where.endswith("#release-errors-round")
    # In the form, not as a message at the top of the page, which the page opens below.
    assert html.index('id="release-errors-round"') > html.index('id="release-heading"')
    assert "No dataset release" not in html[:html.index('id="release-heading"')]
    assert 'tabindex="-1" data-error-summary="summary"' in form
    assert '<a href="#release-license-round" data-field-link="release-license-round">License</a>' in form
    assert 'id="release-license-error-round">Unknown license &#x27;cc-by-4&#x27;' in form
    assert 'value="cc-by-4" required aria-invalid="true" aria-describedby="release-license-error-round"' in form
    assert '<option value="all" selected>All submitted</option>' in form
    assert '<option value="folds" selected>' in form and '<option value="usernames" selected>' in form
    assert 'value="agreement" checked' in form and 'value="fooled_cv" checked' in form
    assert 'value="predictions" id="release-fields-round" checked' not in form
    # Shown once: the next visit has the form's defaults again.
    again = client.get(reverse("collector:round_detail", args=[release_round.pk])).content.decode()
    assert "release-errors-round" not in again and "cc-by-4" not in again


def test_a_refusal_is_for_the_page_it_goes_back_to_not_a_visit_much_later(client, release_round, instructor):
    from evaluation.release_form import KEPT_SECONDS, SESSION_KEY

    client.force_login(instructor)
    client.get(reverse("evaluation:round_release", args=[release_round.pk]), {"license": "cc-by-4"})
    session = client.session
    session[SESSION_KEY] = {**session[SESSION_KEY], "at": session[SESSION_KEY]["at"] - KEPT_SECONDS - 1}
    session.save()
    page = client.get(reverse("collector:round_detail", args=[release_round.pk])).content.decode()
    assert "release-errors-round" not in page and "cc-by-4" not in page


def test_nothing_accepted_says_what_to_choose_on_the_page(client, round_, instructor, student, fake_model):
    from collector.services.questions import question_submit
    from collector.tests.factories import question_data

    question_submit(user=student, round_id=round_.pk, **question_data())
    client.force_login(instructor)
    _, _, form = _refused(client, reverse("evaluation:round_release", args=[round_.pk]),
                          {"status": "accepted", "license": "cc-by-4.0"})
    assert "no accepted questions yet (1 awaiting validation)" in form
    assert "Choose “All submitted” under Questions." in form and "--status" not in form
    assert 'id="release-status-error-round"' in form and 'aria-invalid="true"' in form
    assert 'value="cc-by-4.0" required' in form  # the licence typed is kept


def test_the_project_form_keeps_choices_and_speaks_the_page_language(client, instructor):
    from annotation.models import QuestionFlag, SpanQuestion

    project = span_project(instructor)
    for question in SpanQuestion.objects.filter(project=project):
        QuestionFlag.objects.create(question=question, raised_by=instructor, proposal="remove_question")
    client.force_login(instructor)
    where, _, form = _refused(client, reverse("evaluation:project_release", args=[project.pk]),
                              {"status": "accepted", "split_by": "author"})
    assert where.endswith("#release-errors-project")
    assert "has an open flag" in form and "Choose “All submitted” under Questions." in form
    assert "--status" not in form and '<option value="author" selected>' in form


@pytest.mark.parametrize("who", ["student", "other_instructor"])
def test_students_and_other_instructors_get_403(client, release_round, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("evaluation:round_release", args=[release_round.pk])).status_code == 403
    api = APIClient()
    api.force_authenticate(request.getfixturevalue(who))
    assert api.get(reverse("evaluation_api:round_release", args=[release_round.pk])).status_code == 403


def test_project_dashboard_and_api_for_the_owner_only(client, tmp_path, instructor, other_instructor):
    project = span_project(instructor)
    client.force_login(instructor)
    page = client.get(reverse("annotation:project_dashboard", args=[project.pk]))
    assert reverse("evaluation:project_release", args=[project.pk]) in page.content.decode()
    api = APIClient()
    api.force_authenticate(instructor)
    response = api.get(reverse("evaluation_api:project_release", args=[project.pk]))
    assert response.status_code == 200
    assert sorted(_unzip(response.content, tmp_path, "stumper-nile-eval")) == ["train", "validation"]
    empty = make_project(instructor, name="empty")
    error = api.get(reverse("evaluation_api:project_release", args=[empty.pk]))
    assert error.status_code == 400 and "no submitted questions" in error.json()["detail"][0]
    api.force_authenticate(other_instructor)
    assert api.get(reverse("evaluation_api:project_release", args=[project.pk])).status_code == 403
