"""Fixtures of the annotation tests (users come from the root conftest.py)."""
from pathlib import Path

import pytest

from accounts.tests.factories import make_user
from annotation.tests.factories import EN_CONTEXT, FA_CONTEXT, add_paragraphs, make_project, submitted_paragraph

TINY_QA_WORDS = ("nile", "river", "sea", "khartoum", "africa", "تهران", "پایتخت", "ایران", "کتاب")


@pytest.fixture
def owner(instructor):
    return instructor


@pytest.fixture
def worker2(db):
    return make_user("worker2", role="crowdworker")


@pytest.fixture
def project(owner):
    return make_project(owner)


@pytest.fixture
def fa_project(owner):
    return make_project(owner, name="tehran", language="fa")


@pytest.fixture
def paragraph(project):
    return add_paragraphs(project, [EN_CONTEXT])[0]


@pytest.fixture
def reviewed(project, crowdworker):
    """A validation paragraph with crowdworker's 3 submitted questions (the last unanswerable)."""
    return submitted_paragraph(project, crowdworker)


@pytest.fixture
def train_paragraph(project, crowdworker):
    """A train paragraph with crowdworker's 3 submitted questions (what a QA training reads)."""
    return submitted_paragraph(project, crowdworker, split="train")


@pytest.fixture
def fa_paragraph(fa_project):
    return add_paragraphs(fa_project, [FA_CONTEXT], title="تهران")[0]


@pytest.fixture(scope="session")
def tiny_qa_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mlcore.testing import build_tiny_bert_qa

    return build_tiny_bert_qa(tmp_path_factory.mktemp("tiny-qa"), extra_words=TINY_QA_WORDS)


@pytest.fixture
def qa_version(db, tiny_qa_dir):
    from modelhub.services import model_version_register

    return model_version_register(name="tiny-qa", kind="question_answering", path=str(tiny_qa_dir))
