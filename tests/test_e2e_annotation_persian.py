"""End to end in real Chromium: a Persian crowdworker's pages in Persian, right to left.

The task list and the annotation page speak Persian (the project's language) with Persian
digits; answers already added are highlighted in the paragraph, each question in its own
colour; a click on a highlight selects its question; the current selection stands out; the
worker switches to English and the choice is remembered. Screenshots at 1366x900 and 390x844
(docs/img/ with STUMPER_SCREENSHOTS=1: the README shows the Persian annotation page).
"""
import re
import time
from pathlib import Path

import pytest
from django.core import mail

from accounts.models import User
from accounts.recovery_services import password_reset_send
from accounts.services import user_create
from annotation.models import AnnotationSession, Article, Paragraph, QuestionFlag
from annotation.services.authoring import question_add, session_start_on, session_submit
from annotation.services.projects import project_create
from annotation.tests.factories import answer
from tests.browser import CHROMIUM, BrowserTestCase

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password-42"
Z = "\u200c"
CONTEXT = ("تهران، پایتخت ایران، در دامنهٔ جنوبی رشته" + Z + "کوه البرز قرار دارد. آقامحمدخان قاجار در سال ۱۱۶۴ "
           "خورشیدی این شهر را پایتخت کرد و جمعیت آن اکنون بیش از ۹ میلیون نفر است. کتاب" + Z + "خانهٔ ملی ایران "
           "در سال ۱۳۱۶ در تهران گشایش یافت و امروز بیش از ۱۵ میلیون سند دارد. برج میلاد با ۴۳۵ متر "
           "بلندی، بلندترین سازهٔ کشور است و در شمال غربی شهر دیده می" + Z + "شود.")
QUESTIONS = [("پایتخت ایران در دامنهٔ کدام رشته" + Z + "کوه است؟", "البرز"),
             ("چه کسی تهران را پایتخت کرد؟", "آقامحمدخان قاجار"),
             ("برج میلاد چند متر بلندی دارد؟", "۴۳۵ متر")]
