"""A Persian student's authoring page speaks Persian in what its script writes, not only in the template:
the verdict line, the probabilities and the live region's announcement go through the djangojs catalogue
(``core.views.javascript_catalog``, ``static/js/lib/i18n.js``) with Persian digits."""
import re
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import CHOICES, PASSWORD, PROMPT

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
SETTLE_WAIT_MS = 2_000  # the live region speaks 700 ms after things settle (static/js/lib/announce.js)
VERDICTS = {"fooled": "مدل فریب خورد", "not-fooled": "مدل فریب نخورد؛ گزینهٔ درست را برمی‌گزیند"}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class PersianAuthoringEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        prof = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=prof, name="NLP 101")
        model = model_version_register(name="tiny-bert-fa", kind="multiple_choice", path=str(self.model_dir),
                                       revision="e2e")
        self.round = round_create(course=course, name="fa-round", title="Round one", live_model=model)
        student_register(username="sara", password=PASSWORD, join_code=course.join_code)

    def test_the_verdict_the_percentages_and_the_announcement_are_persian(self) -> None:
        page = self.new_page(timeout_ms=TIMEOUT_MS)
        self.log_in(page, "sara", PASSWORD)
        host = self.live_server_url.split("//", 1)[1].split(":")[0]
        page.context.add_cookies([{"name": "django_language", "value": "fa", "domain": host, "path": "/"}])
        page.goto(self.url("collector:round_write", self.round.pk))
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
        verdict = page.locator("#verdict")
        # Drawn by the script at once (author/live.js renderVerdict), in Persian as the template wrote it.
        assert verdict.inner_text() == "هر چهار گزینه را پر کنید تا حدس مدل را ببینید"

        page.locator("#id_prompt").fill(PROMPT)
        for position, text in enumerate(CHOICES):
            page.locator(f"#id_choice_{position}").fill(text)
        page.wait_for_selector("#verdict.verdict-unknown")
        assert verdict.inner_text() == "پاسخ درست را علامت بزنید تا ببینید مدل فریب می‌خورد یا نه"

        page.locator("#id_answer_0").check()
        page.wait_for_selector("#verdict.verdict-fooled, #verdict.verdict-not-fooled")
        page.wait_for_function("() => !document.getElementById('author-form').classList.contains('is-stale')")
        page.wait_for_timeout(SETTLE_WAIT_MS)
        state = verdict.get_attribute("class").split("verdict-")[-1]
        assert verdict.inner_text() == VERDICTS[state]
        share = page.locator(".choice-row.is-pick .prob-value").inner_text()
        assert re.fullmatch("[۰-۹]+٪", share), share  # Persian digits and percent sign
        pick = page.locator(".choice-row").evaluate_all("rows => rows.findIndex(r => r.classList.contains('is-pick'))")
        said = page.locator("#announcer").inner_text()
        assert said.startswith(f"مدل گزینهٔ {'ABCD'[pick]} را با احتمال {share} برمی‌گزیند. {VERDICTS[state]}."), said
        assert "The model" not in said and "The model" not in verdict.inner_text()
        assert self.console_errors == []
