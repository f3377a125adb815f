"""The project report form: choose or upload the ambiguity probes' inputs; a bad file is refused with its
line and nothing is saved."""
import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from evaluation.models import AmbiguityDataset, EvaluationRun
from evaluation.services import reports as report_services
from evaluation.tests.ambiguity_data import make_project, with_qa_model

pytestmark = pytest.mark.django_db


SETTINGS = {"k": "5", "p0": "uniform", "max_steps": "10", "seed": "0"}


@pytest.fixture
def project(instructor, monkeypatch):
    monkeypatch.setattr(report_services, "evaluation_schedule", lambda *, run_id: None)
    return make_project(instructor)


def test_the_form_offers_the_defaults_and_the_uploads(client, instructor, project, settings):
    settings.STUMPER_AMBIGUITY_QUESTIONS = "/srv/data/doubly_eponymous.jsonl"
    with_qa_model(project)
    client.force_login(instructor)
    page = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert 'enctype="multipart/form-data"' in page
    for text in ("Selectional ambiguity: question set", "The server&#x27;s set (doubly_eponymous.jsonl)",
                 "None: skip this probe", "UnQover&#x27;s 70 occupations (English)", 'name="occupations_file"'):
        assert text in page, text


def test_a_bad_upload_is_refused_with_its_line_and_nothing_is_saved(client, instructor, project):
    client.force_login(instructor)
    bad = SimpleUploadedFile("fa.txt", "[p_act] پرستار\nخلبان\n".encode())
    response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                           {**SETTINGS, "occupations_file": bad}, follow=True)
    text = response.content.decode()
    assert "Report not started." in text and "fa.txt, line 2: expected" in text
    assert not AmbiguityDataset.objects.exists() and not EvaluationRun.objects.exists()


def test_an_upload_is_stored_and_used_by_the_report(client, instructor, project):
    client.force_login(instructor)
    good = SimpleUploadedFile("fa.txt", "[p_act] پرستار\n[p_act] خلبان\n".encode())
    response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                           {**SETTINGS, "occupations_file": good, "ambiguity_questions": "none"}, follow=True)
    run = EvaluationRun.objects.get()
    dataset = AmbiguityDataset.objects.get()
    assert f"Report {run.pk} queued" in response.content.decode()
    assert run.snapshot["ambiguity"] == {"questions": "none", "occupations": {
        "dataset_id": dataset.pk, "name": "fa.txt", "sha256": dataset.sha256, "items": 2}}
    page = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert "fa.txt (2 occupations, Arabic script" in page  # offered (and chosen by default) next time


def test_an_unknown_choice_is_refused(client, instructor, project):
    client.force_login(instructor)
    response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                           {**SETTINGS, "occupations": "999"}, follow=True)
    assert "Report not started." in response.content.decode() and not EvaluationRun.objects.exists()


def test_without_a_qa_model_the_question_set_is_refused_before_the_upload(client, instructor, project, settings):
    settings.STUMPER_AMBIGUITY_QUESTIONS = "/srv/data/doubly_eponymous.jsonl"
    client.force_login(instructor)
    page = html.unescape(client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode())
    reason = "needs an extractive question-answering model as the project's model in the loop"
    assert reason in page  # said on the form, before anything is uploaded
    upload = re.search(r'<input[^>]*name="ambiguity_questions_file"[^>]*>', page).group(0)
    assert " disabled" in upload
    assert "The server's set" not in page and "None: this probe cannot run without a QA model" in page

    questions = SimpleUploadedFile("set.jsonl", b'{"id": 1}\n')
    response = client.post(reverse("evaluation:project_report_start", args=[project.pk]),
                           {**SETTINGS, "ambiguity_questions_file": questions}, follow=True)
    text = html.unescape(response.content.decode())
    assert "Report not started." in text and reason in text
    assert not AmbiguityDataset.objects.exists() and not EvaluationRun.objects.exists()


def test_the_service_refuses_a_question_set_without_a_qa_model(instructor, project):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        report_services.evaluation_start_project_with_inputs(project=project, user=instructor, questions="server")
    assert "needs an extractive question-answering model" in error.value.message_dict["ambiguity_questions"][0]
    assert not EvaluationRun.objects.exists()

