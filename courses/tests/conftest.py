import pytest

from accounts.services import user_create
from courses.services import course_join


@pytest.fixture
def classmates(course):
    """Three more students of ``course``: bob, carol and dave."""
    users = [user_create(username=name, password="a-long-test-password-1", role="student")
             for name in ("bob", "carol", "dave")]
    for user in users:
        course_join(user=user, join_code=course.join_code)
    return users
