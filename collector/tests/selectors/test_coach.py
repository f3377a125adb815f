"""``selectors/coach.py``: the coach's warnings for drafts and the notes for the instructor."""
import pytest

from collector.models import Round
from collector.selectors.coach import answer_only_warning, coach_notes, text_warnings
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


class NotesTests:
    def test_the_instructor_learns_why_a_warning_cannot_show(self, peer_round):
        notes = " ".join(coach_notes(round_=peer_round))
        assert "no answer-only model yet" in notes and "No word is significantly associated" in notes
        peer_round.coach_answer_only = peer_round.coach_words = False
        assert coach_notes(round_=peer_round) == []
