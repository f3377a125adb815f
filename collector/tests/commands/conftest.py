"""Fixtures for the management command tests (defined in ``fixtures.py``, which evaluation's export tests load too)."""
from collector.tests.commands.fixtures import good_tsv_text, plain_round  # noqa: F401 (fixtures, used by name)
