"""``modelhub/services.py``: registering model versions."""
import pytest

from modelhub.services import model_version_register


@pytest.mark.django_db
def test_model_version_register_is_idempotent_on_name():
    first = model_version_register(name="v1", kind="multiple_choice", path="/a")
    second = model_version_register(name="v1", kind="multiple_choice", path="/b", metrics={"acc": 0.5})
    assert first.pk == second.pk
    assert second.path == "/b"
