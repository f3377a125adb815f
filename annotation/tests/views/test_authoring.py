"""The annotation page of a session: not reopened once submitted, blind in the second pass, the worker's own only."""
import json

import pytest
from django.urls import reverse

from annotation.services.authoring import session_start_next
from annotation.tests.factories import submitted_paragraph

pytestmark = pytest.mark.django_db


class SessionPageTests:
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
