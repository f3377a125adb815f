"""``modelhub/services.py``: registering model versions, sharing a course's with every instructor."""
import pytest
from django.core.exceptions import ValidationError

from core.exceptions import AccessError
from modelhub.models import ModelVersion
from modelhub.selectors import models_usable_by
from modelhub.services import model_version_default, model_version_register, model_version_share


@pytest.mark.django_db
def test_model_version_register_is_idempotent_on_name():
    first = model_version_register(name="v1", kind="multiple_choice", path="/a")
    second = model_version_register(name="v1", kind="multiple_choice", path="/b", metrics={"acc": 0.5})
    assert first.pk == second.pk
    assert second.path == "/b"


@pytest.mark.django_db
class ModelVersionShareTests:
    def test_the_courses_instructor_shares_it_and_takes_it_back(self, course, instructor, other_instructor):
        version = model_version_register(name="nlp-v1", kind="multiple_choice", path="/a", course_id=course.pk)
        assert version.course_id == course.pk and not version.shared
        assert model_version_share(model_id=version.pk, user=instructor, shared=True).shared
        assert "nlp-v1" in {v.name for v in models_usable_by(user=other_instructor)}
        model_version_share(model_id=version.pk, user=instructor, shared=False)
        assert not ModelVersion.objects.get(pk=version.pk).shared
        assert "nlp-v1" not in {v.name for v in models_usable_by(user=other_instructor)}

    def test_another_courses_instructor_cannot(self, course, instructor, other_instructor):
        version = model_version_register(name="nlp-v1", kind="multiple_choice", path="/a", course_id=course.pk)
        with pytest.raises(AccessError, match="There is no such model version."):
            model_version_share(model_id=version.pk, user=other_instructor, shared=True)
        model_version_share(model_id=version.pk, user=instructor, shared=True)
        # Seeing a shared model is not owning it: it cannot be unshared by another course.
        with pytest.raises(AccessError, match="Only the instructors of NLP 101"):
            model_version_share(model_id=version.pk, user=other_instructor, shared=False)
        assert ModelVersion.objects.get(pk=version.pk).shared

    def test_a_public_model_has_nothing_to_share(self, instructor):
        with pytest.raises(ValidationError, match="belongs to no course"):
            model_version_share(model_id=model_version_default().pk, user=instructor, shared=True)
