"""``selectors/duplicates.py``: the per-process index of a course, drafts and round pairs."""
import pytest

from collector.models import Question
from collector.selectors.duplicates import draft_duplicates, duplicate_flag_counts, round_duplicate_pairs
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import question_data
from courses.services import course_create, course_join

pytestmark = pytest.mark.django_db


def test_the_index_follows_new_and_edited_questions(submitted, student, classmates, peer_round):
    draft = {"prompt": "It rained all day long, so Omar", "choices": ["took an umbrella.", "wore sunglasses.",
                                                                     "lit a fire.", "watered the lawn."]}
    assert draft_duplicates(round_=peer_round, author_id=student.pk, **draft) == []
    other = question_submit(user=classmates[0], round_id=peer_round.pk, **question_data(**draft))
    hits = draft_duplicates(round_=peer_round, author_id=student.pk, **draft)
    assert [(h.question_id, h.own, h.prompt) for h in hits] == [(other.pk, False, None)]
    # Edited elsewhere (another process, the admin): the cached index is rebuilt.
    Question.objects.filter(pk=other.pk).update(prompt="A completely different story about cats. They")
    other.refresh_from_db()
    other.save()  # bumps updated_at, as an edit through the review page does
    assert draft_duplicates(round_=peer_round, author_id=student.pk, **draft) == []


def test_round_pairs_include_other_rounds_and_imports_but_not_other_courses(submitted, course, instructor, student,
                                                                             peer_round, fake_model):
    other_round = round_create(course=course, name="r2")
    copy = question_submit(user=student, round_id=other_round.pk, **question_data(
        prompt=submitted.prompt.lower() + "!", choices=list(reversed(submitted.choices)), correct_index=3))
    elsewhere = course_create(owner=instructor, name="Other course")
    course_join(user=student, join_code=elsewhere.join_code)
    far = round_create(course=elsewhere, name="far")
    question_submit(user=student, round_id=far.pk, **question_data())
    pairs = round_duplicate_pairs(round_=peer_round)
    assert [(p["a"]["id"], p["b"]["id"], p["similarity"]) for p in pairs] == [(submitted.pk, copy.pk, 1.0)]
    assert pairs[0]["b"]["round_id"] == other_round.pk
    assert round_duplicate_pairs(round_=far) == []  # its course has no copy of it
    assert duplicate_flag_counts(round_=other_round) == 1
