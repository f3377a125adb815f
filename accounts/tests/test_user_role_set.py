"""``accounts.services.user_role_set``: another role for an account (a co-instructor's, issue 30 §2)."""
import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.services import user_role_set
from accounts.tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_crowdworker_becomes_an_instructor():
    user = make_user("cw", role=User.Role.CROWDWORKER)
    user_role_set(user=user, role=User.Role.INSTRUCTOR)
    assert User.objects.get(pk=user.pk).is_instructor


def test_an_unknown_role_is_refused_and_nothing_changes():
    user = make_user("alice")
    with pytest.raises(ValidationError):
        user_role_set(user=user, role="admin")
    assert User.objects.get(pk=user.pk).role == User.Role.STUDENT
