"""``apis/imports.py``: CODAH import over the API, as the import_codah command, with JSON errors."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from collector.models import Question
from collector.services.rounds import round_create
from collector.tests.factories import GOOD_ROWS, api_client, tsv

pytestmark = pytest.mark.django_db


GOOD_TSV = tsv(GOOD_ROWS)




def upload(text: str | bytes, name: str = "questions.tsv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8") if isinstance(text, str) else text)


class RoundImportApiTests:
    def url(self, round_) -> str:
        return reverse("api:round_import", args=[round_.pk])

    def test_imports_every_row_as_the_owner(self, instructor, course):
        round_ = round_create(course=course, name="all-categories")
        response = api_client(instructor).post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert response.status_code == 201, response.data
        assert response.data["imported"] == 8 and len(response.data["question_ids"]) == 8
        assert set(Question.objects.values_list("author__username", "source", "status")) == {
            ("prof", "imported", "accepted")}
        round_.refresh_from_db()  # CODAH and its license unless the upload names another source
        assert (round_.source_dataset, round_.source_license) == ("codah", "odc-by")

    def test_the_upload_can_name_another_source_or_none(self, instructor, course):
        named, unnamed = round_create(course=course, name="named"), round_create(course=course, name="unnamed")
        client = api_client(instructor)
        response = client.post(self.url(named), {"file": upload(GOOD_TSV), "source_dataset": "my-lab/quiz",
                                                 "source_license": "cc-by-4.0"}, format="multipart")
        assert response.status_code == 201, response.data
        assert client.post(self.url(unnamed), {"file": upload(GOOD_TSV), "source_dataset": ""},
                           format="multipart").status_code == 201
        bad = client.post(self.url(unnamed), {"file": upload(GOOD_TSV), "source_dataset": "my-lab/x"}, format="multipart")
        assert bad.status_code == 400 and "Give the license of my-lab/x" in bad.data["file"][0]
        named.refresh_from_db(), unnamed.refresh_from_db()
        assert [(r.source_dataset, r.source_license) for r in (named, unnamed)] == [("my-lab/quiz", "cc-by-4.0"),
                                                                                   ("", "")]
        assert Question.objects.count() == 16

    def test_a_bad_row_imports_nothing_and_names_its_line(self, instructor, round_):
        text = GOOD_TSV.replace("had three apples left.", "")
        response = api_client(instructor).post(self.url(round_), {"file": upload(text)}, format="multipart")
        assert response.status_code == 400
        assert response.data["file"][0].startswith("line 1: ") and response.data["file"][-1] == "Nothing was imported."
        assert not Question.objects.exists()

    def test_limits_and_encoding(self, instructor, round_, settings):
        settings.STUMPER_IMPORT_MAX_ROWS, settings.STUMPER_IMPORT_MAX_BYTES = 3, 2000
        client = api_client(instructor)
        too_many = client.post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert too_many.status_code == 400 and "at most 3" in too_many.data["file"][0]
        too_big = client.post(self.url(round_), {"file": upload(GOOD_TSV * 4)}, format="multipart")
        assert too_big.status_code == 400 and "larger than 2,000 bytes" in too_big.data["file"][0]
        latin1 = client.post(self.url(round_), {"file": upload("q\tCaf\xe9\n".encode("latin-1"))}, format="multipart")
        assert latin1.status_code == 400 and "UTF-8" in latin1.data["file"][0]
        assert client.post(self.url(round_), {}, format="multipart").status_code == 400
        assert not Question.objects.exists()

    def test_other_instructors_get_403(self, other_instructor, round_):
        response = api_client(other_instructor).post(self.url(round_), {"file": upload(GOOD_TSV)}, format="multipart")
        assert response.status_code == 403 and not Question.objects.exists()
