"""Reads about the projects' models in the loop: what the project page shows about its model (the
model, the latest training job, how many answered questions a training would use, the registered
QA checkpoints), and the QA models in use by any project."""
from dataclasses import dataclass

from annotation.models import Project, QATrainingJob, SpanQuestion, Split
from core.jobs import job_stall
from modelhub.models import ModelVersion


@dataclass(frozen=True)
class ModelPanel:
    model: ModelVersion | None
    job: QATrainingJob | None
    answered_train_questions: int
    checkpoints: list[ModelVersion]

    @property
    def job_active(self) -> bool:
        return self.job is not None and self.job.status in QATrainingJob.ACTIVE

    @property
    def job_stalled(self) -> str:
        """"stalled: no worker has reported for N minutes", or "" (``core.jobs.job_stall``)."""
        return job_stall(self.job) if self.job is not None else ""


def project_model_panel(*, project: Project) -> ModelPanel:
    answered = SpanQuestion.objects.filter(project=project, paragraph__article__split=Split.TRAIN,
                                           status=SpanQuestion.Status.SUBMITTED).count()
    return ModelPanel(
        model=project.qa_model,
        job=project.qa_training_jobs.select_related("model_version").first(),
        answered_train_questions=answered,
        checkpoints=list(ModelVersion.objects.filter(kind=ModelVersion.Kind.QUESTION_ANSWERING).order_by("name")),
    )


def qa_training_job_payload(job: QATrainingJob) -> dict:
    """A job as the project page's progress bar reads it."""
    stalled = job_stall(job)
    return {"id": job.pk, "name": job.name, "status": job.status, "progress": job.progress, "error": job.error,
            "stalled": bool(stalled), "display": {"stalled": stalled},
            "model_version": job.model_version.name if job.model_version_id else None}


def qa_model_versions_in_use() -> list[ModelVersion]:
    """The QA models of every project (the model in the loop of its workers' draft sockets)."""
    return list(ModelVersion.objects.filter(pk__in=Project.objects.exclude(qa_model=None).values("qa_model")))
