"""Second pass: blind extra answers on validation/test questions, final once given; flags after the
reveal (the owner's resolution of them: test_reviews.py)."""
import random

import pytest
from django.core.exceptions import ValidationError

from accounts.tests.factories import make_user
from annotation.exceptions import AnswerFinal
from annotation.models import QuestionFlag, SecondPassAnswer, SpanAnswer
from annotation.presentation.sessions import session_payload
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.stats import project_stats
from annotation.services.authoring import session_start_on
from annotation.services.projects import project_update
from annotation.services.reviews import flag_resolve
from annotation.services.second_pass import second_pass_answer_save, second_pass_flag_save, second_pass_submit
from annotation.tests.factories import (
    EN_CONTEXT,
    answer,
    paragraph_questions,
    second_pass_start,
    selection,
    submitted_paragraph,
)
from core.exceptions import AccessError
from mlcore.stats.squad_metrics import score_question

pytestmark = pytest.mark.django_db


def _observables(project) -> dict:
    """Everything re-answering must never move: human EM/F1 and its basis, the gold answers (the
    SQuAD export) and the stored answers and spans themselves."""
    stats = project_stats(project=project)
    return {
        "human": stats.human, "basis": (stats.blind_answers, stats.blind_left_out),
        "gold": project_squad_dict(project=project),
        "answers": sorted(SecondPassAnswer.objects.values_list("question_id", "worker_id", "is_impossible", "text",
                                                               "answer_start", "span_id")),
        "spans": sorted(SpanAnswer.objects.values_list("id", "question_id", "text", "answer_start", "kind",
                                                       "position")),
    }


def _reanswer_attempts(question, payload: dict, mine: dict) -> list[dict]:
    """Every way to send a second answer once the original is revealed: copying it (as text and as a
    selection), switching to or from "unanswerable", and the two requests the old page sent
    ("Answer again with the selection", and flagging by re-sending the answer with a flag)."""
    original = payload["original"]
    attempts = [{"is_impossible": True}, {"answer": answer(EN_CONTEXT, "Khartoum")},
                {"answer": mine, "flag": {"proposal": "fix_answer", "reason": "copy"}},
                {"selection": selection(EN_CONTEXT, "Alexandria")}]
    if not original["is_impossible"]:
        attempts += [{"answer": {"text": original["text"], "answer_start": original["answer_start"]}},
                     {"selection": {"start16": original["start16"], "end16": original["end16"]}}]
    return attempts


def _answered(project, reviewed, worker, index: int, text: str) -> tuple:
    """``worker``'s second-pass session on ``reviewed``, its ``index``-th question answered with the span ``text``:
    (session, question)."""
    session = second_pass_start(project, worker)
    question = paragraph_questions(reviewed)[index]
    second_pass_answer_save(session=session, user=worker, question_id=question.pk, answer=answer(EN_CONTEXT, text))
    return session, question


class SecondPassQueueTests:
    def test_only_validation_and_test_questions_of_others(self, project, reviewed, crowdworker, worker2):
        submitted_paragraph(project, worker2, split="train")
        assert second_pass_start(project, crowdworker) is None  # their own questions, or train
        session = second_pass_start(project, worker2)
        assert session.paragraph == reviewed and session.kind == "second_pass"

    def test_the_question_leaves_the_queue_after_enough_answers(self, project, reviewed, worker2, instructor):
        project = project_update(project=project, user=project.owner, second_pass_answers=1)
        session = second_pass_start(project, worker2)
        for q in paragraph_questions(reviewed):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        second_pass_submit(session=session, user=worker2)
        assert second_pass_start(project, instructor) is None

    def test_the_worker_does_not_see_the_original_answer_before_answering(self, project, reviewed, worker2):
        session = second_pass_start(project, worker2)
        payload = session_payload(session)
        assert all(q["my_answer"] is None and q["original"] is None for q in payload["questions"])
        assert "answers" not in payload["questions"][0]
        first = paragraph_questions(reviewed)[0]
        second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True)
        shown = session_payload(session)["questions"][0]
        start = EN_CONTEXT.index("the Mediterranean Sea")
        assert shown["original"] == {"is_impossible": False, "text": "the Mediterranean Sea", "answer_start": start,
                                     "matches": False, "start16": start, "end16": start + len("the Mediterranean Sea")}
        assert shown["my_answer"]["is_impossible"] is True

    def test_the_reveal_says_whether_the_answer_matches_the_original(self, project, reviewed, worker2):
        session = second_pass_start(project, worker2)
        first, second, unanswerable = paragraph_questions(reviewed)
        # SQuAD's exact match: "the" is dropped, so "Mediterranean Sea" matches "the Mediterranean Sea".
        second_pass_answer_save(session=session, user=worker2, question_id=first.pk,
                                answer=answer(EN_CONTEXT, "Mediterranean Sea"))
        second_pass_answer_save(session=session, user=worker2, question_id=second.pk,
                                answer=answer(EN_CONTEXT, "at Khartoum"))
        second_pass_answer_save(session=session, user=worker2, question_id=unanswerable.pk, is_impossible=True)
        shown = {q["id"]: q["original"] for q in session_payload(session)["questions"]}
        assert [shown[q.pk]["matches"] for q in (first, second, unanswerable)] == [True, False, True]
        assert shown[unanswerable.pk]["is_impossible"] and "start16" not in shown[unanswerable.pk]


