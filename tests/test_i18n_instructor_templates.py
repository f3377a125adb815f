"""Every string of the instructor's and owner's pages is translated into Persian (issue 30).

The same lexer check as the crowdworker pages' (``annotation/tests/i18n/test_translations.py``):
text outside ``{% translate %}``/``{% blocktranslate %}`` that has words fails, and so does a msgid
without a Persian translation. Names of formats and measures (CSV, JSON, EM, F1, ...) read the same
in both languages.
"""
from pathlib import Path

import pytest
from django.conf import settings

from annotation.tests.i18n.test_translations import _catalog, _translated, template_msgids

ROOT = Path(settings.BASE_DIR)
TEMPLATES = [
    *(f"courses/templates/courses/{name}.html" for name in
      ("_staff", "course_list", "course_staff", "instructor_invite_join", "signup")),
    "inbox/templates/inbox/_items.html", "inbox/templates/inbox/inbox.html",
    *(f"evaluation/templates/evaluation/{name}.html" for name in
      ("_ambiguity_retrieval", "_chart", "_column_name", "_probe_section", "_release_form", "_report", "_section",
       "_squad_export_form", "_table", "leaderboard", "report_page", "run_detail")),
    *(str(path.relative_to(ROOT)) for path in sorted((ROOT / "lti" / "templates" / "lti").glob("*.html"))),
    *(f"annotation/templates/annotation/{name}.html" for name in
      ("_project_nav", "invite_join", "project_dashboard", "project_flags", "project_import", "project_invites", "project_list",
       "project_paragraphs", "project_settings")),
    *(f"templates/includes/{name}.html" for name in
      ("chart", "chart_scripts", "error_summary", "field", "job_progress", "pagination")),
    "templates/invite_invalid.html",
]
SAME_IN_EVERY_LANGUAGE = {"CSV", "JSON", "API", "vMER", "EM", "F1", "HasAns", "NoAns"}


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_string_of_the_instructor_pages_is_translated(name):
    msgids, loose = template_msgids((ROOT / name).read_text())
    loose = [word for word in loose if word not in SAME_IN_EVERY_LANGUAGE]
    assert not loose, f"{name}: text outside {{% translate %}}: {loose}"
    catalog = _catalog("django")
    plural_ids = {part: m for m in catalog.values() if isinstance(m.id, tuple) for part in m.id}
    missing = [msgid for msgid in msgids if not _translated(catalog.get(msgid) or plural_ids.get(msgid))]
    assert not missing, f"{name}: not in locale/fa/LC_MESSAGES/django.po or not translated: {missing}"
