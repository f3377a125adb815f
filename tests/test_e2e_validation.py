"""End to end: blind validation, the owner's review and an appeal, and the artifact coach, in
real Chromium against Daphne.

alice wrote two questions. bob, a classmate, validates them on the validation page with the
keyboard (the completions shuffled, the author and the model's answer hidden): he agrees with
the first, which is accepted; he flags the second, which goes to the instructor's review queue.
The instructor rejects it with a reason; alice reads the reason on her dashboard and appeals.
"""
from pathlib import Path

import pytest

from accounts.models import User
from accounts.services import user_create
from collector.models import Appeal, CoachWarning, Question, Round, Validation
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from courses.services import course_create, student_register
from modelhub.services import model_version_register
from tests.browser import CHROMIUM, BrowserTestCase
from tests.test_e2e_authoring import PASSWORD

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
FIRST = ("the man ate the whole cake . he", ["was very hungry .", "was not hungry .", "gave the cake to a dog .",
                                             "is good at math ."])
SECOND = ("my friend lost the ball . she", ["was sad .", "was happy .", "ate the ball .", "is a bird ."])


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Chromium at /usr/bin/chromium")
class ValidationEndToEndTests(BrowserTestCase):
    def setUp(self) -> None:
        self.instructor = user_create(username="prof", password=PASSWORD, role=User.Role.INSTRUCTOR)
        course = course_create(owner=self.instructor, name="NLP 101")
        model = model_version_register(name="tiny-bert-e2e", kind="multiple_choice",
                                                path=str(self.model_dir), revision="e2e")
        self.round = round_create(course=course, name="e2e-validate", title="Round one", live_model=model,
                                           categories=["idioms", "negation", "other"])
        Round.objects.filter(pk=self.round.pk).update(peer_validation="always", validations_required=1)
        self.alice = student_register(username="alice", password=PASSWORD, join_code=course.join_code)
        student_register(username="bob", password=PASSWORD, join_code=course.join_code)
        self.first = question_submit(user=self.alice, round_id=self.round.pk, prompt=FIRST[0],
                                              choices=FIRST[1], correct_index=0, categories=["negation"])
        self.second = question_submit(user=self.alice, round_id=self.round.pk, prompt=SECOND[0],
                                               choices=SECOND[1], correct_index=0)

    def signed_in(self, username: str):
        page = self.new_page(timeout_ms=TIMEOUT_MS)
        self.log_in(page, username, PASSWORD)
        return page

    def shown_order(self, page) -> list[str]:
        """The completions' texts in the order the page shows them."""
        labels = page.locator(".validate-choice span").all_text_contents()
        return [label.split(". ", 1)[1] for label in labels]

    def test_validate_flag_review_reject_and_appeal(self) -> None:
        bob = self.signed_in("bob")
        bob.get_by_role("link", name="Validate").click()
        bob.wait_for_url(self.url("collector:validate"))
        assert bob.locator("#validate-prompt").inner_text() == FIRST[0]
        body = bob.locator("main").inner_text()
        assert "alice" not in body and "model's pick" not in body and "answer key" not in body
        shown = self.shown_order(bob)
        assert sorted(shown) == sorted(FIRST[1])

        # Keyboard only: the digit of the right completion, then Ctrl+Enter.
        bob.keyboard.press(str(shown.index(FIRST[1][0]) + 1))
        assert bob.locator('input[name="choice"]').nth(shown.index(FIRST[1][0])).is_checked()
        self.screenshot(bob, "validate", docs=False, full_page=True)
        bob.keyboard.press("Control+Enter")
        bob.locator(".message-success", has_text="your answer is saved").wait_for()
        assert Question.objects.get(pk=self.first.pk).status == "accepted"
        assert Validation.objects.get(question=self.first).is_correct

        # The second question: bob picks a wrong completion and flags grammar.
        assert bob.locator("#validate-prompt").inner_text() == SECOND[0]
        shown = self.shown_order(bob)
        bob.keyboard.press(str(shown.index(SECOND[1][2]) + 1))
        bob.get_by_label("Grammar or spelling errors").check()
        bob.get_by_label("Comment").fill("The ball cannot be eaten.")
        bob.get_by_role("button", name="Save and next").click()
        bob.locator(".empty-state", has_text="All caught up").wait_for()
        assert Question.objects.get(pk=self.second.pk).status == "review"

        # The instructor sees the evidence in the review queue and rejects with a reason.
        prof = self.signed_in("prof")
        prof.goto(self.url("collector:round_detail", self.round.pk))
        prof.get_by_role("link", name="Review queue").click()
        card = prof.locator(".review-card", has_text=SECOND[0])
        card.wait_for()
        assert "bob picked C, the key is A" in card.inner_text() and "The ball cannot be eaten." in card.inner_text()
        card.get_by_label("Reason (the author sees it; needed to reject)").fill("Two completions could be right.")
        card.get_by_role("button", name="Reject").click()
        prof.locator(".message-success", has_text="rejected").wait_for()
        assert Question.objects.get(pk=self.second.pk).status == "rejected"

        # alice reads the reason (no credit) and appeals once.
        alice = self.signed_in("alice")
        card = alice.locator(".question-card", has_text=SECOND[0])
        card.wait_for()
        assert "Two completions could be right." in card.inner_text()
        card.get_by_text("Appeal this decision (once)").click()
        card.get_by_label("Why should the question be accepted?").fill("Only a sad friend fits.")
        card.get_by_role("button", name="Send appeal").click()
        alice.locator(".message-success", has_text="appeal is sent").wait_for()
        appeal = Appeal.objects.get()
        assert (appeal.question_id, appeal.status) == (self.second.pk, "open")
        assert "Appeal this decision" not in alice.locator(".question-card", has_text=SECOND[0]).inner_text()

        # The quality report draws its charts.
        prof.goto(self.url("collector:round_quality", self.round.pk))
        prof.locator(".vl-chart[data-vl-state=drawn] svg").nth(1).wait_for()
        self.screenshot(prof, "quality", docs=False, full_page=True)
        assert prof.get_by_test_id("status-accepted").inner_text() == "1"
        assert self.console_errors == []

    def test_the_coach_warns_while_writing_and_records_whether_it_was_heeded(self) -> None:
        alice = self.signed_in("alice")
        alice.goto(self.url("collector:round_write", self.round.pk))
        alice.get_by_label("Prompt").fill("the cat saw a bird . it")
        long_right = "was very hungry and wanted to eat the big red bird before it could go to bed ."
        for position, text in enumerate([long_right, "ate .", "is .", "was ."]):
            alice.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        alice.get_by_label("Completion D", exact=True).press("Alt+1")
        warning = alice.locator("#coach li.coach-length")
        warning.wait_for()
        assert "much longer than the others" in warning.inner_text()

        # A shorter right completion: the warning goes away; submitting records it as heeded.
        alice.get_by_label("Completion A", exact=True).fill("was hungry .")
        warning.wait_for(state="detached")
        alice.keyboard.press("Control+Enter")
        alice.locator(".question-saved").wait_for()
        shown = CoachWarning.objects.get(kind="length")
        assert shown.question.prompt == "the cat saw a bird . it"
        assert shown.present_at_submit is False

        # Typing her first question again: the coach names it as a near-duplicate of her own.
        alice.get_by_label("Prompt").fill(FIRST[0].upper())
        for position, text in enumerate(reversed(FIRST[1])):
            alice.get_by_label(f"Completion {'ABCD'[position]}", exact=True).fill(text)
        duplicate = alice.locator("#coach li.coach-duplicate")
        duplicate.wait_for()
        assert "your own question" in duplicate.inner_text()

        # A completion of one letter repeated: the coach says it is junk and earns no live credit yet.
        alice.get_by_label("Completion D", exact=True).fill("a" * 200)
        junk = alice.locator("#coach li.coach-junk")
        junk.wait_for()
        assert "completion D is one character repeated" in junk.inner_text()
        assert "no live credit until a validator accepts it" in junk.inner_text()
        assert self.console_errors == []
