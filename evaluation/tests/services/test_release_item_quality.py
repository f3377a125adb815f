"""The ``item_quality`` release field: each question's IRT quality, difficulty and discrimination
(``collector.selectors.item_quality``), for rounds only."""
import pytest

from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_export, release_options_clean
from evaluation.tests.factories import load_release, span_project

pytestmark = pytest.mark.django_db


def test_rows_carry_the_rounds_item_quality(tmp_path, release_round):
    from collector.selectors.item_quality import round_item_quality

    out = tmp_path / "release"
    release_export(out_dir=out, options=release_options_clean(fields="item_quality"), round_=release_round)
    loaded = load_release(out)
    quality = round_item_quality(round_=release_round)
    assert quality.ready
    rows = [row for split in loaded for row in loaded[split]]
    assert rows and {"quality", "difficulty", "discrimination"} <= set(loaded["train"].features)
    for row in rows:
        item = quality.get(row["id"])
        assert row["quality"] == pytest.approx(item.quality, abs=1e-4)
        assert row["difficulty"] == pytest.approx(item.difficulty, abs=1e-4)
        assert row["discrimination"] == pytest.approx(item.discrimination, abs=1e-4)


def test_span_projects_refuse_it(tmp_path, instructor):
    project = span_project(instructor)
    with pytest.raises(ReleaseError, match="item_quality is a field of rounds"):
        release_export(out_dir=tmp_path / "x", options=release_options_clean(fields="item_quality"), project=project)
    assert list(tmp_path.iterdir()) == []
