"""Fixtures of the evaluation tests (the shared ones are in the root conftest.py)."""
import pytest

from evaluation.services import ambiguity as ambiguity_services
from evaluation.tests.factories import artifact_questions, finished_report, scoring_run_with_predictions, span_project


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
