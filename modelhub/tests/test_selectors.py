"""``modelhub/selectors.py``: who may see and serve which model (``models_usable_by``)."""
import pytest

from core.exceptions import AccessError
from modelhub.selectors import live_model_choices, model_version_for_user, models_usable_by
from modelhub.services import model_version_default, model_version_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def registry(course, other_course):
    """Version 0 (packaged), an operator's model, one model of each course, and one the other course shared."""
    return {
        "v0": model_version_default(),
        "operator": model_version_register(name="operator-mc", kind="multiple_choice", path="/m/op"),
        "mine": model_version_register(name="nlp-after-r1", kind="multiple_choice", path="/m/a", course_id=course.pk),
        "theirs": model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                         course_id=other_course.pk),
        "shared": model_version_register(name="vision-shared", kind="multiple_choice", path="/m/c",
                                         course_id=other_course.pk),
    }


def names(versions) -> set[str]:
    return {version.name for version in versions}


def test_an_instructor_sees_public_shared_and_their_courses_models_only(registry, instructor, other_instructor):
    registry["shared"].shared = True
    registry["shared"].save()
    public = {"v0-minilm-zero-shot", "operator-mc", "vision-shared"}
    assert names(models_usable_by(user=instructor)) == public | {"nlp-after-r1"}
    assert names(models_usable_by(user=other_instructor)) == public | {"vision-after-r1"}
    assert names(models_usable_by(user=None)) == public  # the system, for no course


def test_a_co_instructor_and_staff_see_the_courses_model(registry, course, outsider, staff):
    course.instructors.add(outsider)
    assert "nlp-after-r1" in names(models_usable_by(user=outsider))
    assert names(models_usable_by(user=staff)) == names(registry.values())


def test_the_system_may_use_a_courses_model_in_that_course(registry, course):
    assert "nlp-after-r1" in names(live_model_choices(course_id=course.pk))
    assert "vision-after-r1" not in names(live_model_choices(course_id=course.pk))


def test_another_courses_model_is_no_such_model(registry, instructor):
    assert model_version_for_user(user=instructor, model_id=registry["mine"].pk) == registry["mine"]
    for model_id in (registry["theirs"].pk, 987654):
        with pytest.raises(AccessError, match="There is no such model version."):
            model_version_for_user(user=instructor, model_id=model_id)


def test_live_choices_answer_multiple_choice(registry, instructor):
    model_version_register(name="squad-qa", kind="question_answering", path="/m/qa")
    assert "squad-qa" not in names(live_model_choices(user=instructor))
    assert "squad-qa" in names(models_usable_by(user=instructor))
