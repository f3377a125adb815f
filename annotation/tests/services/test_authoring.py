"""First pass: handing out paragraphs, draft questions with checked spans, submitting, discarding."""
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from annotation.models import AnnotationSession, Paragraph, SpanAnswer, SpanQuestion
from annotation.services.authoring import (
    question_add,
    question_delete,
    question_update,
    session_discard,
    session_draft_save,
    session_start_next,
    session_submit,
)
from annotation.services.projects import project_update
from annotation.services.reviews import paragraph_restore
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, ZWNJ, add_paragraphs, answer, selection
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


def _start(project, user):
    return session_start_next(user=user, project=project)


class SessionStartNextTests:
    def test_hands_out_paragraphs_in_order_and_resumes_the_unfinished_one(self, project, crowdworker):
        first, second = add_paragraphs(project, [EN_CONTEXT, EN_CONTEXT + " Second."])
        session = _start(project, crowdworker)
        assert session.paragraph == first and session.kind == "authoring"
        assert _start(project, crowdworker) == session  # a reload or double click resumes it

    def test_never_the_same_paragraph_twice_and_overlap_limits_workers(self, project, crowdworker, worker2):
        project = project_update(project=project, user=project.owner, overlap=2)
        paragraph = add_paragraphs(project, [EN_CONTEXT])[0]
        session = _start(project, crowdworker)
        question_add(session=session, user=crowdworker, question="How long is it?",
                     answer=answer(EN_CONTEXT, "about 6,650 kilometres"))
        question_add(session=session, user=crowdworker, question="Where?", is_impossible=True)
        session_submit(session=session, user=crowdworker)
        assert _start(project, crowdworker) is None  # done by them already
        assert _start(project, worker2).paragraph == paragraph  # overlap 2: a second worker may
        paragraph.refresh_from_db()
        assert paragraph.status == Paragraph.Status.OPEN

    def test_a_held_paragraph_is_released_after_the_lease(self, project, crowdworker, worker2, settings):
        add_paragraphs(project, [EN_CONTEXT])
        session = _start(project, crowdworker)
        assert _start(project, worker2) is None  # overlap 1: held by the first worker
        AnnotationSession.objects.filter(pk=session.pk).update(
            started_at=timezone.now() - timedelta(minutes=settings.STUMPER_ANNOTATION_LEASE_MINUTES + 1))
        assert _start(project, worker2) is not None

    def test_students_may_not_annotate(self, project, student):
        add_paragraphs(project, [EN_CONTEXT])
        with pytest.raises(AccessError):
            _start(project, student)

    def test_nothing_left_returns_none(self, project, crowdworker):
        assert _start(project, crowdworker) is None


