"""``apis/training.py``: training jobs over the API (queued, not trained here)."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from collector.models import TrainingJob
from collector.services.rounds import round_create
from collector.tests.factories import api_client
from courses.services import course_create

pytestmark = pytest.mark.django_db


class TrainingApiTests:
    def test_start_list_and_read_a_job(self, instructor, graded_round, closed_round):
        client = api_client(instructor)
        response = client.post(reverse("api:training_start", args=[graded_round.pk]),
                               {"name": "after-r1", "make_live_round_id": closed_round.pk}, format="json")
        assert response.status_code == 201, response.data
        job = TrainingJob.objects.get()
        assert (job.name, job.make_live_round, job.status) == ("after-r1", closed_round, "queued")
        assert client.get(reverse("api:training_job_list", args=[graded_round.pk])).json()["count"] == 1
        detail = client.get(reverse("api:training_job_detail", args=[job.pk])).json()
        assert detail["make_live_round_id"] == closed_round.pk and detail["model_version"] is None

    def test_a_running_job_shows_its_progress_but_not_its_worker(self, instructor, graded_round):
        job = TrainingJob.objects.create(round=graded_round, name="m0", status=TrainingJob.Status.RUNNING,
                                         progress={"owner": "worker-7:4242", "epoch": 1, "step": 3, "total_steps": 12})
        detail = api_client(instructor).get(reverse("api:training_job_detail", args=[job.pk])).json()
        # The worker's host:pid stays on the server, as for scoring runs and evaluation reports.
        assert detail["progress"] == {"epoch": 1, "step": 3, "total_steps": 12}
        assert detail["status"] == "running" and detail["display"]["progress"] == "Epoch 1 · step 3/12"

    def test_a_job_whose_worker_went_silent_says_it_is_stalled(self, instructor, graded_round):
        silent_since = timezone.now() - timedelta(minutes=25)
        job = TrainingJob.objects.create(round=graded_round, name="m0", status=TrainingJob.Status.RUNNING,
                                         started_at=silent_since, heartbeat_at=silent_since,
                                         progress={"epoch": 1, "step": 3, "total_steps": 12, "eta_seconds": 43})
        detail = api_client(instructor).get(reverse("api:training_job_detail", args=[job.pk])).json()
        assert detail["stalled"] is True
        assert detail["display"]["progress"] == detail["display"]["stalled"] == (
            "stalled: no worker has reported for 25 minutes")
        TrainingJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())
        fresh = api_client(instructor).get(reverse("api:training_job_detail", args=[job.pk])).json()
        assert fresh["stalled"] is False and "about 0:43 left" in fresh["display"]["progress"]

    @pytest.mark.parametrize(("body", "field"), [({}, "name"), ({"name": "bad name"}, "name"),
                                                 ({"name": "ok", "make_live_round_id": "x"}, "make_live_round_id")])
    def test_bad_input_is_400(self, instructor, graded_round, body, field):
        response = api_client(instructor).post(reverse("api:training_start", args=[graded_round.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert not TrainingJob.objects.exists()

    def test_a_name_in_training_is_refused(self, instructor, graded_round):
        client = api_client(instructor)
        url = reverse("api:training_start", args=[graded_round.pk])
        assert client.post(url, {"name": "m1"}, format="json").status_code == 201
        again = client.post(url, {"name": "m1"}, format="json")
        assert again.status_code == 400 and "already being trained" in again.data["name"][0]

    def test_live_round_of_another_course_is_refused(self, instructor, other_instructor, graded_round):
        other = round_create(course=course_create(owner=other_instructor, name="B"), name="b1")
        response = api_client(instructor).post(reverse("api:training_start", args=[graded_round.pk]),
                                              {"name": "m2", "make_live_round_id": other.pk}, format="json")
        assert response.status_code == 403 and not TrainingJob.objects.exists()

    def test_students_get_403(self, student, graded_round):
        response = api_client(student).post(reverse("api:training_start", args=[graded_round.pk]), {"name": "m3"},
                                           format="json")
        assert response.status_code == 403 and not TrainingJob.objects.exists()
