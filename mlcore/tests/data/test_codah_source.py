"""Where the starter model's CODAH questions come from (``mlcore.data.codah_source``): the held-out split,
the URL rule and the fetch (refusing http, other hosts, redirects and oversize answers), without a network."""
import hashlib
from pathlib import Path
from unittest import mock

import pytest
import requests

from mlcore.data import codah_source
from mlcore.data.codah import read_codah_file
from mlcore.data.codah_source import (
    OFFICIAL_CODAH_SHA256,
    OFFICIAL_CODAH_URL,
    CodahUnavailable,
    codah_holdout_split,
    codah_source_file,
    codah_url_problem,
    fetch_codah,
)
from mlcore.tests.shared_data import shared_data

ROW = "o\tHe went out. He\tran.\tsat.\tsang.\tslept.\t0\n"
ROW_BYTES = ROW.encode()
OTHER_FILE = "https://raw.githubusercontent.com/Websail-NU/CODAH/master/data/full_data.tsv"


class FakeAnswer:
    """What ``requests.get(..., stream=True)`` returns, with chosen status, headers and body chunks."""

    def __init__(self, chunks=(ROW_BYTES,), status=200, headers=None):
        self.chunks, self.status_code, self.headers = list(chunks), status, headers or {}
        self.is_redirect = status in (301, 302, 303, 307, 308)

    def iter_content(self, size):
        yield from self.chunks

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_holdout_split_is_a_seeded_partition():
    split = codah_holdout_split(2776, fraction=0.1, seed=0)
    assert len(split.test) == 278 and len(split.train) == 2498
    assert sorted(split.train + split.test) == list(range(2776))
    assert split == codah_holdout_split(2776, fraction=0.1, seed=0)
    assert split.test != codah_holdout_split(2776, fraction=0.1, seed=1).test
    assert len(codah_holdout_split(5, fraction=0.1).test) == 1  # at least one held out
    with pytest.raises(ValueError):
        codah_holdout_split(1)
    with pytest.raises(ValueError):
        codah_holdout_split(10, fraction=1.0)


@pytest.mark.parametrize("url", [
    "http://raw.githubusercontent.com/Websail-NU/CODAH/master/data/full_data.tsv",
    "https://example.org/Websail-NU/CODAH/master/data/full_data.tsv",
    "https://raw.githubusercontent.com/attacker/CODAH/master/data/full_data.tsv",
    "https://raw.githubusercontent.com.evil.test/Websail-NU/CODAH/master/data/full_data.tsv",
    "https://user:pw@raw.githubusercontent.com/Websail-NU/CODAH/master/data/full_data.tsv",
    "https://raw.githubusercontent.com:8443/Websail-NU/CODAH/master/data/full_data.tsv",
    "https://raw.githubusercontent.com/Websail-NU/CODAH/../../attacker/x/data.tsv",
    "file:///etc/passwd",
    "https://[::1/",
])
def test_url_rule_refuses_all_but_the_official_repository_over_https(url):
    assert codah_url_problem(url)
    with mock.patch.object(codah_source.requests, "get") as get, pytest.raises(CodahUnavailable, match="refused"):
        fetch_codah(url, Path("/nonexistent/x.tsv"), max_bytes=10_000, timeout=1)
    get.assert_not_called()


def test_url_rule_accepts_the_official_file():
    assert codah_url_problem(OFFICIAL_CODAH_URL) == ""
    assert codah_url_problem(OTHER_FILE) == ""


def test_fetch_writes_the_file_without_following_redirects(tmp_path):
    with mock.patch.object(codah_source.requests, "get", return_value=FakeAnswer()) as get:
        path = fetch_codah(OTHER_FILE, tmp_path / "codah.tsv", max_bytes=10_000, timeout=3)
    assert path.read_text() == ROW
    assert get.call_args.kwargs["allow_redirects"] is False and get.call_args.kwargs["timeout"] == 3


@pytest.mark.parametrize("answer, message", [
    (FakeAnswer(status=302, headers={"Location": "https://evil.test/x"}), "302"),
    (FakeAnswer(status=404), "404"),
    (FakeAnswer(chunks=[b"x" * 600, b"x" * 600]), "larger than 1000 bytes"),
    (FakeAnswer(chunks=[b"x"], headers={"Content-Length": "5000"}), "larger than 1000 bytes"),
])
def test_fetch_refuses_redirects_errors_and_oversize_answers(tmp_path, answer, message):
    with mock.patch.object(codah_source.requests, "get", return_value=answer), \
            pytest.raises(CodahUnavailable, match=message):
        fetch_codah(OTHER_FILE, tmp_path / "codah.tsv", max_bytes=1000, timeout=3)
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left


def test_the_pinned_official_url_must_have_the_published_content(tmp_path):
    with mock.patch.object(codah_source.requests, "get", return_value=FakeAnswer()), \
            pytest.raises(CodahUnavailable, match="SHA-256"):
        fetch_codah(OFFICIAL_CODAH_URL, tmp_path / "codah.tsv", max_bytes=10_000, timeout=3)
    assert list(tmp_path.iterdir()) == []


def test_network_errors_are_unavailable(tmp_path):
    with mock.patch.object(codah_source.requests, "get", side_effect=requests.ConnectionError("offline")), \
            pytest.raises(CodahUnavailable, match="could not be fetched"):
        codah_source_file(OTHER_FILE, cache_dir=tmp_path, max_bytes=10_000, timeout=3)


def test_source_file_local_path_empty_and_fetched_once(tmp_path):
    local = tmp_path / "full_data.tsv"
    local.write_text(ROW)
    assert codah_source_file(str(local), cache_dir=tmp_path, max_bytes=10, timeout=1) == local
    with pytest.raises(CodahUnavailable, match="is not a file"):
        codah_source_file(str(tmp_path / "missing.tsv"), cache_dir=tmp_path, max_bytes=10, timeout=1)
    with pytest.raises(CodahUnavailable, match="STUMPER_STARTER_CODAH is empty"):
        codah_source_file("  ", cache_dir=tmp_path, max_bytes=10, timeout=1)
    cache = tmp_path / "cache"
    with mock.patch.object(codah_source.requests, "get", return_value=FakeAnswer()) as get:
        first = codah_source_file(OTHER_FILE, cache_dir=cache, max_bytes=10_000, timeout=1)
        second = codah_source_file(OTHER_FILE, cache_dir=cache, max_bytes=10_000, timeout=1)
    assert first == second and first.read_text() == ROW and get.call_count == 1


def test_the_released_file_parses_and_has_the_pinned_hash():
    """The real full_data.tsv (shared data, never copied here) is what the starter job reads."""
    path = shared_data("codah", "full_data.tsv")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == OFFICIAL_CODAH_SHA256
    result = read_codah_file(path, max_prompt_chars=10_000, max_choice_chars=10_000, allow_duplicate_choices=True)
    assert result.ok and len(result.examples) == 2776
