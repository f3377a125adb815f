"""``core.registry``: a lower app asks, the apps registered in ``ready()`` answer."""
from collections import defaultdict
from types import SimpleNamespace

import pytest
from django.template import Context, Engine

from core import registry
from core.registry import (
    Gradebook,
    GradebookIdentity,
    Link,
    Panel,
    ShownLink,
    gradebook_of,
    links_shown,
    register_gradebook,
    register_link,
    register_parts,
)


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


@pytest.fixture
def empty_slots(monkeypatch):
    monkeypatch.setattr(registry, "_panels", defaultdict(list))
    monkeypatch.setattr(registry, "_links", defaultdict(list))
    monkeypatch.setattr(registry, "reverse", lambda name, args: f"/{name}/{'/'.join(map(str, args))}")


def test_links_come_in_order_for_who_may_see_them_with_the_objects_url(empty_slots):
    teacher, student = SimpleNamespace(teaches=True), SimpleNamespace(teaches=False)
    everyone = Link("Report", "report", order=20)
    teachers = Link("Grades", "grades", order=10, visible=lambda user: user.teaches)
    for link in (everyone, teachers, everyone):  # a second ready() registers nothing twice
        register_link("round_links", link)
    assert links_shown("round_links", obj=SimpleNamespace(pk=7), user=teacher) == [
        ShownLink("Grades", "/grades/7"), ShownLink("Report", "/report/7")]
    assert links_shown("round_links", obj=7, user=student) == [ShownLink("Report", "/report/7")]
    assert links_shown("round_links") == [ShownLink("Report", "/report/")]  # no user: only links for everyone
    assert links_shown("nobody_filled_this") == []


def test_panels_render_in_order_inside_the_page_with_their_names(empty_slots):
    engine = Engine(loaders=[("django.template.loaders.locmem.Loader", {
        "page.html": '{% load core_registry %}<h1>{{ round.name }}</h1>{% panels "round_detail" round %}'
                     '{% panels "nobody_filled_this" round %}<p>end</p>',
        "b.html": "<b>{{ round.name }} {{ extra }}</b>",
        "i.html": "<i>{{ page_name }}</i>",
    })], libraries={"core_registry": "core.templatetags.core_registry"})
    register_parts(panels={"round_detail": [Panel("b.html", lambda context, round_: {"extra": round_.pk * 2}, order=2),
                                            Panel("i.html", order=1)]})
    page = engine.get_template("page.html").render(Context({"round": SimpleNamespace(name="R<1>", pk=3),
                                                            "page_name": "x"}))
    assert page == "<h1>R&lt;1&gt;</h1><i>x</i><b>R&lt;1&gt; 6</b><p>end</p>"
