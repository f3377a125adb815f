"""Hooks through which a higher app adds to a lower app's work without the lower app naming it.

The higher app registers in its ``AppConfig.ready()``, as contrib apps call ``admin.site.register``; the
lower app asks here and gets an empty answer when nothing is registered (docs/architecture.md).

- **Gradebook identities**: who a round's students are in the LMS gradebook its grade file is imported
  into, and the name of the round's column there (``lti`` knows, from its launches; ``collector`` writes
  the files). ``register_gradebook(hook)``; ``gradebook_of(round_id=, user_ids=)``.
- **Page panels**: parts of a lower app's page drawn by a higher one (the LMS gradebook on a round page,
  the export and release forms). ``register_panel(slot, Panel(template, context))``; the page writes
  ``{% panels "round_detail" round %}`` (``core/templatetags/core_registry.py``).
- **Links**: entries of a lower app's navigation that lead to a higher app's pages (the site's menu, the
  round page's "Evaluation report"), where each role starts (``home``), and the page of an object that
  a higher app shows (a course's page is the collector's). ``register_link(slot, Link(label, url_name))``;
  ``links_shown(slot, obj=, user=)``; in a template ``{% links "project_nav" project as links %}`` or
  ``{% link_url "course_page" course %}``.

Slots are plain names; each app lists what it adds by slot in its ``panels.py`` (``PANELS``, ``LINKS``) and
registers them with ``register_parts`` in ``ready()``. A page that asks for a slot nobody filled draws nothing.
"""
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.urls import reverse


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


@dataclass(frozen=True)
class Panel:
    """A part of another app's page: ``template`` rendered inside the page, as ``{% include %}`` would, with
    the names ``context(page_context, obj)`` returns added (``obj``: the page's round, project, course)."""

    template: str
    context: Callable[[Any, Any], Mapping[str, Any]] | None = None
    order: int = 0  # among the slot's panels, smallest first


@dataclass(frozen=True)
class Link:
    """A link into a higher app's pages; with an object, ``url_name`` takes the object's id as its argument."""

    label: str  # shown as is (a lazy translation)
    url_name: str
    order: int = 0  # among the slot's links, smallest first
    visible: Callable[[Any], bool] | None = None  # who sees it (of the user); None: everyone


@dataclass(frozen=True)
class ShownLink:
    label: str
    url: str


_panels: defaultdict[str, list[Panel]] = defaultdict(list)
_links: defaultdict[str, list[Link]] = defaultdict(list)


def register_panel(slot: str, panel: Panel) -> None:
    """Add ``panel`` to the pages that draw ``slot`` (once, however often ``ready()`` runs)."""
    if panel not in _panels[slot]:
        _panels[slot].append(panel)
        _panels[slot].sort(key=lambda each: each.order)


def panels_of(slot: str) -> list[Panel]:
    return list(_panels.get(slot, ()))


def register_link(slot: str, link: Link) -> None:
    """Add ``link`` to the menus, start pages or object pages named ``slot`` (once per link)."""
    if link not in _links[slot]:
        _links[slot].append(link)
        _links[slot].sort(key=lambda each: each.order)


def links_shown(slot: str, *, obj: Any = None, user: Any = None) -> list[ShownLink]:
    """The links of ``slot`` that ``user`` may see (all of them without a user), with their URLs; ``obj`` (an
    object or its id) is the URLs' argument."""
    args = [] if obj is None else [obj if isinstance(obj, int) else obj.pk]
    return [ShownLink(label=link.label, url=reverse(link.url_name, args=args)) for link in _links.get(slot, ())
            if link.visible is None or (user is not None and link.visible(user))]


def register_parts(*, panels: Mapping[str, Sequence[Panel]] | None = None,
                   links: Mapping[str, Sequence[Link]] | None = None) -> None:
    """Register an app's panels and links by slot (the ``PANELS`` and ``LINKS`` of its ``panels`` module)."""
    for slot, slot_panels in (panels or {}).items():
        for panel in slot_panels:
            register_panel(slot, panel)
    for slot, slot_links in (links or {}).items():
        for link in slot_links:
            register_link(slot, link)
