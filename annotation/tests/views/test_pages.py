"""HTML pages: the worker's task list and annotation page, the owner's project pages."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotation.models import Article, Paragraph, Project, QuestionFlag, SpanQuestion
from annotation.services.authoring import session_start_next
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import EN_CONTEXT, answer, submitted_paragraph

pytestmark = pytest.mark.django_db


class WorkerPageTests:
    def test_empty_task_list_says_so(self, client, crowdworker):
        client.force_login(crowdworker)
        assert "There are no annotation projects yet" in client.get(reverse("annotation:task_list")).content.decode()

    def test_task_list_start_and_the_annotation_page(self, client, crowdworker, fa_project, fa_paragraph):
        client.force_login(crowdworker)
        client.cookies["django_language"] = "en"  # the worker chose English for the Persian project
        page = client.get(reverse("annotation:task_list")).content.decode()
        assert fa_project.name in page and "1 paragraph" in page
        response = client.post(reverse("annotation:task_start", args=[fa_project.pk, "authoring"]))
        session = fa_paragraph.sessions.get()
        assert response.url == reverse("annotation:session", args=[session.pk])
        html = client.get(response.url).content.decode()
        assert 'id="paragraph" class="paragraph" dir="rtl" lang="fa"' in html
        assert 'id="session-data"' in html and '<script type="module" src="/static/js/annotation.js">' in html
        assert "Continue writing questions" in client.get(reverse("annotation:task_list")).content.decode()

    def test_nothing_left_redirects_with_a_message(self, client, crowdworker, project):
        client.force_login(crowdworker)
        response = client.post(reverse("annotation:task_start", args=[project.pk, "authoring"]), follow=True)
        assert "Nothing left to do" in response.content.decode()

    def test_a_submitted_session_is_not_reopened(self, client, crowdworker, project):
        submitted_paragraph(project, crowdworker)
        session = crowdworker.annotation_sessions.get()
        client.force_login(crowdworker)
        response = client.get(reverse("annotation:session", args=[session.pk]))
        assert response.url == reverse("annotation:task_list")

    def test_second_pass_page(self, client, crowdworker, worker2, project):
        submitted_paragraph(project, crowdworker)
        client.force_login(worker2)
        response = client.post(reverse("annotation:task_start", args=[project.pk, "second_pass"]), follow=True)
        html = response.content.decode()
        assert "annotation_review.js" in html
        payload = json.loads(html.split('id="session-data" type="application/json">')[1].split("</script>")[0])
        # Blind: no answers and no original before the worker answers.
        assert [set(q) for q in payload["questions"]] == [{"id", "qid", "question", "my_answer", "original", "flag"}] * 3
        assert all(q["original"] is None for q in payload["questions"])

    def test_someone_elses_session_is_403(self, client, crowdworker, worker2, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        client.force_login(worker2)
        assert client.get(reverse("annotation:session", args=[session.pk])).status_code == 403


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

    def test_import_pages_list_problems_and_store_nothing(self, client, project):
        client.force_login(project.owner)
        url = reverse("annotation:project_import", args=[project.pk])
        bad = {"data": [{"title": "T", "paragraphs": [{"context": "abc", "qas": [
            {"id": "1", "question": "Q?", "answers": [{"text": "zzz", "answer_start": 0}], "is_impossible": False}]}]}]}
        response = client.post(url, {"which": "squad", "split": "test",
                                     "file": SimpleUploadedFile("bad.json", json.dumps(bad).encode())})
        html = response.content.decode()
        assert "Nothing was imported" in html and "data[0].paragraphs[0].qas[0] (id &#x27;1&#x27;).answers[0]" in html
        assert not Article.objects.exists()
        articles = "\n".join(json.dumps({"title": t, "paragraphs": ["x" * 600], "links": []}) for t in "ABC")
        response = client.post(url, {"which": "articles", "file": SimpleUploadedFile("a.jsonl", articles.encode())})
        assert response.url == reverse("annotation:project_dashboard", args=[project.pk])
        assert Paragraph.objects.count() == 3

    def test_paragraphs_restore_flags_and_export(self, client, project, crowdworker, worker2):
        paragraph = submitted_paragraph(project, crowdworker)
        session = session_start_next(user=worker2, project=project, kind="second_pass")
        q = SpanQuestion.objects.filter(paragraph=paragraph).order_by("position").first()
        second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                flag={"proposal": "remove_question", "reason": "not in the text"})
        client.force_login(project.owner)
        flags = client.get(reverse("annotation:project_flags", args=[project.pk])).content.decode()
        assert "not in the text" in flags and "Remove the question" in flags
        flag = QuestionFlag.objects.get()
        client.post(reverse("annotation:flag_resolve", args=[flag.pk]), {"decision": "accept"})
        q.refresh_from_db()
        assert q.status == "removed"
        export = client.get(reverse("annotation:project_export", args=[project.pk]), {"split": "validation"})
        assert export["Content-Disposition"].endswith('validation.json"')
        assert len(json.loads(export.content)["data"][0]["paragraphs"][0]["qas"]) == 2
        Paragraph.objects.filter(pk=paragraph.pk).update(status="discarded")
        listing = client.get(reverse("annotation:project_paragraphs", args=[project.pk]), {"status": "discarded"})
        assert "Restore" in listing.content.decode()
        client.post(reverse("annotation:paragraph_restore", args=[paragraph.pk]))
        paragraph.refresh_from_db()
        assert paragraph.status == "done"

    def test_other_instructors_and_workers_get_403(self, client, project, other_instructor, crowdworker):
        for user in (other_instructor, crowdworker):
            client.force_login(user)
            assert client.get(reverse("annotation:project_dashboard", args=[project.pk])).status_code == 403
        assert client.get(reverse("annotation:project_list")).status_code == 403