TIMEOUT_MS = 30_000


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class PersianWorkerPagesTests(BrowserTestCase):
    build_model = "import sys"  # no model in the loop: nothing to build

    def setUp(self) -> None:
        owner = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        self.project = project_create(owner=owner, name="پرسش و پاسخ فارسی", language="fa",
                                      questions_min=3, questions_max=6,
                                      instructions="۱. پرسش را با واژه" + Z + "های خودتان بنویسید.\n"
                                                   "۲. پاسخ را در متن انتخاب کنید.")
        article = Article.objects.create(project=self.project, title="تهران", split="train", rank=1)
        paragraph = Paragraph.objects.create(article=article, position=0, context=CONTEXT)
        self.worker = user_create(username="sara", password=PASSWORD, role=User.Role.CROWDWORKER)
        self.finished_earlier(owner)
        self.session = session_start_on(user=self.worker, paragraph=paragraph)
        for question, text in QUESTIONS:  # answers already added (drafts of this session)
            question_add(session=self.session, user=self.worker, question=question,
                         answer=answer(CONTEXT, text))
        self.open_page(TIMEOUT_MS)
        self.page.set_viewport_size({"width": 1366, "height": 900})

    def finished_earlier(self, owner: User) -> None:
        """A paragraph the worker submitted before (10 minutes on it), one of its questions flagged."""
        article = Article.objects.create(project=self.project, title="کتاب" + Z + "خانهٔ ملی", split="train", rank=2)
        paragraph = Paragraph.objects.create(article=article, position=0, context=CONTEXT)
        session = session_start_on(user=self.worker, paragraph=paragraph)
        for question, text in QUESTIONS:
            question_add(session=session, user=self.worker, question=question, answer=answer(CONTEXT, text))
        session_submit(session=session, user=self.worker)
        AnnotationSession.objects.filter(pk=session.pk).update(active_seconds=610)
        QuestionFlag.objects.create(question=session.questions.first(), raised_by=owner, proposal="remove_question")

    def sign_in(self) -> None:
        self.log_in(self.page, "sara", PASSWORD)
        self.page.wait_for_url(self.url("annotation:task_list"))

    def shoot(self, name: str) -> None:
        for width, height in ((1366, 900), (390, 844)):
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.evaluate("window.scrollTo(0, 0)")
            self.screenshot(self.page, f"{name}-{width}")
            assert self.page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} wider than {width}px"
        self.page.set_viewport_size({"width": 1366, "height": 900})

    def test_persian_pages_coloured_answers_and_the_language_switch(self) -> None:
        page = self.page
        self.sign_in()
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
        page.get_by_role("heading", name=f"کارهای برچسب{Z}گذاری").wait_for()
        card = page.locator(".task-card").inner_text()
        assert "۳ تا ۶ پرسش" in card  # Persian digits
        # Progress: one paragraph finished, its time, its review state (a flag waits for the owner).
        assert "۱۰ دقیقه" in card and "در دست بررسی" in card, card
        self.shoot("crowd-tasks-fa")

        page.get_by_role("link", name=f"ادامهٔ نوشتن پرسش{Z}ها").click()
        page.wait_for_url(self.url("annotation:session", self.session.pk))
        # The timer counts time on the paragraph from the server's heartbeats (none yet before the page).
        page.wait_for_function("() => document.getElementById('elapsed').textContent === '۰:۰۰'")
        for _ in range(50):
            self.session.refresh_from_db()
            if self.session.last_active_at is not None:
                break
            time.sleep(0.1)
        assert self.session.last_active_at is not None
        # "Article #1" keeps its order inside right-to-left text (isolated, Persian digits).
        assert page.locator(".eyebrow bdi").nth(1).inner_text() == "مقالهٔ شمارهٔ ۱"
        assert page.locator("#question-count").inner_text() == "(۳ از ۳ تا ۶)"
        assert page.evaluate("getComputedStyle(document.getElementById('question-list')).listStyleType") == "persian"

        # Each added answer is highlighted in the paragraph in its own colour.
        marks = page.locator("#paragraph .hl-q")
        assert marks.count() == 3
        assert [marks.nth(i).inner_text() for i in range(3)] == ["البرز", "آقامحمدخان قاجار", "۴۳۵ متر"]
        colours = {marks.nth(i).evaluate("el => getComputedStyle(el).backgroundColor") for i in range(3)}
        assert len(colours) == 3, colours
        # The list item of each question carries the same colour as its highlight.
        first_item = page.locator("#question-list li").first
        assert (first_item.evaluate("el => getComputedStyle(el).borderInlineStartColor")
                == marks.first.evaluate("el => getComputedStyle(el).boxShadow.match(/rgb\\([^)]*\\)/)[0]"))

        # Clicking a highlight selects its question.
        marks.nth(1).click()
        selected = page.locator("#question-list li.is-selected")
        assert selected.count() == 1 and "چه کسی تهران را پایتخت کرد؟" in selected.inner_text()
        assert page.evaluate("document.activeElement.dataset.questionId") == selected.get_attribute("data-question-id")
        assert "hl-active" in marks.nth(1).get_attribute("class")

        # The current selection (keyboard: from the end, one word back) is clearly visible.
        page.get_by_label("پرسش", exact=True).fill("بلندترین سازهٔ کشور کدام است؟")
        page.locator("#paragraph").focus()
        page.keyboard.press("End")
        page.keyboard.press("Control+Shift+ArrowRight")
        page.keyboard.press("Control+Shift+ArrowRight")
        current = page.locator("#paragraph .hl-sel")
        current.first.wait_for()
        assert current.first.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(31, 95, 209)"
        chosen = page.locator("#selection-text").inner_text()
        assert chosen and CONTEXT.endswith(chosen) and current.first.inner_text() in chosen
        page.wait_for_function("() => document.getElementById('save-state').textContent.length > 0")
        assert page.locator("#model-status").inner_text() == f"برای این پروژه مدلی تنظیم نشده است: پرسش{Z}هایتان را مثل همیشه بنویسید."
        self.shoot("crowd-annotation-fa")
        assert not self.console_errors, self.console_errors
        self.api_and_socket_messages_in_persian()
        assert all("status of 400" in error for error in self.console_errors), self.console_errors  # the two above

        # The worker switches to English; the choice is remembered on the next pages.
        page.get_by_role("button", name="English").click()
        page.get_by_role("button", name="Add question").wait_for()
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["en", "ltr"]
        page.wait_for_function("() => document.getElementById('question-count').textContent === '(3 of 3–6)'")
        page.goto(self.url("annotation:task_list"))
        page.get_by_role("heading", name="Annotation tasks").wait_for()
        assert AnnotationSession.objects.filter(pk=self.session.pk, status="in_progress").exists()

    def api_and_socket_messages_in_persian(self) -> None:
        """What the API and the model's socket answer is in Persian too (annotation.apis.worker_language, consumers)."""
        page = self.page
        page.locator("#paragraph").focus()
        page.keyboard.press("Escape")  # no selection: the server says to mark the answer
        page.wait_for_function("() => document.getElementById('selection-text').classList.contains('is-empty')")
        page.get_by_role("button", name="افزودن پرسش").click()
        errors = page.locator("#form-errors")
        errors.wait_for()
        assert errors.inner_text() == f"پاسخ را در پاراگراف علامت بزنید، یا پرسش را بی{Z}پاسخ علامت بزنید."
        page.locator("details.discard summary").click()
        page.locator("#discard-reason").select_option("other")  # "other" needs a note, says the server
        page.locator("#discard-form button[type=submit]").click()
        page.wait_for_function("() => document.getElementById('form-errors').textContent.includes('در چند کلمه')")
        assert errors.inner_text() == "در چند کلمه بنویسید چرا این پاراگراف باید کنار گذاشته شود."
        replies = page.evaluate("""async (path) => {
            const { connectSocket } = await import("/static/js/lib/socket.js");
            return await new Promise((resolve) => {
                const seen = [];
                const socket = connectSocket(path, {
                    onOpen: () => {
                        socket.send({type: "shout"});
                        socket.send({type: "draft", question: "?", seq: "x"});
                    },
                    onMessage: (message) => {
                        seen.push(message.message);
                        if (seen.length === 3) { socket.close(); resolve(seen); }
                    },
                });
            });
        }""", f"/ws/annotation/sessions/{self.session.pk}/qa/")
        assert replies == [f"برای این پروژه مدلی تنظیم نشده است: پرسش{Z}هایتان را مثل همیشه بنویسید.",
                           """نوع پیام 'shout' ناشناخته است؛ "draft" یا "ping" انتظار می""" + Z + "رفت.",
                           '"seq" باید عدد صحیح باشد.']
        assert AnnotationSession.objects.filter(pk=self.session.pk, status="in_progress").exists()

    def test_second_pass_in_persian_is_blind_then_shows_the_original(self) -> None:
        """Another worker's questions: the answer is final, then "matches"/"differs" and the original."""
        author = user_create(username="reza", password=PASSWORD, role=User.Role.CROWDWORKER)
        article = Article.objects.create(project=self.project, title="برج میلاد", split="validation", rank=3)
        paragraph = Paragraph.objects.create(article=article, position=0, context=CONTEXT)
        session = session_start_on(user=author, paragraph=paragraph)
        for question, text in (("پایتخت ایران کجاست؟", "تهران"), *QUESTIONS):
            question_add(session=session, user=author, question=question, answer=answer(CONTEXT, text))
        session_submit(session=session, user=author)
        page = self.page
        self.sign_in()
        page.get_by_role("button", name=f"پاسخ به پرسش{Z}های دیگران").click()
        page.locator("#review-list > li").first.wait_for()
        items = page.locator("#review-list > li")
        assert page.locator("#paragraph .hl-orig").count() == 0  # blind

        assert "is-empty" in page.locator("#selection-text").get_attribute("class")  # no blue box around "nothing"
        # Question 1: the first word, selected with the keyboard (in right-to-left text, ← goes forward).
        page.locator("#paragraph").focus()
        page.keyboard.press("Home")
        page.keyboard.press("Control+Shift+ArrowLeft")
        assert page.locator("#selection-text").inner_text() == "تهران"
        items.nth(0).get_by_role("button", name=f"متن انتخاب{Z}شده پاسخ است").click()
        items.nth(0).locator(".badge-match").wait_for()
        assert items.nth(0).locator(".badge-match").inner_text() == "با پاسخ اصلی یکسان است"
        # Question 2: "unanswerable", which differs; the original span is highlighted.
        items.nth(1).get_by_role("button", name=f"بی{Z}پاسخ").click()
        items.nth(1).locator(".badge-differs").wait_for()
        assert "".join(page.locator("#paragraph .hl-orig").all_inner_texts()) == "البرز"
        # Nothing changes the worker's answers; flagging is one link per answered question.
        for i in (0, 1):
            assert items.nth(i).get_by_role("button").count() == 0
            assert items.nth(i).locator("summary").inner_text() == "گزارش پاسخ اصلی"
        assert page.locator("#answered-count").inner_text() == "(۲ از ۴ پاسخ داده شده)"
        self.shoot("crowd-second-pass-fa")
        assert not self.console_errors, self.console_errors

    def test_the_project_settings_in_groups_with_the_persian_instructions_right_to_left(self) -> None:
        page = self.page
        self.log_in(page, "prof", PASSWORD)
        page.goto(self.url("annotation:project_settings", self.project.pk))
        assert page.locator("fieldset legend").all_inner_texts()[:3] == ["Crowdworkers", "Writing questions", "Second pass"]
        box = page.get_by_label("Instructions for workers")
        assert box.evaluate("el => getComputedStyle(el).direction") == "rtl"
        assert page.evaluate("document.documentElement.dir") == "ltr"  # the owner's pages stay English
        self.shoot("annotation-settings")

        # No model in the loop yet: the project page says so and offers the two ways to add one.
        page.goto(self.url("annotation:project_dashboard", self.project.pk))
        page.locator("#no-model").wait_for()
        assert "No model is in the loop." in page.locator("#no-model").inner_text()
        assert page.get_by_role("button", name="Train the model").is_enabled()  # 3 answered train questions
        page.get_by_label("Model, folder or hub id").fill("/no/such/checkpoint")
        page.get_by_role("button", name="Use this model").click()
        page.get_by_text("The model in the loop did not change.").wait_for()
        page.locator("#model-loop").scroll_into_view_if_needed()
        self.screenshot(page, "annotation-model-in-the-loop-1366")

    def test_a_worker_who_chose_persian_signs_out_and_in_on_a_persian_page(self) -> None:
        """The Language buttons' choice holds on the sign-in page (where signing out leads), its
        tries-left message included, right to left and no wider than the screen."""
        page = self.page
        self.sign_in()
        page.get_by_role("button", name="English").click()
        page.get_by_role("heading", name="Annotation tasks").wait_for()
        page.get_by_role("button", name="فارسی").click()  # the worker chooses Persian: the cookie says so
        page.get_by_role("heading", name=f"کارهای برچسب{Z}گذاری").wait_for()
        page.get_by_role("button", name="خروج").click()
        page.wait_for_url(self.url("accounts:login"))
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
        page.get_by_label("نام کاربری").fill("sara")
        page.get_by_label("گذرواژه").fill("not-her-password")
        page.locator("main").get_by_role("button", name="ورود").click()
        tries_left = page.locator(".form-errors li").nth(1)
        tries_left.wait_for()
        assert re.fullmatch(f"[۱-۹] بار دیگر می{Z}توانید امتحان کنید؛ پس از آن ورود برای [۰-۹]+ دقیقه قفل می{Z}شود.",
                            tries_left.inner_text()), tries_left.inner_text()
        assert page.locator("main h1").inner_text() == "ورود" and page.evaluate("document.documentElement.dir") == "rtl"
        self.shoot("sign-in-fa")  # both sizes, each no wider than its viewport
        page.get_by_label("گذرواژه").fill(PASSWORD)
        page.locator("main").get_by_role("button", name="ورود").click()
        page.wait_for_url(self.url("annotation:task_list"))
        page.get_by_role("heading", name=f"کارهای برچسب{Z}گذاری").wait_for()
        assert not self.console_errors, self.console_errors

    def test_the_reset_link_a_persian_worker_gets_opens_persian_pages(self) -> None:
        """The email is Persian (the worker's project's language), and so are the pages its link opens."""
        User.objects.filter(pk=self.worker.pk).update(email="sara@example.org")
        self.worker.refresh_from_db()
        host = self.live_server_url.split("://", 1)[1]
        password_reset_send(user=self.worker, domain=host, use_https=False)  # what the sign-in page's flow sends
        email = mail.outbox[-1]
        assert email.subject == "بازنشانی گذرواژهٔ Stumper شما" and "نام کاربری شما sara است." in email.body
        page = self.page
        page.goto(re.search(r"http://\S+/accounts/password/reset/\S+/", email.body).group(0))
        page.get_by_role("heading", name="تعیین گذرواژهٔ تازه").wait_for()
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
        self.shoot("reset-password-fa")
        page.locator("#id_new_password1").fill("another-long-password-77")
        page.locator("#id_new_password2").fill("another-long-password-77")
        page.get_by_role("button", name="ذخیرهٔ گذرواژهٔ تازه").click()
        page.get_by_role("heading", name="گذرواژهٔ شما تغییر کرد").wait_for()
        assert page.evaluate("document.documentElement.dir") == "rtl"
        self.worker.refresh_from_db()
        assert self.worker.check_password("another-long-password-77")
        assert not self.console_errors, self.console_errors
