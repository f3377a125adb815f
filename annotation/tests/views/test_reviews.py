"""The owner's review pages: flags resolved, paragraphs restored (and the exported data that follows them)."""
import pytest
from django.urls import reverse

from annotation.models import Paragraph, QuestionFlag, SpanQuestion
from annotation.selectors.exports import project_squad_dict
from annotation.services.authoring import session_start_next
from annotation.services.second_pass import second_pass_answer_save
from annotation.tests.factories import submitted_paragraph

pytestmark = pytest.mark.django_db


class ReviewPageTests:
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
        export = project_squad_dict(project=project, split="validation")  # the removed question is left out
        assert len(export["data"][0]["paragraphs"][0]["qas"]) == 2
        Paragraph.objects.filter(pk=paragraph.pk).update(status="discarded")
        listing = client.get(reverse("annotation:project_paragraphs", args=[project.pk]), {"status": "discarded"})
        assert "Restore" in listing.content.decode()
        client.post(reverse("annotation:paragraph_restore", args=[paragraph.pk]))
        paragraph.refresh_from_db()
        assert paragraph.status == "done"

    def test_a_flag_or_paragraph_that_does_not_exist_is_404_and_another_owners_is_403(self, client, project, paragraph,
                                                                                       other_instructor):
        client.force_login(project.owner)
        for name in ("annotation:flag_resolve", "annotation:paragraph_restore"):
            response = client.post(reverse(name, args=[987654]), {"decision": "accept"})
            assert response.status_code == 404 and "does not exist" in response.content.decode(), name
        client.force_login(other_instructor)
        refused = client.post(reverse("annotation:paragraph_restore", args=[paragraph.pk]))
        assert refused.status_code == 403 and "owner" in refused.content.decode()
