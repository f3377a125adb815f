"""A model in the loop for a project: a training job on its answered questions, or a checkpoint."""
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from annotation.models import QATrainingJob
from annotation.services.qa_models import (
    project_answered_questions,
    project_checkpoint_use,
    qa_training_job_run,
    qa_training_job_start,
)
from modelhub.models import ModelVersion

pytestmark = pytest.mark.django_db


class QATrainingJobTests:
    def test_a_job_trains_on_the_answered_questions_and_puts_the_model_in_the_loop(
            self, project, train_paragraph, owner, tiny_qa_dir, settings, tmp_path):
        settings.STUMPER_MODEL_DIR = tmp_path / "models"
        settings.STUMPER_BASE_CHECKPOINT = str(tiny_qa_dir)
        assert len(project_answered_questions(project=project)) == 3
        job = qa_training_job_start(project=project, name="nile-qa-1", user=owner)
        assert job.status == "queued" and job.progress == {"stage": "queued"}
        with pytest.raises(ValidationError, match="already being trained"):
            qa_training_job_start(project=project, name="nile-qa-2", user=owner)

        job = qa_training_job_run(job_id=job.pk)
        assert job.status == "done" and job.error == ""
        assert job.progress["stage"] == "done" and job.progress["step"] == job.progress["total_steps"] > 0
        version = job.model_version
        assert version.kind == "question_answering" and Path(version.path, "config.json").is_file()
        assert version.metrics["train_questions"] == 3
        project.refresh_from_db()
        assert project.qa_model == version
        # A second delivery of the task does not train again.
        assert qa_training_job_run(job_id=job.pk).finished_at == job.finished_at

    def test_refused_without_answered_questions_or_with_a_taken_name(self, project, qa_version):
        with pytest.raises(ValidationError, match="no answered train questions"):
            qa_training_job_start(project=project, name="fresh")
        with pytest.raises(ValidationError, match="already exists"):
            qa_training_job_start(project=project, name=qa_version.name)
        assert not QATrainingJob.objects.exists()

    def test_a_failure_is_stored_on_the_job(self, project, train_paragraph, settings, tmp_path):
        settings.STUMPER_BASE_CHECKPOINT = str(tmp_path / "no-such-checkpoint")
        job = qa_training_job_run(job_id=qa_training_job_start(project=project, name="broken").pk)
        assert job.status == "failed" and job.error and not ModelVersion.objects.filter(name="broken").exists()


class CheckpointTests:
    def test_a_folder_a_registered_name_and_bad_sources(self, project, tiny_qa_dir, qa_version):
        version = project_checkpoint_use(project=project, source=str(tiny_qa_dir) + "/", name="tiny-folder")
        assert version == qa_version  # the folder was registered already: the same version
        project.refresh_from_db()
        assert project.qa_model == qa_version
        assert project_checkpoint_use(project=project, source="tiny-qa") == qa_version
        with pytest.raises(ValidationError, match="neither a registered model"):
            project_checkpoint_use(project=project, source="/no/such/folder")
        with pytest.raises(ValidationError, match="neither a registered model"):
            project_checkpoint_use(project=project, source="nobody/not-cached-here")

    def test_a_new_folder_is_registered(self, project, tiny_qa_dir, tmp_path):
        import shutil

        copy = shutil.copytree(tiny_qa_dir, tmp_path / "copy")
        version = project_checkpoint_use(project=project, source=str(copy), name="my-qa")
        assert (version.name, version.path, version.kind) == ("my-qa", str(copy), "question_answering")
