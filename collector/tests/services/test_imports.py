"""``services/imports.py``: importing CODAH TSV files, all rows or none."""
import pytest

from collector.models import Question
from collector.services.imports import codah_import
from core.exceptions import ImportFailed

GOOD_ROWS = "i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n\tShe smiled. She\tfrowned.\tgrinned.\twept.\tslept.\t1\n"


@pytest.mark.django_db
def test_codah_import_maps_categories_and_empty_to_other(open_round, instructor):
    questions = codah_import(round_=open_round, text=GOOD_ROWS, author=instructor)
    assert [q.categories for q in questions] == [["idioms"], ["other"]]
    assert Question.objects.filter(source="imported").count() == 2


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
