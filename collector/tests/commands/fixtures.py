"""Fixtures of the tests of commands that read or write a round's CODAH TSV: a round with no model
loading, sample TSV text. Collector's and evaluation's command tests load them in their conftest.py."""
import pytest

from collector.tests.factories import GOOD_ROWS, tsv


@pytest.fixture
def good_tsv_text() -> str:
    return tsv(GOOD_ROWS)


@pytest.fixture
def plain_round(course):
    """An open round whose live model is the default v0 row (nothing gets loaded)."""
    from collector.services.rounds import round_create

    return round_create(course=course, name="cmd-round", title="Commands round")