class QuestionAddTests:
    def test_browser_selection_in_utf16_is_stored_in_code_points(self, fa_paragraph, crowdworker):
        session = _start(fa_paragraph.article.project, crowdworker)
        word = "کتاب" + ZWNJ + "خانه" + ZWNJ + "های"
        question = question_add(session=session, user=crowdworker, question="چه چیزی کتاب دارد؟",
                                selection=selection(FA_CONTEXT, word))
        stored = question.answers.get()
        assert stored.text == word
        assert stored.answer_start == FA_CONTEXT.index(word)
        assert FA_CONTEXT[stored.answer_start:stored.answer_start + len(stored.text)] == stored.text
        assert stored.kind == SpanAnswer.Kind.ORIGINAL and question.status == SpanQuestion.Status.DRAFT

    def test_span_after_an_emoji_and_arabic_variants_are_exact(self, fa_paragraph, crowdworker):
        session = _start(fa_paragraph.article.project, crowdworker)
        question = question_add(session=session, user=crowdworker, question="چه کسانی کار می‌کنند؟",
                                selection=selection(FA_CONTEXT, "علي و كريم"))
        stored = question.answers.get()
        assert stored.text == "علي و كريم"  # Arabic yeh and kaf kept as written
        assert stored.answer_start == FA_CONTEXT.index("علي")

    def test_answer_in_code_points_is_accepted(self, paragraph, crowdworker):
        session = _start(paragraph.article.project, crowdworker)
        question = question_add(session=session, user=crowdworker, question="Where do they meet?",
                                answer=answer(EN_CONTEXT, "Khartoum"))
        assert question.answers.get().answer_start == EN_CONTEXT.index("Khartoum")

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"question": "  ", "is_impossible": True}, "The question is empty."),
            ({"question": "Q?", "answer": {"text": "Nile", "answer_start": 9999}}, "outside the paragraph"),
            ({"question": "Q?", "answer": {"text": "Nile", "answer_start": -3}}, "outside the paragraph"),
            ({"question": "Q?", "answer": {"text": "Nile", "answer_start": 0}}, "does not match the paragraph"),
            ({"question": "Q?", "selection": {"start16": 5, "end16": 99999}}, "past the end"),
            ({"question": "Q?", "selection": {"start16": 3, "end16": 3}}, "empty"),
            ({"question": "Q?", "is_impossible": True, "answer": {"text": "The", "answer_start": 0}},
             "unanswerable question cannot have an answer span"),
            ({"question": "Q?"}, "Mark the answer in the paragraph"),
            ({"question": "Q?", "answer": {"text": "The"}}, '"text" and "answer_start"'),
        ],
    )
    def test_bad_input_is_refused_and_nothing_stored(self, paragraph, crowdworker, fields, message):
        session = _start(paragraph.article.project, crowdworker)
        with pytest.raises(ValidationError, match=message):
            question_add(session=session, user=crowdworker, **fields)
        assert not SpanQuestion.objects.exists() and not SpanAnswer.objects.exists()

    def test_duplicate_questions_in_one_paragraph_are_refused(self, paragraph, crowdworker):
        session = _start(paragraph.article.project, crowdworker)
        question_add(session=session, user=crowdworker, question="Where do they meet?", is_impossible=True)
        with pytest.raises(ValidationError, match="already asked"):
            question_add(session=session, user=crowdworker, question="  where do THEY   meet? ",
                         is_impossible=True)
        assert SpanQuestion.objects.count() == 1

    def test_no_more_than_the_maximum(self, paragraph, crowdworker):
        session = _start(paragraph.article.project, crowdworker)
        for i in range(4):
            question_add(session=session, user=crowdworker, question=f"Question {i}?", is_impossible=True)
        with pytest.raises(ValidationError, match="the most allowed"):
            question_add(session=session, user=crowdworker, question="One more?", is_impossible=True)

    def test_only_the_sessions_worker_may_add(self, paragraph, crowdworker, worker2):
        session = _start(paragraph.article.project, crowdworker)
        with pytest.raises(AccessError):
            question_add(session=session, user=worker2, question="Q?", is_impossible=True)

    def test_adding_clears_the_saved_draft(self, paragraph, crowdworker):
        session = _start(paragraph.article.project, crowdworker)
        session_draft_save(session=session, user=crowdworker, draft={"question": "Where do"})
        question_add(session=session, user=crowdworker, question="Where do they meet?", is_impossible=True)
        session.refresh_from_db()
        assert session.draft == {}


class DraftTests:
    def test_the_half_typed_question_survives(self, paragraph, crowdworker):
        session = _start(paragraph.article.project, crowdworker)
        session_draft_save(session=session, user=crowdworker, draft={
            "question": "Which sea", "selection": {"start16": 4, "end16": 8}, "is_impossible": False})
        session.refresh_from_db()
        assert session.draft["question"] == "Which sea" and session.draft["selection"] == {"start16": 4, "end16": 8}

    @pytest.mark.parametrize("draft", [[], {"question": 3}, {"selection": {"start16": -1, "end16": 2}},
                                       {"surprise": 1}, {"editing_id": "x"}])
    def test_malformed_drafts_are_refused(self, paragraph, crowdworker, draft):
        session = _start(paragraph.article.project, crowdworker)
        with pytest.raises(ValidationError):
            session_draft_save(session=session, user=crowdworker, draft=draft)


