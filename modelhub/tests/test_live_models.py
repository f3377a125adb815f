"""The multiple-choice service's view of the per-process live models: "ready" must mean "answers
without building", also after the bounded cache forgot a model (the author is told "loading")."""
from unittest import mock

import pytest

from mlcore.configs import MCExample
from mlcore.models.incremental import IncrementalScorer
from mlcore.models.live import clear_live_models
from modelhub.inference import inference_service, predict_examples
from modelhub.services import model_version_register

EXAMPLE = MCExample(prompt="Tom forgot his umbrella. He", choices=("got wet.", "stayed dry.", "flew home.", "ate the rain."))


@pytest.fixture(autouse=True)
def no_live_models():
    clear_live_models()
    yield
    clear_live_models()


def builds_while(action) -> int:
    """How many live scorers (engine runners) ``action`` built."""
    with mock.patch.object(IncrementalScorer, "__init__", autospec=True,
                           side_effect=IncrementalScorer.__init__) as build:
        action()
    return build.call_count


@pytest.mark.django_db
def test_a_model_the_cache_forgot_is_not_reported_ready(settings, tiny_model_dir):
    settings.STUMPER_INFERENCE_MODE, settings.STUMPER_INFERENCE_ENGINE = "local", "torch"
    # Five versions of one checkpoint (the cache keeps four): each revision is another model.
    versions = [model_version_register(name=f"tiny-{i}", kind="multiple_choice", path=str(tiny_model_dir),
                                       revision=f"r{i}") for i in range(5)]
    for version in versions[:4]:
        predict_examples(version, [EXAMPLE])
    # Asking whether the first is ready must not keep it alive: the fifth load forgets it.
    assert inference_service.model_ready(versions[0])
    predict_examples(versions[4], [EXAMPLE])
    for version in versions:
        if inference_service.model_ready(version):
            assert builds_while(lambda v=version: predict_examples(v, [EXAMPLE])) == 0, version.name
    assert not all(inference_service.model_ready(v) for v in versions)
    # A model reported not ready is built once, and is ready after.
    for version in versions:
        if not inference_service.model_ready(version):
            assert builds_while(lambda v=version: predict_examples(v, [EXAMPLE])) == 1
            assert inference_service.model_ready(version)
