"""Shared fixtures: tiny random BERT checkpoints built once per test session."""

from __future__ import annotations

import os
from pathlib import Path

# Tests must never reach the network, even if a hub id slips through.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import pytest

from mlcore.testing import build_tiny_bert


@pytest.fixture(scope="session")
def tiny_mc_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny ``BertForMultipleChoice`` checkpoint (random weights)."""
    return build_tiny_bert(tmp_path_factory.mktemp("tiny_mc"), seed=0, with_head=True)


@pytest.fixture(scope="session")
def tiny_base_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny bare ``BertModel`` checkpoint, shaped like the packaged MiniLM."""
    return build_tiny_bert(tmp_path_factory.mktemp("tiny_base"), seed=1, with_head=False)
