"""Reads about the projects' models in the loop: what the project page shows about its model (the
model, the latest training job, how many answered questions a training would use, the registered
QA checkpoints), and the QA models in use by any project."""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import Project, QATrainingJob, SpanQuestion, Split
from annotation.selectors.projects import project_for_owner
from core.exceptions import NotFoundError
from core.jobs import job_kind, job_progress_shown, job_stall
from modelhub.models import ModelVersion
from modelhub.progress import training_job_display


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
    def job_payload(self) -> dict | None:
        """The latest job as its progress card shows it (``qa_training_job_payload``)."""
        return qa_training_job_payload(self.job) if self.job is not None else None


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
    """A job as the project page's progress card, its socket and its status URL show it."""
    stalled = job_stall(job)
    return {"id": job.pk, "job": job_kind(job), "name": job.name, "status": job.status,
            "progress": job_progress_shown(job), "error": job.error, "stalled": bool(stalled),
            "display": training_job_display(job),
            "model_version": job.model_version.name if job.model_version_id else None,
            "urls": {"socket": f"/ws/annotation/projects/{job.project_id}/training/{job.pk}/"}}


def qa_training_job_for_owner(*, user: User, project_id: int, job_id: int) -> QATrainingJob:
    """The project's training job, for its owner (``AccessError`` otherwise, ``NotFoundError`` if none)."""
    project = project_for_owner(user=user, project_id=project_id)
    job = QATrainingJob.objects.select_related("model_version").filter(project=project, pk=job_id).first()
    if job is None:
        raise NotFoundError(_("No such training job in this project."))
    return job


def qa_model_versions_in_use() -> list[ModelVersion]:
    """The QA models of every project (the model in the loop of its workers' draft sockets)."""
    return list(ModelVersion.objects.filter(pk__in=Project.objects.exclude(qa_model=None).values("qa_model")))