class EditDeleteSubmitTests:
    def _session_with(self, paragraph, user, n=2):
        session = _start(paragraph.article.project, user)
        questions = [question_add(session=session, user=user, question=f"Question {i}?", is_impossible=True)
                     for i in range(n)]
        return session, questions

    def test_edit_replaces_text_and_answer(self, paragraph, crowdworker):
        _, (q, _) = self._session_with(paragraph, crowdworker)
        question_update(question=q, user=crowdworker, question_text="Where do the branches meet?",
                        selection=selection(EN_CONTEXT, "Khartoum"))
        q.refresh_from_db()
        assert q.question == "Where do the branches meet?" and not q.is_impossible
        assert q.answers.get().text == "Khartoum"

    def test_delete_removes_a_draft(self, paragraph, crowdworker):
        _, (q, _) = self._session_with(paragraph, crowdworker)
        question_delete(question=q, user=crowdworker)
        assert not SpanQuestion.objects.filter(pk=q.pk).exists()

    def test_submit_checks_the_minimum_and_then_freezes_the_questions(self, paragraph, crowdworker):
        session, (q,) = self._session_with(paragraph, crowdworker, n=1)
        with pytest.raises(ValidationError, match="between 2 and 4"):
            session_submit(session=session, user=crowdworker)
        question_add(session=session, user=crowdworker, question="Another?", is_impossible=True)
        session_submit(session=session, user=crowdworker)
        session.refresh_from_db()
        paragraph.refresh_from_db()
        assert session.status == "submitted" and paragraph.status == Paragraph.Status.DONE
        assert set(session.questions.values_list("status", flat=True)) == {"submitted"}
        with pytest.raises(ValidationError, match="already submitted"):
            question_update(question=q, user=crowdworker, question_text="Changed?", is_impossible=True)
        with pytest.raises(ValidationError):
            question_delete(question=q, user=crowdworker)

    def test_submit_with_a_full_list_replaces_drafts_all_or_nothing(self, paragraph, crowdworker):
        session, _ = self._session_with(paragraph, crowdworker, n=1)
        bad = [{"question": "Good?", "answer": answer(EN_CONTEXT, "Khartoum")},
               {"question": "Bad?", "answer": {"text": "Khartoum", "answer_start": 0}},
               {"question": "good?", "is_impossible": True}]
        with pytest.raises(ValidationError) as info:
            session_submit(session=session, user=crowdworker, questions=bad)
        assert set(info.value.message_dict) == {"questions[1]", "questions[2]"}
        assert SpanQuestion.objects.filter(session=session).count() == 1  # the old draft is untouched
        good = [bad[0], {"question": "Which sea?", "answer": answer(EN_CONTEXT, "Mediterranean Sea")}]
        session_submit(session=session, user=crowdworker, questions=good)
        stored = list(SpanQuestion.objects.filter(session=session).order_by("position"))
        assert [q.question for q in stored] == ["Good?", "Which sea?"]
        assert all(q.status == "submitted" for q in stored)


class DiscardTests:
    def test_discard_needs_a_reason_and_takes_the_paragraph_out_of_the_queue(self, paragraph, crowdworker, worker2):
        project = paragraph.article.project
        session = _start(project, crowdworker)
        question_add(session=session, user=crowdworker, question="Draft?", is_impossible=True)
        with pytest.raises(ValidationError, match="Choose why"):
            session_discard(session=session, user=crowdworker, reason="")
        with pytest.raises(ValidationError, match="Say in a few words"):
            session_discard(session=session, user=crowdworker, reason="other")
        session_discard(session=session, user=crowdworker, reason="foreign_words")
        paragraph.refresh_from_db()
        assert paragraph.status == Paragraph.Status.DISCARDED
        assert not SpanQuestion.objects.exists()
        assert _start(project, worker2) is None
        paragraph_restore(paragraph=paragraph, user=project.owner)
        assert _start(project, worker2).paragraph == paragraph
