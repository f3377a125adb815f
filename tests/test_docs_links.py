"""Every relative link and image of the README and of docs/ points at a file that exists.

mkdocs --strict (run by scripts/test.sh) checks links between the docs pages; the README is not
part of the site, so its links (to docs/ pages and screenshots) are checked here, for all pages.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def relative_targets(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))  # links inside code blocks are examples
    targets = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            continue  # http(s):, mailto:, in-page anchors and site paths of the running app
        targets.append(target.split("#", 1)[0])
    return targets


def test_the_readme_links_to_the_docs_pages():
    assert any(t.startswith("docs/") for t in relative_targets(ROOT / "README.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path):
    missing = [t for t in relative_targets(page) if t and not (page.parent / t).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to missing files: {missing}"
