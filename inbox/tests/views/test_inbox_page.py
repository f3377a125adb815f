from django.urls import reverse


class InboxPageTests:
    def test_shows_every_section_with_links(self, client, busy_world, instructor):
        client.force_login(instructor)
        page = client.get(reverse("inbox:inbox")).content.decode()
        for heading in ("Reviews waiting", "Appeals waiting", "Flags to resolve", "Runs finished or failed",
                        "Rounds closing soon"):
            assert heading in page
        assert reverse("collector:review_queue", args=[busy_world["mine"].pk]) in page
        assert "5 things wait for your decision." in page
        assert "theirs" not in page

    def test_empty_inbox_says_what_will_appear_and_where_to_start(self, client, instructor):
        client.force_login(instructor)
        page = client.get(reverse("inbox:inbox")).content.decode()
        assert "All caught up." in page and reverse("courses:course_list") in page

    def test_students_are_refused(self, client, student):
        client.force_login(student)
        assert client.get(reverse("inbox:inbox")).status_code == 403

    def test_instructors_land_here(self, client, instructor):
        client.force_login(instructor)
        assert client.get(reverse("home"), follow=True).redirect_chain[-1][0] == reverse("inbox:inbox")

    def test_questions_awaiting_validation_are_counted_with_links(self, client, instructor, round_, student):
        from collector.models import Question
        from collector.tests.factories import question_data

        for i in range(10):
            Question.objects.create(round=round_, author=student, **question_data(prompt=f"Prompt {i}. He"))
        client.force_login(instructor)
        page = client.get(reverse("inbox:inbox")).content.decode()
        assert "10 questions await validation" in page and "All caught up" not in page
        assert f'href="{reverse("collector:validate")}?round={round_.pk}"' in page
        assert reverse("collector:round_detail", args=[round_.pk]) + "#validator-capacity-heading" in page