class SecondPassAnswerTests:
    def test_a_span_becomes_an_extra_gold_answer(self, project, reviewed, worker2):
        _, q = _answered(project, reviewed, worker2, 0, "Mediterranean Sea")
        texts = list(q.answers.order_by("position").values_list("text", "kind"))
        assert texts == [("the Mediterranean Sea", "original"), ("Mediterranean Sea", "second_pass")]

    def test_the_first_answer_is_final(self, project, reviewed, worker2):
        session, q = _answered(project, reviewed, worker2, 0, "Mediterranean Sea")
        with pytest.raises(AnswerFinal, match="first answer is final"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        stored = SecondPassAnswer.objects.get(question=q)
        assert (stored.is_impossible, stored.text) == (False, "Mediterranean Sea")
        assert list(q.answers.values_list("text", flat=True)) == ["the Mediterranean Sea", "Mediterranean Sea"]

    def test_a_concurrent_second_answer_is_refused_and_rolled_back(self, project, reviewed, worker2, monkeypatch):
        """Two requests racing past the "already answered?" check: the unique constraint refuses the
        later one, and the extra gold span it had created is rolled back with it."""
        from annotation.services import second_pass

        session, q = _answered(project, reviewed, worker2, 0, "Mediterranean Sea")
        monkeypatch.setattr(second_pass, "_has_answered", lambda question, user: False)
        with pytest.raises(AnswerFinal, match="first answer is final"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                    answer=answer(EN_CONTEXT, "the Mediterranean Sea"))
        assert list(q.answers.values_list("text", flat=True)) == ["the Mediterranean Sea", "Mediterranean Sea"]
        assert SecondPassAnswer.objects.get(question=q).text == "Mediterranean Sea"

    def test_a_span_on_an_unanswerable_question_is_not_gold(self, project, reviewed, worker2):
        _, q = _answered(project, reviewed, worker2, 2, "Khartoum")
        assert not q.answers.exists()
        assert SecondPassAnswer.objects.get(question=q).text == "Khartoum"

    def test_bad_answers_are_refused(self, project, reviewed, worker2, crowdworker):
        session = second_pass_start(project, worker2)
        q = paragraph_questions(reviewed)[0]
        with pytest.raises(ValidationError, match="does not match"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk,
                                    answer={"text": "Khartoum", "answer_start": 0})
        with pytest.raises(ValidationError, match="cannot come with an answer span"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                    answer=answer(EN_CONTEXT, "Khartoum"))
        with pytest.raises(ValidationError, match="not one of this paragraph"):
            second_pass_answer_save(session=session, user=worker2, question_id=10**9, is_impossible=True)
        with pytest.raises(AccessError):
            second_pass_answer_save(session=session, user=crowdworker, question_id=q.pk, is_impossible=True)
        assert not SecondPassAnswer.objects.exists()

    def test_finishing_needs_every_question_answered(self, project, reviewed, worker2):
        session = second_pass_start(project, worker2)
        q = paragraph_questions(reviewed)[0]
        second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True)
        with pytest.raises(ValidationError, match="2 left"):
            second_pass_submit(session=session, user=worker2)


