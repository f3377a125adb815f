"""``core.registry``: a lower app asks, the apps registered in ``ready()`` answer."""
import pytest

from core import registry
from core.registry import Gradebook, GradebookIdentity, gradebook_of, register_gradebook


@pytest.fixture
def no_hooks(monkeypatch):
    monkeypatch.setattr(registry, "_gradebook_hooks", [])


def test_nothing_registered_is_an_empty_gradebook(no_hooks):
    assert gradebook_of(round_id=1, user_ids=[1, 2]) == Gradebook()


def test_hooks_are_asked_once_each_and_the_first_that_knows_wins(no_hooks):
    asked = []

    def first(*, round_id, user_ids):
        asked.append(("first", round_id, list(user_ids)))
        return Gradebook(identities={1: GradebookIdentity(sis_user_id="S1")})

    def second(*, round_id, user_ids):
        asked.append(("second", round_id, list(user_ids)))
        return Gradebook(identities={1: GradebookIdentity(sis_user_id="other"), 2: GradebookIdentity(email="b@x")},
                         lineitem_label="Round one")

    for hook in (first, second, first):  # a second ready() registers nothing twice
        register_gradebook(hook)
    answer = gradebook_of(round_id=7, user_ids=[1, 2])
    assert asked == [("first", 7, [1, 2]), ("second", 7, [1, 2])]
    assert answer.identities == {1: GradebookIdentity(sis_user_id="S1"), 2: GradebookIdentity(email="b@x")}
    assert answer.lineitem_label == "Round one"
