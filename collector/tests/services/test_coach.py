"""``collector.coach``: warnings for drafts, recording them, settling them at submission, the report."""
import uuid

import pytest

from collector.models import CoachWarning, Round
from collector.selectors.coach import answer_only_warning, coach_notes, coach_report, text_warnings
from collector.services.coach import coach_warnings_record
from collector.services.questions import question_submit
from collector.tests.factories import question_data

pytestmark = pytest.mark.django_db

LONG_RIGHT = ["went home after a very long and tiring day at the office.", "ran.", "sat.", "ate."]


def kinds(warnings) -> list[str]:
    return [w["kind"] for w in warnings]


@pytest.fixture
def artifact_round(peer_round, student, fake_model):
    """Twelve questions whose right completion always says "definitely": a word artifact."""
    for i in range(12):
        answer = i % 4
        choices = [f"maybe did chore {i} {j}." for j in range(4)]
        choices[answer] = f"definitely did chore {i}."
        question_submit(user=student, round_id=peer_round.pk, **question_data(
            prompt=f"Story {i} about errand {i * 13} and more. He", choices=choices, correct_index=answer))
    return peer_round


class TextWarningsTests:
    def test_words_typical_of_right_answers_are_named(self, artifact_round, classmates):
        warnings = text_warnings(round_=artifact_round, author_id=classmates[0].pk, prompt="A new story. He",
                                       choices=["definitely left.", "stayed.", "sang.", "slept."], answer=0)
        assert kinds(warnings) == ["words"]
        assert warnings[0]["words"] == ["definitely"] and "“definitely”" in warnings[0]["message"]
        # The same word in a wrong completion is no artifact of this question's answer.
        assert text_warnings(round_=artifact_round, author_id=classmates[0].pk, prompt="A new story. He",
                                   choices=["definitely left.", "stayed.", "sang.", "slept."], answer=1) == []

    def test_a_much_longer_right_completion(self, peer_round, student):
        warnings = text_warnings(round_=peer_round, author_id=student.pk, prompt="Tom was tired. He",
                                       choices=LONG_RIGHT, answer=0)
        assert kinds(warnings) == ["length"] and "much longer" in warnings[0]["message"]

    def test_a_near_duplicate_names_only_the_authors_own_question(self, submitted, student, classmates):
        copy = {"prompt": submitted.prompt.upper(), "choices": list(reversed(submitted.choices)), "answer": 3}
        own = text_warnings(round_=submitted.round, author_id=student.pk, **copy)
        assert kinds(own) == ["duplicate"] and submitted.prompt in own[0]["message"]
        other = text_warnings(round_=submitted.round, author_id=classmates[0].pk, **copy)
        assert kinds(other) == ["duplicate"] and submitted.prompt not in other[0]["message"]
        assert "existing question" in other[0]["message"]

    def test_without_a_marked_answer_only_duplicates_are_checked(self, peer_round, student):
        assert text_warnings(round_=peer_round, author_id=student.pk, prompt="Tom was tired. He",
                                   choices=LONG_RIGHT, answer=None) == []

    def test_each_warning_can_be_switched_off(self, artifact_round, submitted, student):
        Round.objects.filter(pk=artifact_round.pk).update(coach_words=False, coach_length=False, coach_duplicates=False)
        artifact_round.refresh_from_db()
        for choices, answer in ((["definitely left.", "stayed.", "sang.", "slept."], 0), (LONG_RIGHT, 0)):
            assert text_warnings(round_=artifact_round, author_id=student.pk, prompt="X. He", choices=choices,
                                       answer=answer) == []
        assert text_warnings(round_=artifact_round, author_id=student.pk, prompt=submitted.prompt,
                                   choices=submitted.choices, answer=0) == []

    def test_answer_only_warning_only_when_the_model_picked_the_answer(self, peer_round):
        assert kinds(answer_only_warning(round_=peer_round, answer=2, answer_only_pick=2)) == ["answer_only"]
        assert answer_only_warning(round_=peer_round, answer=2, answer_only_pick=1) == []
        assert answer_only_warning(round_=peer_round, answer=None, answer_only_pick=1) == []
        peer_round.coach_answer_only = False
        assert answer_only_warning(round_=peer_round, answer=2, answer_only_pick=2) == []


class RecordAndSettleTests:
    def test_heeded_and_ignored_warnings_are_told_apart_at_submission(self, peer_round, student, fake_model):
        heeded_token, ignored_token = uuid.uuid4(), uuid.uuid4()
        length = text_warnings(round_=peer_round, author_id=student.pk, prompt="Tom was tired. He",
                                     choices=LONG_RIGHT, answer=0)
        for token in (heeded_token, ignored_token):
            coach_warnings_record(author_id=student.pk, round_=peer_round, token=token, warnings=length)
            coach_warnings_record(author_id=student.pk, round_=peer_round, token=token, warnings=length)
        assert CoachWarning.objects.count() == 2  # once per question and kind
        # The author shortened the right completion of the first question but not of the second.
        question_submit(user=student, round_id=peer_round.pk, client_token=heeded_token, **question_data(
            prompt="Tom was tired. He", choices=["went home.", "ran.", "sat.", "ate."]))
        question_submit(user=student, round_id=peer_round.pk, client_token=ignored_token, **question_data(
            prompt="Tom was very tired. He", choices=LONG_RIGHT))
        assert CoachWarning.objects.get(client_token=heeded_token).present_at_submit is False
        assert CoachWarning.objects.get(client_token=ignored_token).present_at_submit is True
        # A warning for a draft that was never submitted stays unsettled.
        coach_warnings_record(author_id=student.pk, round_=peer_round, token=uuid.uuid4(), warnings=length)
        row = next(r for r in coach_report(round_=peer_round) if r["kind"] == "length")
        assert (row["shown"], row["submitted"], row["heeded"], row["ignored"]) == (3, 2, 1, 1)
        assert row["heeded_rate"] == 0.5 and row["enabled"] is True


class NotesTests:
    def test_the_instructor_learns_why_a_warning_cannot_show(self, peer_round):
        notes = " ".join(coach_notes(round_=peer_round))
        assert "no answer-only model yet" in notes and "No word is significantly associated" in notes
        peer_round.coach_answer_only = peer_round.coach_words = False
        assert coach_notes(round_=peer_round) == []
