"""Item quality on the pages: the round page sorts by it, the validation page can put it first."""
import pytest
from django.urls import reverse

from collector.models import QuestionStatus
from collector.selectors.item_quality import round_item_quality
from collector.tests.factories import validate
from collector.tests.item_quality_fixtures import numbered_question

pytestmark = pytest.mark.django_db
VALIDATE = reverse("collector:validate")


def round_url(round_) -> str:
    return reverse("collector:round_detail", args=[round_.pk])


class RoundPageQualityTests:
    def test_sort_by_quality_follows_the_selector_and_shows_the_scores(self, client, instructor, scored_round):
        round_, q, _, _ = scored_round
        client.force_login(instructor)
        quality = round_item_quality(round_=round_)
        response = client.get(round_url(round_), {"sort": "quality"})
        assert response.status_code == 200
        assert [row.question.pk for row in response.context["rows"]] == list(quality.order)
        page = response.content.decode()
        assert 'name="sort"' in page and "Quality, highest first" in page
        best = quality.get(quality.order[0])
        assert f"{best.quality:.2f}" in page and f"{best.difficulty:.2f}" in page

    def test_default_order_is_still_newest_first(self, client, instructor, scored_round):
        round_, q, _, _ = scored_round
        client.force_login(instructor)
        response = client.get(round_url(round_))
        rows = response.context["rows"]
        assert [row.question.pk for row in rows] == [x.pk for x in reversed(q)]
        # The scores' columns come with the quality order; the default table stays laptop-narrow.
        assert "<th scope=\"col\" class=\"num\">Discrimination</th>" not in response.content.decode()

    def test_a_round_without_answers_says_so_and_still_sorts(self, client, instructor, peer_round, student, fake_model):
        questions = [numbered_question(student, peer_round, i, 0) for i in range(2)]
        client.force_login(instructor)
        response = client.get(round_url(peer_round), {"sort": "quality"})
        assert response.status_code == 200
        assert "not enough answers yet" in response.content.decode()
        assert [row.question.pk for row in response.context["rows"]] == [x.pk for x in reversed(questions)]

    def test_a_bad_sort_value_is_ignored(self, client, instructor, scored_round):
        client.force_login(instructor)
        assert client.get(round_url(scored_round[0]), {"sort": "'; drop table"}).status_code == 200


@pytest.fixture
def queue_round(peer_round, student, classmates, fake_model):
    """Keys 3, 3, 0 (the fake live model picks 3): the live model gets the first two right; bob
    answers the first. Fewest validations first gives the second; quality puts the third first."""
    q = [numbered_question(student, peer_round, i, key) for i, key in enumerate((3, 3, 0))]
    validate(q[0], classmates[0], 3)
    return peer_round, q


class ValidationQueueQualityTests:
    def _shown(self, client, params) -> int:
        return client.get(VALIDATE, params).context["question"].pk

    def test_staff_can_put_the_most_promising_first(self, client, instructor, queue_round):
        round_, q = queue_round
        client.force_login(instructor)
        pending = {x.pk for x in q if x.status == QuestionStatus.PENDING}
        expected = next(pk for pk in round_item_quality(round_=round_).order if pk in pending)
        assert expected == q[2].pk  # the one the live model missed
        assert self._shown(client, {"round": round_.pk}) == q[1].pk  # default unchanged
        response = client.get(VALIDATE, {"round": round_.pk, "order": "promising"})
        assert response.context["question"].pk == expected
        page = response.content.decode()
        assert "Fewest validations first" in page and "order=promising" in page  # the skip link keeps it

    def test_skipping_keeps_the_order(self, client, instructor, queue_round):
        round_, q = queue_round
        client.force_login(instructor)
        response = client.get(VALIDATE, {"round": round_.pk, "order": "promising", "skip": q[2].pk})
        assert response.status_code == 302 and "order=promising" in response.url

    def test_students_keep_the_default_order(self, client, classmates, queue_round):
        round_, q = queue_round
        carol = classmates[1]
        client.force_login(carol)
        response = client.get(VALIDATE, {"round": round_.pk, "order": "promising"})
        assert response.context["question"].pk == q[1].pk
        assert "Most promising questions first" not in response.content.decode()


class QualityPageItemMapTests:
    def test_the_item_map_plots_every_question_on_a_scale_that_holds_them(self, client, instructor, scored_round):
        round_, q, _, _ = scored_round
        client.force_login(instructor)
        response = client.get(reverse("collector:round_quality", args=[round_.pk]))
        assert response.status_code == 200
        chart = response.context["item_map_chart"]
        quality = round_item_quality(round_=round_)
        assert sorted(row["label"] for row in chart.data) == sorted(f"#{x.pk}" for x in q)
        low, high = chart.spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
        assert low <= min(i.difficulty for i in quality.items.values())
        assert high >= max(i.difficulty for i in quality.items.values())
        assert 'id="item-quality"' in response.content.decode()

    def test_without_answers_the_page_says_so(self, client, instructor, peer_round):
        client.force_login(instructor)
        response = client.get(reverse("collector:round_quality", args=[peer_round.pk]))
        assert response.context["item_map_chart"] is None
        assert "not enough answers yet" in response.content.decode()


class ItemQualityInPersianTests:
    """The new controls and headings are translated: no English words of ours left on the pages."""

    def test_round_and_quality_pages(self, client, instructor, scored_round):
        from collector.tests.views.test_pages_fa import english_left, fa_page, user_content

        round_, q, _, _ = scored_round
        client.force_login(instructor)
        table = fa_page(client, round_url(round_) + "?sort=quality")
        assert "کیفیت، بالاترین اول" in table and "قدرت تمیز" in table
        quality = fa_page(client, reverse("collector:round_quality", args=[round_.pk]))
        assert "کیفیت پرسش‌ها" in quality and "نقشهٔ پرسش‌ها" in quality
        start = quality.rindex("<section", 0, quality.index('id="item-quality"'))
        main = quality[start:quality.index('<section class="section" aria-labelledby="coach-heading"')]
        assert not english_left(f"<main>{main}</main>", user_content(*q, extra=tuple(f"#{x.pk}" for x in q)))

    def test_validation_order_link(self, client, instructor, scored_round):
        from collector.tests.views.test_pages_fa import fa_page

        client.force_login(instructor)
        page = fa_page(client, f"{VALIDATE}?round={scored_round[0].pk}")
        assert "امیدبخش‌ترین پرسش‌ها اول" in page
