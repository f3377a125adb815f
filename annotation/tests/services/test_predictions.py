"""The model in the loop on stored questions: real tiny QA model, stored span, F1 and verdict."""
from unittest import mock

import pytest

from annotation.models import SpanQuestion
from annotation.services.authoring import question_add, question_update, session_start_next
from annotation.services.predictions import fool_verdict, question_prediction_compute
from annotation.services.projects import project_update
from annotation.tests.factories import EN_CONTEXT, answer

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs the (eager) Celery task


@pytest.fixture
def session(paragraph, crowdworker, qa_version):
    project = project_update(project=paragraph.article.project, user=paragraph.article.project.owner,
                             qa_model=qa_version)
    return session_start_next(user=crowdworker, project=project)


def test_adding_a_question_stores_the_models_answer_and_verdict(session, crowdworker, qa_version):
    question = question_add(session=session, user=crowdworker, question="Which sea does the river reach?",
                            answer=answer(EN_CONTEXT, "the Mediterranean Sea"))
    question.refresh_from_db()
    assert question.qa_model_version == qa_version and len(question.qa_model_revision) == 12
    assert question.qa_prediction_f1 is not None
    text, start = question.qa_prediction_text, question.qa_prediction_start
    if start is not None:
        assert EN_CONTEXT[start:start + len(text)] == text
    expected_f1, expected_fooled = fool_verdict(gold="the Mediterranean Sea", predicted=text, language="en",
                                                threshold=0.4)
    assert question.qa_prediction_f1 == pytest.approx(expected_f1)
    assert question.fooled_model is expected_fooled


def test_a_crashing_model_never_loses_the_question(session, crowdworker):
    with mock.patch("annotation.services.predictions.predict_qa", side_effect=RuntimeError("CUDA exploded")):
        question = question_add(session=session, user=crowdworker, question="Where do they meet?",
                                answer=answer(EN_CONTEXT, "Khartoum"))
    question.refresh_from_db()
    assert question.status == "draft" and question.answers.get().text == "Khartoum"
    assert question.qa_prediction_f1 is None and question.fooled_model is None
    # Once the model is back, computing again fills the prediction in (the service is idempotent).
    question_prediction_compute(question_id=question.pk)
    question.refresh_from_db()
    assert question.qa_prediction_f1 is not None
    with mock.patch("annotation.services.predictions.predict_qa") as again:
        question_prediction_compute(question_id=question.pk)
    again.assert_not_called()


def test_no_model_means_no_prediction_and_no_error(paragraph, crowdworker):
    session = session_start_next(user=crowdworker, project=paragraph.article.project)
    with mock.patch("annotation.services.predictions.predict_qa") as predict:
        question = question_add(session=session, user=crowdworker, question="Q?", is_impossible=True)
    predict.assert_not_called()
    assert SpanQuestion.objects.get(pk=question.pk).qa_prediction_f1 is None


def test_an_edit_discards_a_prediction_for_the_old_text(session, crowdworker):
    question = question_add(session=session, user=crowdworker, question="Where do they meet?",
                            answer=answer(EN_CONTEXT, "Khartoum"))
    question_update(question=question, user=crowdworker, question_text="Which city is the meeting point?",
                    answer=answer(EN_CONTEXT, "Khartoum"))
    question.refresh_from_db()
    assert question.question == "Which city is the meeting point?" and question.qa_prediction_f1 is not None


@pytest.mark.parametrize(
    ("gold", "predicted", "language", "fooled"),
    [("the Mediterranean Sea", "Mediterranean Sea", "en", False), ("Khartoum", "Alexandria", "en", True),
     ("", "", "en", False), ("", "Khartoum", "en", True),
     ("کتاب\u200cها", "كتاب", "fa", False), ("کتاب\u200cها", "كتاب", "en", True)],
)
def test_fool_verdict_uses_squad_f1_with_the_projects_normaliser(gold, predicted, language, fooled):
    f1, verdict = fool_verdict(gold=gold, predicted=predicted, language=language, threshold=0.4)
    assert verdict is fooled and (f1 < 0.4) is fooled
