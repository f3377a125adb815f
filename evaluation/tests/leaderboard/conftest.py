"""Fixtures of the leaderboard tests: a round with validated questions, a project with a test
split, and tiny random BERT models (multiple choice and QA) registered as model versions."""
import pytest

from collector.models import Question
from collector.tests.factories import question_data

# (category, answer key, status): the fake live model always picks D (index 3), so a question
# fooled it unless its key is 3.
ROUND_PLAN = [
    ("idioms", 0, "accepted"), ("idioms", 3, "accepted"), ("idioms", 1, "accepted"),
    ("negation", 2, "accepted"), ("negation", 3, "accepted"),
    ("other", 0, "rejected"), ("other", 1, "pending"),
]
WORDS = ["the cat ate an apple .", "my brother saw the ball .", "a dog liked a book .", "the teacher found the car ."]


def make_questions(round_, user, plan, *, prefix="q"):
    made = []
    for i, (category, key, status) in enumerate(plan):
        question = _submit(round_, user, f"{prefix} {i} the man was hungry . he", key, category)
        Question.objects.filter(pk=question.pk).update(status=status)
        made.append(question)
    return made


def _submit(round_, user, prompt, key, category):
    from collector import services

    choices = [f"{w} {prompt.split()[1]}" for w in WORDS]
    return services.question_submit(user=user, round_id=round_.pk,
                                    **question_data(prompt=prompt, choices=choices, correct_index=key,
                                                    categories=[category]))


@pytest.fixture
def board_round(round_, student, fake_model):
    """``round_`` with 5 accepted, 1 rejected and 1 pending question, each answered live (D)."""
    make_questions(round_, student, ROUND_PLAN)
    return round_


@pytest.fixture
def broken_version(db, tmp_path):
    from modelhub.services import model_version_register

    return model_version_register(name="missing-weights", kind="multiple_choice", path=str(tmp_path / "nowhere"))


@pytest.fixture(scope="session")
def leaderboard_qa_dir(tmp_path_factory):
    from mlcore.testing import build_tiny_bert_qa

    return build_tiny_bert_qa(tmp_path_factory.mktemp("leaderboard-qa"), extra_words=("nile", "river", "sea"))


@pytest.fixture
def qa_model_version(db, leaderboard_qa_dir):
    from modelhub.services import model_version_register

    return model_version_register(name="tiny-qa-board", kind="question_answering", path=str(leaderboard_qa_dir))


@pytest.fixture
def test_split_project(instructor):
    """A project with 3 submitted test-split questions (2 answerable), one train question and a draft."""
    from annotation.models import SpanAnswer, SpanQuestion
    from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project

    project = make_project(instructor, name="nile-board")
    train = add_paragraphs(project, [EN_CONTEXT], split="train", title="Nile")[0]
    test = add_paragraphs(project, [EN_CONTEXT], split="test", title="Nile test")[0]
    rows = [(test, "Which sea does the Nile empty into?", "the Mediterranean Sea", "submitted"),
            (test, "Where do the branches meet?", "Khartoum", "submitted"),
            (test, "Who first sailed the Nile?", None, "submitted"),
            (test, "Unsent draft?", None, "draft"),
            (train, "Which continent has the Nile?", "Africa", "submitted")]
    for i, (paragraph, text, gold, status) in enumerate(rows):
        question = SpanQuestion.objects.create(project=project, paragraph=paragraph, qid=f"q{i}", question=text,
                                               is_impossible=gold is None, status=status, position=i)
        if gold is not None:
            SpanAnswer.objects.create(question=question, text=gold, answer_start=paragraph.context.index(gold))
    return project

