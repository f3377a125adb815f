"""Fixtures of the evaluation tests (the shared ones are in the root conftest.py): rounds and
projects with data to report on, evaluate and release, and tiny random models to answer them."""
import pytest

from annotation.models import SpanAnswer, SpanQuestion
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project
from collector.models import Question, Round
from collector.services.questions import question_submit
from collector.services.reviews import question_review_decide
from collector.tests.factories import make_user, question_data, validate
from courses.services import course_join
from evaluation.services import ambiguity as ambiguity_services
from evaluation.tests.factories import (
    ROUND_PLAN,
    artifact_questions,
    finished_report,
    make_questions,
    scoring_run_with_predictions,
    span_project,
)
from mlcore.testing import build_tiny_bert_qa
from modelhub.models import ModelVersion
from modelhub.services import model_version_register


@pytest.fixture
def artifact_round(round_, student, fake_model):
    """``round_`` with 12 questions (idioms 6, negation 4, other 2), live answers (always D, so
    every live prediction is wrong), a 2-trial cross-validation run whose model follows the word
    "gladly" (6 of 12 right: idioms 4 of 6, negation 2 of 4, other 0 of 2), and an answer-only run that always picks A (12 of 12 right)."""
    made = artifact_questions(student, round_)
    scoring_run_with_predictions(round_, {q.pk: [pick, pick] for q, pick in made})
    scoring_run_with_predictions(round_, {q.pk: [0] for q, _ in made}, kind="answer_only")
    round_.categories = ["idioms", "negation", "other"]
    return round_


@pytest.fixture
def small_config():
    """Fast settings: few Adam steps (the reweighting itself is tested in mlcore)."""
    return {"k": 5, "max_steps": 50, "min_count": 2}


@pytest.fixture
def no_probes(monkeypatch):
    """A project report without its ambiguity probes, which read passages with a QA model (they
    are tested on their own)."""
    monkeypatch.setattr(ambiguity_services, "ambiguity_selectional_section", lambda **kw: None)
    monkeypatch.setattr(ambiguity_services, "ambiguity_retrieval_section", lambda **kw: None)


@pytest.fixture
def weighed_project(instructor, no_probes):
    """The "nile-eval" project (8 train questions, 4 validation ones) and a finished evaluation
    report of it computed here, whose weights cover the train questions."""
    project = span_project(instructor)
    return project, finished_report(instructor, project=project)


@pytest.fixture
def qa_project(instructor):
    """``span_project`` ("nile-eval") whose QA model in the loop is a registered model version."""
    qa = ModelVersion.objects.create(name="qa-in-the-loop", kind="question_answering", path="unused", revision="r7")
    project = span_project(instructor, qa_version=qa)
    project.qa_model = qa
    project.save()
    return project


@pytest.fixture(scope="session")
def tiny_qa_dir(tmp_path_factory):
    """A tiny random extractive QA model on disk (the ambiguity probes' reader)."""
    return build_tiny_bert_qa(tmp_path_factory.mktemp("tiny-qa"))


# --- Leaderboards ---------------------------------------------------------------------------


@pytest.fixture
def board_round(round_, student, fake_model):
    """``round_`` with 5 accepted, 1 rejected and 1 pending question, each answered live (D)."""
    make_questions(round_, student, ROUND_PLAN)
    return round_


@pytest.fixture
def live_round(board_round, tiny_model_version):
    """``board_round`` with the tiny model as its live model."""
    board_round.live_model = tiny_model_version
    board_round.save()
    return board_round


@pytest.fixture
def second_version(db, tiny_model_dir):
    return model_version_register(name="tiny-second", kind="multiple_choice", path=str(tiny_model_dir),
                                  revision="r2")


@pytest.fixture
def broken_version(db, tmp_path):
    return model_version_register(name="missing-weights", kind="multiple_choice", path=str(tmp_path / "nowhere"))


@pytest.fixture(scope="session")
def leaderboard_qa_dir(tmp_path_factory):
    return build_tiny_bert_qa(tmp_path_factory.mktemp("leaderboard-qa"), extra_words=("nile", "river", "sea"))


@pytest.fixture
def qa_model_version(db, leaderboard_qa_dir):
    return model_version_register(name="tiny-qa-board", kind="question_answering", path=str(leaderboard_qa_dir))


@pytest.fixture
def test_split_project(instructor):
    """A project with 3 submitted test-split questions (2 answerable), one train question and a draft."""
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


# --- Releases -------------------------------------------------------------------------------


def _author(course, name):
    user = make_user(name)
    course_join(user=user, join_code=course.join_code)
    return user


@pytest.fixture
def release_round(round_, course, student, instructor, fake_model):
    """``round_`` with 20 questions by 5 authors: alice's 12 artifact questions and 2 each by bob,
    cy, dee and eve; a 2-trial CV run (2 folds) and an answer-only run over all of them.

    Validation (one validator needed): 16 accepted (by the instructor's agreeing pick, or by the
    owner's review when the coach sent a near-duplicate there), two in review (a wrong pick; one
    never validated, a near-duplicate), one rejected, one appealed.
    """
    Round.objects.filter(pk=round_.pk).update(validations_required=1)
    round_.refresh_from_db()
    made = artifact_questions(student, round_)
    for name in ("bob", "cy", "dee", "eve"):
        author = _author(course, name)
        for i in range(2):
            q = question_submit(
                user=author, round_id=round_.pk,
                **question_data(prompt=f"{name} wrote question {i}. She", categories=["negation"], correct_index=1))
            made.append((q, 1 if i == 0 else 2))
    scoring_run_with_predictions(round_, {q.pk: [pick, pick] for q, pick in made})
    scoring_run_with_predictions(round_, {q.pk: [0] for q, _ in made}, kind="answer_only")
    questions = [q for q, _ in made]
    for q in questions[:17]:
        validate(q, instructor, q.correct_index if q is not questions[16] else (q.correct_index + 1) % 4)
    for q in Question.objects.filter(pk__in=[q.pk for q in questions[:16]], status=Question.Status.REVIEW):
        question_review_decide(reviewer=instructor, question_id=q.pk, action="accept")
    Question.objects.filter(pk=questions[18].pk).update(status=Question.Status.REJECTED)
    Question.objects.filter(pk=questions[19].pk).update(status=Question.Status.APPEALED)
    return round_