class FlagTests:
    def test_a_fix_needs_a_span_and_a_known_proposal(self, project, reviewed, worker2):
        session = second_pass_start(project, worker2)
        q = paragraph_questions(reviewed)[0]
        with pytest.raises(ValidationError, match="select it in the paragraph"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                    flag={"proposal": "fix_answer"})
        with pytest.raises(ValidationError, match="Choose what should happen"):
            second_pass_answer_save(session=session, user=worker2, question_id=q.pk, is_impossible=True,
                                    flag={"proposal": "burn_it"})
        assert not QuestionFlag.objects.exists() and not SecondPassAnswer.objects.exists()


class ReAnsweringAfterTheRevealTests:
    """The blind answer is what human performance and the gold answers use, whatever comes after."""

    def test_copying_the_revealed_original_changes_nothing(self, project, reviewed, worker2):
        session = second_pass_start(project, worker2)
        first, second, unanswerable = paragraph_questions(reviewed)
        mine = {first.pk: answer(EN_CONTEXT, "Alexandria"), second.pk: answer(EN_CONTEXT, "Khartoum"),
                unanswerable.pk: answer(EN_CONTEXT, "the White Nile")}
        for question_id, span in mine.items():
            second_pass_answer_save(session=session, user=worker2, question_id=question_id, answer=span)
        before = _observables(project)
        (human,) = before["human"]
        assert (human.n, human.exact) == (3, pytest.approx(100 / 3))  # only "Khartoum" matches
        for shown in session_payload(session)["questions"]:
            for attempt in _reanswer_attempts(shown["id"], shown, mine[shown["id"]]):
                with pytest.raises(AnswerFinal, match="first answer is final"):
                    second_pass_answer_save(session=session, user=worker2, question_id=shown["id"], **attempt)
        assert _observables(project) == before
        assert not QuestionFlag.objects.exists()  # the refused request's flag was not kept either

    def test_random_workers_and_attempts_never_move_the_numbers(self, project, crowdworker, worker2, instructor):
        """Property over seeded random answers of three workers on two paragraphs: after any
        sequence of re-answer attempts, human EM/F1 equals the score of each worker's FIRST answer
        computed here independently, and the gold answers are the originals plus those answers."""
        rng = random.Random(13)
        project = project_update(project=project, user=project.owner, second_pass_answers=3)
        paragraphs = [submitted_paragraph(project, crowdworker) for _ in range(2)]
        workers = [worker2, instructor, make_user("worker3", role="crowdworker")]
        candidates = ["the Mediterranean Sea", "Mediterranean Sea", "Khartoum", "at Khartoum", "Alexandria", None]
        first_answers = {}
        for worker in workers:
            for paragraph in paragraphs:
                session = session_start_on(user=worker, paragraph=paragraph, kind="second_pass")
                for q in paragraph_questions(paragraph):
                    text = rng.choice(candidates)
                    second_pass_answer_save(session=session, user=worker, question_id=q.pk,
                                            **({"is_impossible": True} if text is None
                                               else {"answer": answer(EN_CONTEXT, text)}))
                    first_answers[(q.pk, worker.pk)] = text
                before = _observables(project)
                for shown in session_payload(session)["questions"]:
                    text = first_answers[(shown["id"], worker.pk)]
                    attempts = _reanswer_attempts(shown["id"], shown, answer(EN_CONTEXT, text or "Khartoum"))
                    for attempt in rng.sample(attempts, 3):
                        with pytest.raises(AnswerFinal):
                            second_pass_answer_save(session=session, user=worker, question_id=shown["id"],
                                                    **attempt)
                assert _observables(project) == before
        references = {q.pk: [] if q.is_impossible else ["the Mediterranean Sea" if q.position == 0 else "Khartoum"]
                      for paragraph in paragraphs for q in paragraph_questions(paragraph)}
        scores = [score_question(references[qid], text or "") for (qid, _), text in first_answers.items()]
        (human,) = project_stats(project=project).human
        assert human.n == len(scores) == 18
        assert human.exact == pytest.approx(100 * sum(em for em, _ in scores) / 18)
        assert human.f1 == pytest.approx(100 * sum(f1 for _, f1 in scores) / 18)
        for paragraph in paragraphs:
            for q in paragraph_questions(paragraph):
                extra = sorted(text for (qid, _), text in first_answers.items() if qid == q.pk and text is not None)
                gold = sorted(q.answers.filter(kind="second_pass").values_list("text", flat=True))
                assert gold == ([] if q.is_impossible else extra)


