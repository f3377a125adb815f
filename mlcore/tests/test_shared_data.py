"""mlcore.tests.shared_data: a missing data file skips a test locally and fails it under CI=true,
and every test reaches ``shared/data`` through it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlcore.tests import shared_data as module
from mlcore.tests.shared_data import SHARED_DATA, shared_data

REPOSITORY = Path(__file__).resolve().parents[2]
# A path to shared/data built by hand ("shared" / "data", "shared", "data", a "../shared/data..." string)
# or from SHARED_DATA without the check of shared_data().
OWN_PATH = re.compile(r"""["']shared["']\s*[/,]\s*["']data["']|["']\.\./shared/data|\bSHARED_DATA\b""")


def test_a_present_file_is_returned(tmp_path, monkeypatch):
    (tmp_path / "codah").mkdir()
    (tmp_path / "codah" / "full_data.tsv").write_text("x", encoding="utf-8")
    monkeypatch.setattr(module, "SHARED_DATA", tmp_path)
    monkeypatch.setenv("CI", "true")
    assert shared_data("codah", "full_data.tsv") == tmp_path / "codah" / "full_data.tsv"


def test_a_missing_file_skips_locally(tmp_path, monkeypatch):
    monkeypatch.setattr(module, "SHARED_DATA", tmp_path)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="absent"):
        shared_data("codah", "full_data.tsv")
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception):
        shared_data("codah", "full_data.tsv")


def test_a_missing_file_fails_under_ci(tmp_path, monkeypatch):
    monkeypatch.setattr(module, "SHARED_DATA", tmp_path)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"CI=true but the shared data .*full_data.tsv is absent"):
        shared_data("codah", "full_data.tsv")


def test_the_data_is_looked_for_beside_the_checkout():
    # CI clones into a folder with shared/ beside the clone; a worktree has it one folder higher.
    assert SHARED_DATA.parts[-2:] == ("shared", "data")
    assert SHARED_DATA.parent.parent in (REPOSITORY.parent, REPOSITORY.parent.parent)
    beside = REPOSITORY.parent / "shared" / "data"
    if beside.is_dir():
        assert beside == SHARED_DATA


def test_no_test_builds_its_own_path_to_the_shared_data():
    """A test that did would skip quietly under CI=true instead of failing."""
    folders = [d for d in REPOSITORY.iterdir() if d.is_dir() and not d.name.startswith(".") and d.name != "node_modules"]
    files = [p for folder in folders for p in folder.rglob("*.py")
             if ("tests" in p.relative_to(REPOSITORY).parts or p.name == "conftest.py")
             and p.resolve() not in (Path(module.__file__).resolve(), Path(__file__).resolve())]
    assert len(files) > 100
    offenders = [str(p.relative_to(REPOSITORY)) for p in files if OWN_PATH.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"use mlcore.tests.shared_data.shared_data() instead of a path of your own: {offenders}"
