"""``courses_of_user`` and ``course_detail_for_manager``: a user's courses with whole-course counts."""
import pytest

from core.exceptions import AccessError
from courses.selectors import course_detail_for_manager, courses_of_user
from courses.services import course_create, course_join

pytestmark = pytest.mark.django_db


class CoursesOfUserTests:
    def test_taught_and_enrolled_courses_with_counts_over_the_whole_course(self, instructor, other_instructor,
                                                                            student, course, classmates, round_):
        other = course_create(owner=other_instructor, name="Another")
        course_join(user=student, join_code=other.join_code)
        course_create(owner=other_instructor, name="Not hers")
        rows = {c.name: (c.manages, c.num_students, c.num_rounds)
                for c in courses_of_user(user=student)}
        assert rows == {"NLP 101": (False, 4, 1), "Another": (False, 1, 0)}
        assert {c.name: c.manages for c in courses_of_user(user=other_instructor)} == {
            "Another": True, "Not hers": True}

    def test_co_instructors_manage_and_staff_see_all(self, course, other_instructor, staff):
        course.instructors.add(other_instructor)
        assert [c.manages for c in courses_of_user(user=other_instructor)] == [True]
        assert [c.name for c in courses_of_user(user=staff)] == ["NLP 101"]


class CourseDetailForManagerTests:
    def test_counts_and_access(self, instructor, student, course, round_):
        detail = course_detail_for_manager(user=instructor, course_id=course.pk)
        assert (detail.num_students, detail.num_rounds) == (1, 1)
        with pytest.raises(AccessError, match="Only the course's instructors"):
            course_detail_for_manager(user=student, course_id=course.pk)
        with pytest.raises(AccessError, match="does not exist"):
            course_detail_for_manager(user=instructor, course_id=987654)
