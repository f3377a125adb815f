"""A report's table as CSV over the API, as the report page's download gives it."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from evaluation.models import EvaluationRun

pytestmark = pytest.mark.django_db
TABLE = {"columns": ["feature", "z", "note"], "rows": [["gladly", 3.5, None], ["=SUM(A1)", -1.0, "x"]]}


@pytest.fixture
def run(round_):
    return EvaluationRun.objects.create(target="round", round=round_, status="done",
                                        result={"lexical": {"tables": {"top_features": TABLE}}})


def url(run, section="lexical", table="top_features") -> str:
    return reverse("evaluation_api:run_table_csv", args=[run.pk, section, table])


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class EvaluationRunTableCsvApiTests:
    def test_the_table_as_csv_like_the_page(self, instructor, run, client):
        response = client_of(instructor).get(url(run))
        assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
        assert response.content.decode() == "feature,z,note\ngladly,3.5,\n'=SUM(A1),-1.0,x\n"  # no formula runs
        client.force_login(instructor)
        page = client.get(reverse("evaluation:run_table_csv", args=[run.pk, "lexical", "top_features"]))
        assert page.content == response.content

    @pytest.mark.parametrize(("section", "table"), [("lexical", "weights"), ("accuracy", "top_features")])
    def test_a_missing_table_is_404(self, instructor, run, section, table):
        response = client_of(instructor).get(url(run, section, table))
        assert response.status_code == 404 and "has no table" in response.json()["detail"]

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, run, who, request):
        assert client_of(request.getfixturevalue(who)).get(url(run)).status_code == 403
