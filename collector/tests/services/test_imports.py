"""``services/imports.py``: importing CODAH TSV files, all rows or none."""
import pytest

from collector.models import Question
from collector.services.imports import codah_import
from core.exceptions import ImportFailed

GOOD_ROWS = "i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n\tShe smiled. She\tfrowned.\tgrinned.\twept.\tslept.\t1\n"


@pytest.mark.django_db
def test_codah_import_maps_categories_and_keeps_a_row_without_one_uncategorised(open_round, instructor):
    """CODAH's 10 rows with an empty code are not ``other`` (its 2,080 rows coded ``o``)."""
    questions = codah_import(round_=open_round, text=GOOD_ROWS, author=instructor)
    assert [q.categories for q in questions] == [["idioms"], []]
    assert [q.categories for q in Question.objects.filter(source="imported").order_by("pk")] == [["idioms"], []]


@pytest.mark.django_db
def test_codah_import_records_the_source_dataset_and_its_license_on_the_round(open_round, instructor):
    codah_import(round_=open_round, text=GOOD_ROWS, author=instructor, source_dataset="codah")
    open_round.refresh_from_db()
    assert (open_round.source_dataset, open_round.source_license) == ("codah", "odc-by")
    # The same source again is fine; another one would leave the round's release unable to name one.
    codah_import(round_=open_round, text=GOOD_ROWS.replace("He kicked", "He kicks"), author=instructor,
                 source_dataset="codah", source_license="odc-by")
    with pytest.raises(ImportFailed, match="already holds questions imported from codah"):
        codah_import(round_=open_round, text=GOOD_ROWS, author=instructor, source_dataset="my-lab/quiz",
                     source_license="mit")
    assert Question.objects.count() == 4


@pytest.mark.django_db
@pytest.mark.parametrize("dataset, license_id, message", [
    ("my-lab/quiz", "", "Give the license of my-lab/quiz"), ("codah", "odc", "Unknown license 'odc'"),
    ("not a dataset id", "mit", "Invalid source dataset"),
])
def test_codah_import_refuses_a_source_it_cannot_record_and_stores_nothing(open_round, instructor, dataset,
                                                                            license_id, message):
    with pytest.raises(ImportFailed, match=message):
        codah_import(round_=open_round, text=GOOD_ROWS, author=instructor, source_dataset=dataset,
                     source_license=license_id)
    open_round.refresh_from_db()
    assert Question.objects.count() == 0 and open_round.source_dataset == ""


@pytest.mark.django_db
def test_codah_import_without_a_source_records_nothing(open_round, instructor):
    codah_import(round_=open_round, text=GOOD_ROWS, author=instructor)
    open_round.refresh_from_db()
    assert (open_round.source_dataset, open_round.source_license) == ("", "")


@pytest.mark.django_db
def test_codah_import_is_all_or_nothing(open_round, instructor):
    bad = GOOD_ROWS + "o\tBroken row\tonly\tthree\t0\n"
    with pytest.raises(ImportFailed) as caught:
        codah_import(round_=open_round, text=bad, author=instructor)
    assert caught.value.errors[0][0] == 3
    assert Question.objects.count() == 0


@pytest.mark.django_db
def test_codah_import_reports_file_lines_past_blank_lines(open_round, instructor):
    open_round.categories = ["other"]
    open_round.save()
    text = "o\tA. He\tb.\tc.\td.\te.\t0\n\n\ni\tF. She\tg.\th.\ti.\tj.\t1\n"
    with pytest.raises(ImportFailed) as caught:
        codah_import(round_=open_round, text=text, author=instructor)
    assert caught.value.errors == [(4, "category 'idioms' is not offered in round round-1")]


@pytest.mark.django_db
def test_codah_import_of_repeated_completions_needs_the_flag(open_round, instructor):
    text = "o\tA. He\tb.\tb.\td.\te.\t0\n"
    with pytest.raises(ImportFailed):
        codah_import(round_=open_round, text=text, author=instructor)
    assert len(codah_import(round_=open_round, text=text, author=instructor, allow_duplicate_choices=True)) == 1