class FlagAfterTheRevealTests:
    """After the reveal the worker may flag the original; the flag is a proposal, never an answer."""

    def test_a_correction_is_a_labelled_flag_and_leaves_the_answer_alone(self, project, reviewed, worker2):
        session, q = _answered(project, reviewed, worker2, 0, "Alexandria")
        before = _observables(project)
        flag = second_pass_flag_save(session=session, user=worker2, question_id=q.pk, proposal="fix_answer",
                                     reason="drop the article",
                                     selection=selection(EN_CONTEXT, "Mediterranean Sea"))
        assert (flag.after_reveal, flag.proposed_text, flag.proposed_start, flag.status) == (
            True, "Mediterranean Sea", EN_CONTEXT.index("Mediterranean Sea"), "open")
        assert _observables(project) == before
        # Changing an open flag is allowed; it is still only a flag.
        flag = second_pass_flag_save(session=session, user=worker2, question_id=q.pk,
                                     proposal="remove_question")
        assert (flag.proposal, flag.proposed_text, QuestionFlag.objects.count()) == ("remove_question", "", 1)
        assert session_payload(session)["questions"][0]["flag"]["after_reveal"] is True
        assert _observables(project) == before

    def test_a_fix_without_a_selection_proposes_the_workers_answer(self, project, reviewed, worker2):
        session, q = _answered(project, reviewed, worker2, 1, "at Khartoum")
        flag = second_pass_flag_save(session=session, user=worker2, question_id=q.pk, proposal="fix_answer")
        assert (flag.proposed_text, flag.after_reveal) == ("at Khartoum", True)

    def test_flag_rules(self, project, reviewed, worker2, crowdworker):
        session = second_pass_start(project, worker2)
        first, second, unanswerable = paragraph_questions(reviewed)

        def flag(question, **fields):
            return second_pass_flag_save(session=session, user=worker2, question_id=question.pk, **fields)

        with pytest.raises(ValidationError, match="Answer the question first"):
            flag(first, proposal="remove_question")
        second_pass_answer_save(session=session, user=worker2, question_id=first.pk, is_impossible=True)
        second_pass_answer_save(session=session, user=worker2, question_id=unanswerable.pk, is_impossible=True)
        with pytest.raises(ValidationError, match="select it in the paragraph"):
            flag(first, proposal="fix_answer")  # their answer is "unanswerable": no span to propose
        with pytest.raises(ValidationError, match="is the original answer"):
            flag(first, proposal="fix_answer", answer=answer(EN_CONTEXT, "the Mediterranean Sea"))
        with pytest.raises(ValidationError, match="goes with “fix the answer” only"):
            flag(first, proposal="remove_question", selection=selection(EN_CONTEXT, "Khartoum"))
        with pytest.raises(ValidationError, match="already says the question is unanswerable"):
            flag(unanswerable, proposal="mark_unanswerable")
        with pytest.raises(ValidationError, match="Choose what should happen"):
            flag(first, proposal="burn_it")
        with pytest.raises(ValidationError, match="not one of this paragraph"):
            second_pass_flag_save(session=session, user=worker2, question_id=10**9, proposal="remove_question")
        with pytest.raises(AccessError):
            second_pass_flag_save(session=session, user=crowdworker, question_id=first.pk,
                                  proposal="remove_question")
        assert not QuestionFlag.objects.exists()
        resolved = flag(first, proposal="mark_unanswerable", reason="no sea is named")
        flag_resolve(flag=resolved, user=project.owner, accept=False)
        with pytest.raises(ValidationError, match="already resolved"):
            flag(first, proposal="remove_question")
        assert not second.flags.exists()
