"""Fixtures of the export command tests: collector's command-test round and TSV text, and that round
with a finished evaluation report (its project twin, ``weighed_project``, is in evaluation/tests/conftest.py)."""
import pytest

from collector.services.imports import codah_import
from collector.tests.commands.fixtures import good_tsv_text, plain_round  # noqa: F401 (fixtures, used by name)
from evaluation.tests.factories import finished_report


@pytest.fixture
def weighed_round(plain_round, instructor, good_tsv_text):  # noqa: F811 (the imported fixtures, by name)
    """``plain_round`` with the eight sample questions and a finished evaluation report of them."""
    codah_import(round_=plain_round, text=good_tsv_text, author=instructor)
    return plain_round, finished_report(instructor, round_=plain_round)
