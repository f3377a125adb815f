import pytest
from django.urls import reverse

from collector.services.questions import question_submit
from collector.tests.factories import make_user, question_data
from courses.services import course_join


def round_url(round_) -> str:
    return reverse("collector:round_detail", args=[round_.pk])


@pytest.fixture
def questions(round_, student, course, fake_model):
    bob = make_user("bob")
    course_join(user=bob, join_code=course.join_code)
    question_submit(
        user=student, round_id=round_.pk, **question_data(prompt="Alice fools it. She", correct_index=0, categories=["idioms"])
    )
    question_submit(
        user=bob, round_id=round_.pk, **question_data(prompt="Bob does not. He", correct_index=3, categories=["negation"])
    )
    return bob


@pytest.mark.django_db
class RoundPageTests:
    def test_owner_sees_stats_model_and_questions(self, client, instructor, round_, questions):
        client.force_login(instructor)
        response = client.get(round_url(round_))
        assert response.status_code == 200
        page = response.content.decode()
        assert response.context["stats"]["questions"] == 2
        assert response.context["stats"]["authors"] == 2
        assert "50%" in page  # fooling rate
        assert round_.live_model.name in page
        assert "Alice fools it. She" in page and "Bob does not. He" in page
        assert "Questions per category" in page

    @pytest.mark.parametrize(
        ("params", "expected"),
        [
            ({"fooled": "yes"}, ["Alice fools it. She"]),
            ({"fooled": "no"}, ["Bob does not. He"]),
            ({"category": "negation"}, ["Bob does not. He"]),
            ({"q": "ALICE"}, ["Alice fools it. She"]),
            ({"fooled": "maybe", "category": "nonsense"}, ["Alice fools it. She", "Bob does not. He"]),
        ],
    )
    def test_filters(self, client, instructor, round_, questions, params, expected):
        client.force_login(instructor)
        response = client.get(round_url(round_), params)
        assert response.status_code == 200
        assert sorted(row.question.prompt for row in response.context["rows"]) == expected

    def test_author_filter(self, client, instructor, round_, questions):
        client.force_login(instructor)
        response = client.get(round_url(round_), {"author": questions.pk})
        assert [row.question.author for row in response.context["rows"]] == [questions]
        assert client.get(round_url(round_), {"author": "x"}).status_code == 200

    def test_paginates_25_per_page_keeping_filters(self, client, instructor, round_, student, fake_model):
        for i in range(30):
            question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Prompt {i}. He"))
        client.force_login(instructor)
        first = client.get(round_url(round_), {"q": "Prompt", "fooled": "yes"})
        assert len(first.context["rows"]) == 25
        page = first.content.decode()
        assert "?q=Prompt&amp;fooled=yes&amp;page=2" in page
        assert page.count("<details>") == 25  # one compact line per question; completions open on demand
        second = client.get(round_url(round_), {"q": "Prompt", "fooled": "yes", "page": 2})
        assert len(second.context["rows"]) == 5
        assert second.context["filters"]["q"].value() == "Prompt"  # the filter form still shows them

    def test_staff_may_open_any_round(self, client, staff, round_):
        client.force_login(staff)
        assert client.get(round_url(round_)).status_code == 200

    @pytest.mark.parametrize("who", ["other_instructor", "student"])
    def test_others_get_403_with_clear_message(self, client, round_, who, request):
        client.force_login(request.getfixturevalue(who))
        response = client.get(round_url(round_))
        assert response.status_code == 403
        assert "Only the course&#x27;s instructors can open this page." in response.content.decode()

    def test_anonymous_is_sent_to_login(self, client, round_):
        assert client.get(round_url(round_)).status_code == 302


@pytest.mark.django_db
def test_round_page_queries_do_not_grow_with_questions(client, instructor, round_, student, fake_model):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(instructor)

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert client.get(round_url(round_)).status_code == 200
        return len(context)

    question_submit(user=student, round_id=round_.pk, **question_data(prompt="First. He"))
    few = queries()
    for i in range(10):
        question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"More {i}. He"))
    assert queries() == few
