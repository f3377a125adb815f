"""Plain-dict views of sessions and questions for the page's JavaScript and the API.

Spans are given both in code points (``answer_start``, SQuAD's convention) and in UTF-16
units (``start16``/``end16``), which is what the browser needs to highlight them.
"""
from annotation.models import AnnotationSession, QuestionFlag, SecondPassAnswer, SpanAnswer, SpanQuestion
from annotation.selectors.authoring import session_questions
from annotation.selectors.second_pass import flags_of_session, second_pass_answers_of, second_pass_questions
from mlcore.data.spans import index_to_utf16
from mlcore.stats.squad_metrics import score_question


def _span16(context: str, start: int | None, text: str) -> dict | None:
    if start is None or not text:
        return None
    return {"start16": index_to_utf16(context, start), "end16": index_to_utf16(context, start + len(text))}


def answer_payload(answer: SpanAnswer, context: str) -> dict:
    return {"text": answer.text, "answer_start": answer.answer_start, "kind": answer.kind,
            **(_span16(context, answer.answer_start, answer.text) or {})}


def prediction_payload(question: SpanQuestion, context: str) -> dict | None:
    if question.qa_prediction_f1 is None:
        return None
    return {
        "text": question.qa_prediction_text, "answer_start": question.qa_prediction_start,
        "span16": _span16(context, question.qa_prediction_start, question.qa_prediction_text),
        "f1": question.qa_prediction_f1, "fooled": question.fooled_model,
        "model_version": question.qa_model_version.name if question.qa_model_version else None,
    }


def question_payload(question: SpanQuestion, context: str) -> dict:
    """A question as its author sees it (with its answers and the model's prediction)."""
    return {
        "id": question.pk, "qid": question.qid, "question": question.question,
        "is_impossible": question.is_impossible, "status": question.status,
        "answers": [answer_payload(a, context) for a in question.answers.all()],
        "prediction": prediction_payload(question, context),
    }


def _original_payload(question: SpanQuestion, mine: SecondPassAnswer, language: str) -> dict:
    """The original answer, revealed once the worker has answered, and whether theirs matches it."""
    context = question.paragraph.context
    first = next((a for a in question.answers.all() if a.kind != SpanAnswer.Kind.SECOND_PASS), None)
    text = "" if question.is_impossible or first is None else first.text
    # "Matches" is SQuAD's exact match under the project's normaliser: what human EM counts.
    exact, _ = score_question([text] if text else [], "" if mine.is_impossible else mine.text,
                              normalizer="fa" if language == "fa" else "en")
    start = None if question.is_impossible or first is None else first.answer_start
    return {"is_impossible": question.is_impossible, "text": text, "answer_start": start,
            "matches": bool(exact), **(_span16(context, start, text) or {})}


def blind_question_payload(question: SpanQuestion, mine: SecondPassAnswer | None, flag: QuestionFlag | None, *,
                           language: str = "en") -> dict:
    """A question as a second-pass worker sees it: no original answer until they have answered.

    Their answer is final (``my_answer``); after it come the original answer, whether the two
    match, and the worker's flag on the original, if any.
    """
    context = question.paragraph.context
    own = original = None
    if mine is not None:
        own = {"is_impossible": mine.is_impossible, "text": mine.text, "answer_start": mine.answer_start,
               **(_span16(context, mine.answer_start, mine.text) or {})}
        original = _original_payload(question, mine, language)
    return {
        "id": question.pk, "qid": question.qid, "question": question.question, "my_answer": own,
        "original": original,
        "flag": None if flag is None else {
            "proposal": flag.proposal, "proposal_label": str(flag.get_proposal_display()), "reason": flag.reason,
            "status": flag.status, "status_label": str(flag.get_status_display()), "proposed_text": flag.proposed_text,
            "after_reveal": flag.after_reveal,
        },
    }


def session_payload(session: AnnotationSession) -> dict:
    """Everything the annotation page needs to (re)build its state after a reload."""
    paragraph = session.paragraph
    project = paragraph.article.project
    payload = {
        "id": session.pk, "kind": session.kind, "status": session.status,
        "project": {"id": project.pk, "name": project.name, "language": project.language,
                    "direction": project.direction, "questions_min": project.questions_min,
                    "questions_max": project.questions_max, "minutes_per_paragraph": project.minutes_per_paragraph,
                    "has_model": project.qa_model_id is not None,
                    "fool_f1_threshold": project.fool_f1_threshold},
        "paragraph": {"id": paragraph.pk, "title": paragraph.article.title, "context": paragraph.context,
                      "split": paragraph.article.split},
        "draft": session.draft or {},
        # Time on the paragraph (heartbeats of an open page), not the time since the task was opened.
        "elapsed_seconds": session.active_seconds,
    }
    if session.kind == AnnotationSession.Kind.AUTHORING:
        payload["questions"] = [question_payload(q, paragraph.context) for q in session_questions(session=session)]
    else:
        answers = second_pass_answers_of(session=session)
        flags = flags_of_session(session=session)
        payload["questions"] = [
            blind_question_payload(q, answers.get(q.pk), flags.get(q.pk), language=project.language)
            for q in second_pass_questions(session=session).select_related("paragraph")
            .prefetch_related("answers")
        ]
    return payload
