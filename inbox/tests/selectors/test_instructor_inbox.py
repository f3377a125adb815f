from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from inbox.selectors import instructor_inbox


class InstructorInboxTests:
    def test_lists_each_kind_with_links_to_act_on_it(self, busy_world, instructor):
        mine = busy_world["mine"]
        inbox = instructor_inbox(user=instructor)
        assert [(i.title, i.url) for i in inbox.reviews] == [
            ("2 questions to review", reverse("collector:review_queue", args=[mine.pk]))]
        [appeal] = inbox.appeals
        assert appeal.title == "Appeal by alice"
        assert appeal.url == reverse("collector:question_review", args=[mine.questions.get(status="appealed").pk])
        [flags] = inbox.flags
        assert flags.title == "2 flags to resolve" and flags.url.endswith("/flags/")
        assert [(i.title, i.status) for i in inbox.runs] == [
            (f"Cross-validation run {mine.scoring_runs.get(status='failed').pk} failed", "failed"),
            ("Training of model next-mine finished", "done"),
        ]
        [closing] = inbox.closing
        assert closing.title.startswith("Idioms closes") and "3 questions so far" in closing.detail
        assert closing.url == reverse("collector:round_detail", args=[mine.pk])
        assert inbox.waiting == 2 + 1 + 2

    def test_another_instructors_courses_and_projects_stay_out(self, busy_world, other_instructor):
        inbox = instructor_inbox(user=other_instructor)
        assert {i.detail.split(" · ")[0] for i in inbox.reviews} == {str(busy_world["theirs"])}
        assert all("mine" not in i.detail for i in (*inbox.runs, *inbox.flags))

    def test_one_query_per_kind_however_much_there_is(self, busy_world, instructor):
        with CaptureQueriesContext(connection) as few:
            instructor_inbox(user=instructor)
        # Twice the data (another course of prof's) costs no extra query.
        from collector.models import Appeal, Question
        from collector.services.rounds import round_create
        from courses.services import course_create

        more = round_create(course=course_create(owner=instructor, name="Second"), name="more")
        for _ in range(3):
            q = Question.objects.create(round=more, author=instructor, prompt="p", choices=["a", "b", "c", "d"],
                                        correct_index=0, status="appealed")
            Appeal.objects.create(question=q, author=instructor, message="m")
        with CaptureQueriesContext(connection) as many:
            inbox = instructor_inbox(user=instructor)
        assert len(inbox.appeals) == 4
        assert len(many) == len(few) == 8  # reviews, appeals, validations, flags, 3 run kinds, closing rounds

    def test_nothing_waiting_is_empty(self, instructor):
        inbox = instructor_inbox(user=instructor)
        assert inbox.is_empty and inbox.waiting == 0


class AwaitingValidationTests:
    """Questions waiting for validators are work too: the inbox counts them, links to the validation
    page, and names a round whose settings keep them from being accepted."""

    @staticmethod
    def _pending(round_, author, n):
        from collector.models import Question
        from collector.tests.factories import question_data

        for i in range(n):
            Question.objects.create(round=round_, author=author, **question_data(prompt=f"Prompt {i}. He"))

    def test_ten_pending_questions_of_a_one_instructor_course_are_listed_and_flagged(self, instructor, round_,
                                                                                     student):
        self._pending(round_, student, 10)
        inbox = instructor_inbox(user=instructor)
        assert not inbox.is_empty and inbox.awaiting_validation == 10
        waiting, blocked = inbox.validations
        assert waiting.title == "10 questions await validation" and "10 you can validate" in waiting.detail
        assert waiting.url == f"{reverse('collector:validate')}?round={round_.pk}"
        assert blocked.title == f"{round_}: no question can be accepted"
        assert blocked.url == reverse("collector:round_detail", args=[round_.pk]) + "#validator-capacity-heading"

    def test_once_validated_by_the_instructor_the_link_goes_to_the_round(self, instructor, course, round_, student,
                                                                        fake_model):
        from accounts.tests.factories import make_user
        from collector.models import Question
        from collector.tests.factories import validate
        from courses.services import course_staff_add

        self._pending(round_, student, 1)
        make_user("tara")
        course_staff_add(course=course, who="tara", role="ta")
        validate(Question.objects.get(), instructor, 0)
        [waiting] = instructor_inbox(user=instructor).validations  # a TA makes two: no warning line
        assert waiting.title == "1 question awaits validation" and "none left for you" in waiting.detail
        assert waiting.url == reverse("collector:round_detail", args=[round_.pk])

    def test_more_rounds_and_courses_cost_no_extra_query(self, instructor, round_, student):
        from collector.services.rounds import round_create
        from courses.services import course_create

        self._pending(round_, student, 2)
        with CaptureQueriesContext(connection) as few:
            instructor_inbox(user=instructor)
        for name in ("second", "third"):
            self._pending(round_create(course=course_create(owner=instructor, name=name), name=name), instructor, 3)
        with CaptureQueriesContext(connection) as many:
            inbox = instructor_inbox(user=instructor)
        assert inbox.awaiting_validation == 8 and len(many) == len(few)
