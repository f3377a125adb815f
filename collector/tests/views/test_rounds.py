"""``views/rounds.py``: a course's page (its students and rounds, creating a round) and a round's page for its instructors."""
import html

import pytest
from django.urls import reverse

from collector.models import Round
from collector.services.questions import question_submit
from collector.tests.factories import assert_queries_do_not_grow_with_questions, make_user, question_data
from courses.services import course_join


def course_url(course) -> str:
    return reverse("collector:course_detail", args=[course.pk])


@pytest.mark.django_db
class CourseDetailPageTests:
    def test_owner_sees_students_and_rounds(self, client, instructor, course, round_, student):
        client.force_login(instructor)
        page = client.get(course_url(course)).content.decode()
        assert "alice" in page and "Round one" in page and course.join_code in page

    def test_create_round(self, client, instructor, course):
        client.force_login(instructor)
        data = {
            "name": "fall-r1", "title": "Round 1", "instructions": "Be tricky.",
            "opens_at": "2020-01-01T09:00", "closes_at": "2099-01-01T17:30",
            "weight_live": "1.5", "weight_cv": "0.5", "categories": ["idioms", "negation"],
        }
        response = client.post(course_url(course), data)
        round_ = Round.objects.get(name="fall-r1")
        assert response.status_code == 302 and response.url == reverse("collector:round_detail", args=[round_.pk])
        assert round_.categories == ["idioms", "negation"] and round_.weight_live == 1.5
        assert round_.opens_at.hour == 9 and round_.is_open()
        assert round_.live_model is not None

    @pytest.mark.parametrize(
        ("overrides", "field"),
        [
            ({"name": "has spaces"}, "name"),
            ({"name": ""}, "name"),
            ({"opens_at": "2030-01-02T00:00", "closes_at": "2030-01-01T00:00"}, "closes_at"),
            ({"opens_at": "yesterday"}, "opens_at"),
            ({"weight_live": "-1"}, "weight_live"),
            ({"categories": []}, "categories"),
        ],
    )
    def test_bad_round_input_is_explained(self, client, instructor, course, overrides, field):
        client.force_login(instructor)
        data = {"name": "r-ok", "weight_live": "1", "weight_cv": "1", "categories": ["other"], **overrides}
        response = client.post(course_url(course), data)
        assert response.status_code == 200
        assert response.context["form"].errors[field]
        assert Round.objects.count() == 0

    def test_every_problem_shows_at_once_in_a_summary_linked_to_the_fields(self, client, instructor, course, round_):
        """The name taken, the dates in the wrong order and a negative weight: one refusal lists all three."""
        client.force_login(instructor)
        data = {"name": round_.name, "opens_at": "2030-01-02T00:00", "closes_at": "2030-01-01T00:00",
                "weight_live": "-1", "weight_cv": "1", "categories": ["other"]}
        response = client.post(course_url(course), data)
        assert set(response.context["form"].errors) == {"name", "closes_at", "weight_live"}
        html = response.content.decode()
        summary = html[html.index('id="error-summary"'):]
        summary = summary[:summary.index("</div>")]
        assert 'role="alert" tabindex="-1" data-error-summary="summary"' in summary
        assert "The round was not created" in summary
        for field, label in (("name", "Name"), ("closes_at", "Closes"), ("weight_live", "Credit for fooling the live model")):
            assert f'<a href="#id_{field}" data-field-link="id_{field}">{label}</a>' in summary
        assert "js/error_summary.js" in html
        # Both of the service's problems together, without the form's: round_create_check.
        data.update(weight_live="1")
        errors = client.post(course_url(course), data).context["form"].errors
        assert set(errors) == {"name", "closes_at"}
        assert Round.objects.count() == 1

    def test_duplicate_round_name_is_explained(self, client, instructor, course, round_):
        client.force_login(instructor)
        data = {"name": round_.name, "weight_live": "1", "weight_cv": "1", "categories": ["other"]}
        response = client.post(course_url(course), data)
        assert response.status_code == 200
        assert response.context["form"].errors["name"]
        assert Round.objects.count() == 1


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


@pytest.fixture(params=["course", "round"])
def instructors_page(request, course, round_) -> str:
    """The course's page or the round's: both are for the course's instructors (and staff) only."""
    return course_url(course) if request.param == "course" else round_url(round_)


@pytest.mark.django_db
class InstructorsPageAccessTests:
    def test_staff_may_open_any(self, client, staff, instructors_page):
        client.force_login(staff)
        assert client.get(instructors_page).status_code == 200

    @pytest.mark.parametrize("who", ["other_instructor", "student"])
    def test_others_get_403_with_clear_message(self, client, instructors_page, who, request):
        client.force_login(request.getfixturevalue(who))
        response = client.get(instructors_page)
        assert response.status_code == 403
        assert "Only the course's instructors can open this page." in html.unescape(response.content.decode())

    def test_anonymous_is_sent_to_login(self, client, instructors_page):
        assert client.get(instructors_page).status_code == 302


@pytest.mark.django_db
def test_round_page_queries_do_not_grow_with_questions(client, instructor, round_, student, fake_model):
    client.force_login(instructor)
    assert_queries_do_not_grow_with_questions(client, round_url(round_), author=student, round_=round_)
