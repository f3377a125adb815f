"""Human performance in a project's report: computed from the blind second-pass answers only, and
the report says how many answers it rests on; answers sent again after the reveal change nothing."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation import services as annotation_services
from annotation.models import SpanQuestion
from annotation.tests.factories import EN_CONTEXT, answer
from evaluation.models import EvaluationRun
from evaluation.services import reports as services
from evaluation.tests.factories import span_project

pytestmark = pytest.mark.django_db


def _report(project, user) -> EvaluationRun:
    run = services.evaluation_start_project(project=project, user=user, config={"k": 5, "max_steps": 30})
    run = services.evaluation_run(run_id=run.pk)
    assert run.status == EvaluationRun.Status.DONE, run.error
    return run


def test_human_em_f1_from_blind_answers_only(instructor, crowdworker, client, no_probes):
    project = span_project(instructor)
    session = annotation_services.session_start_next(user=crowdworker, project=project, kind="second_pass")
    # The validation questions' first answers: "the Mediterranean Sea", "Khartoum", unanswerable, unanswerable.
    sea, khartoum, unmapped, unnamed = SpanQuestion.objects.filter(paragraph=session.paragraph).order_by("position")
    blind = [(sea, {"answer": answer(EN_CONTEXT, "Mediterranean Sea")}),   # EM 1, F1 1 ("the" is dropped)
             (khartoum, {"answer": answer(EN_CONTEXT, "at Khartoum")}),    # EM 0, F1 2/3
             (unmapped, {"is_impossible": True}),                          # EM 1, F1 1
             (unnamed, {"answer": answer(EN_CONTEXT, "Alexandria")})]      # EM 0, F1 0
    for question, fields in blind:
        annotation_services.second_pass_answer_save(session=session, user=crowdworker, question_id=question.pk, **fields)
    # After the reveal: copying the originals is refused, and a correction is only a flag.
    for question, fields in [(khartoum, {"answer": answer(EN_CONTEXT, "Khartoum")}), (unnamed, {"is_impossible": True})]:
        with pytest.raises(ValidationError, match="first answer is final"):
            annotation_services.second_pass_answer_save(session=session, user=crowdworker, question_id=question.pk,
                                                        **fields)
    annotation_services.second_pass_flag_save(session=session, user=crowdworker, question_id=khartoum.pk,
                                              proposal="fix_answer")

    squad = _report(project, instructor).result["squad"]
    (row,) = [dict(zip(squad["tables"]["human"]["columns"], r)) for r in squad["tables"]["human"]["rows"]]
    assert (row["normalizer"], row["blind_answers"], row["HasAns_answers"], row["NoAns_answers"]) == ("en", 4, 2, 2)
    assert row["exact"] == 50.0 and row["f1"] == pytest.approx(100 * (1 + 2 / 3 + 1 + 0) / 4)
    assert (row["HasAns_exact"], row["NoAns_exact"]) == (50.0, 50.0)
    assert squad["summary"]["human_blind_answers"] == 4 and squad["summary"]["human_exact"] == 50.0
    assert "Human EM/F1 from 4 blind second-pass answers" in squad["note"]

    client.force_login(instructor)
    page = client.get(reverse("evaluation:project_report", args=[project.pk])).content.decode()
    assert "Human EM/F1 from 4 blind second-pass answers" in page


def test_a_report_without_second_pass_says_zero(instructor, no_probes):
    squad = _report(span_project(instructor), instructor).result["squad"]
    assert squad["tables"]["human"]["rows"] == [] and squad["summary"]["human_blind_answers"] == 0
    assert "Human EM/F1 from 0 blind second-pass answers" in squad["note"]
