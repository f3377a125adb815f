"""Hooks through which a higher app adds to a lower app's work without the lower app naming it.

The higher app registers in its ``AppConfig.ready()``, as contrib apps call ``admin.site.register``; the
lower app asks here and gets an empty answer when nothing is registered (docs/architecture.md).

- **Gradebook identities**: who a round's students are in the LMS gradebook its grade file is imported
  into, and the name of the round's column there (``lti`` knows, from its launches; ``collector`` writes
  the files). ``register_gradebook(hook)``; ``gradebook_of(round_id=, user_ids=)``.
"""
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class GradebookIdentity:
    """A student as an LMS knows them; "" where it is not known."""

    sis_user_id: str = ""  # the institution's id (LTI ``lis.person_sourcedid``; Canvas's "SIS User ID")
    lms_user_id: str = ""  # the LMS's own id of the user (LTI ``sub``)
    email: str = ""  # the e-mail address the LMS has


@dataclass(frozen=True)
class Gradebook:
    """What the registered hooks know about one round's LMS gradebook."""

    identities: Mapping[int, GradebookIdentity] = field(default_factory=dict)  # by Stumper user id
    lineitem_label: str = ""  # the round's gradebook column in the LMS ("" when it has none)


class GradebookHook(Protocol):
    def __call__(self, *, round_id: int, user_ids: Sequence[int]) -> Gradebook: ...


_gradebook_hooks: list[GradebookHook] = []


def register_gradebook(hook: GradebookHook) -> None:
    """Add ``hook`` (once, however often ``ready()`` runs)."""
    if hook not in _gradebook_hooks:
        _gradebook_hooks.append(hook)


def gradebook_of(*, round_id: int, user_ids: Sequence[int]) -> Gradebook:
    """All hooks' answers for the round's students: for a student or the label, the first hook registered
    that knows wins."""
    identities: dict[int, GradebookIdentity] = {}
    label = ""
    for hook in _gradebook_hooks:
        answer = hook(round_id=round_id, user_ids=user_ids)
        for user_id, identity in answer.identities.items():
            identities.setdefault(user_id, identity)
        label = label or answer.lineitem_label
    return Gradebook(identities=identities, lineitem_label=label)
