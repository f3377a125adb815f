"""``views/training.py``: the round page's "Train a new live model" button."""
from unittest import mock

import pytest

from collector.models import TrainingJob
from collector.services.rounds import round_create
from collector.tests.factories import messages_of, round_page_url
from courses.services import course_create
from modelhub.services import model_version_default, model_version_register


@pytest.mark.django_db
class ModelTrainTests:
    def test_queues_the_training(self, client, instructor, round_, course, five_questions, django_capture_on_commit_callbacks):
        next_round = round_create(course=course, name="r2", title="Round two")
        client.force_login(instructor)
        with mock.patch("collector.tasks.training_job_run_task.delay") as delay, \
                django_capture_on_commit_callbacks(execute=True):
            response = client.post(round_page_url("round_model_train", round_), {"name": "after-r1", "make_live_round": next_round.pk},
                                   follow=True)
        job = TrainingJob.objects.get()
        delay.assert_called_once_with(job.pk)
        assert (job.round, job.make_live_round, job.created_by) == (round_, next_round, instructor)
        page = response.content.decode()
        assert "after-r1" in page and "Waiting for a worker to start it." in page
        assert "Training of model “after-r1” on all questions so far is queued" in messages_of(response)[0]
        assert "live model of round Round two" in messages_of(response)[0]

    @pytest.mark.parametrize(
        ("name", "message"),
        [("v0-minilm-zero-shot", "already registered"), ("mc-existing", "already exists; choose a new name"),
         ("has space", "no spaces"), ("", "This field is required.")],
    )
    def test_refusals(self, client, instructor, round_, five_questions, name, message):
        model_version_default()
        model_version_register(name="mc-existing", kind="multiple_choice", path="/models/mc-existing")
        client.force_login(instructor)
        with mock.patch("collector.tasks.training_job_run_task.delay") as delay:
            response = client.post(round_page_url("round_model_train", round_), {"name": name}, follow=True)
        assert message in messages_of(response)[0] and not delay.called

    def test_no_questions_and_foreign_round(self, client, instructor, other_instructor, round_):
        other_course = course_create(owner=other_instructor, name="Other")
        other_round = round_create(course=other_course, name="elsewhere")
        client.force_login(instructor)
        response = client.post(round_page_url("round_model_train", round_), {"name": "m1"}, follow=True)
        assert "has no questions to train on yet" in messages_of(response)[0]
        response = client.post(round_page_url("round_model_train", round_), {"name": "m1", "make_live_round": other_round.pk}, follow=True)
        assert "Select a valid choice" in messages_of(response)[0]
