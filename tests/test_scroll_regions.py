"""Every box that scrolls a wide table sideways can be reached and scrolled with the keyboard, and a
screen reader names it (axe's scrollable-region-focusable): tabindex="0", role="region" and a label."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(path for path in ROOT.glob("**/templates/**/*.html")
                   if not {".venv", "node_modules", "site"} & set(path.relative_to(ROOT).parts))
SCROLL_BOX = re.compile(r'<div class="[^"]*\btable-scroll\b[^"]*"[^>]*>')


def scroll_boxes() -> list[tuple[Path, str]]:
    return [(path, tag) for path in TEMPLATES for tag in SCROLL_BOX.findall(path.read_text(encoding="utf-8"))]


def test_the_templates_have_scroll_boxes_to_check():
    assert len(scroll_boxes()) >= 9


@pytest.mark.parametrize(("path", "tag"), scroll_boxes(), ids=lambda value: getattr(value, "name", ""))
def test_a_scroll_box_is_a_focusable_labelled_region(path, tag):
    assert 'tabindex="0"' in tag and 'role="region"' in tag, f"{path}: {tag}"
    labelled_by = re.search(r'aria-labelledby="([^"]+)"', tag)
    assert labelled_by or re.search(r'aria-label="[^"]+"', tag), f"{path}: {tag} has no label"
    if labelled_by and "{{" not in labelled_by.group(1):
        # A literal id must name an element of the same page.
        assert f'id="{labelled_by.group(1)}"' in path.read_text(encoding="utf-8"), f"{path}: {tag}"
