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
        assert len(many) == len(few) == 7  # reviews, appeals, flags, 3 run kinds, closing rounds

    def test_nothing_waiting_is_empty(self, instructor):
        inbox = instructor_inbox(user=instructor)
        assert inbox.is_empty and inbox.waiting == 0
