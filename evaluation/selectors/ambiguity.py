"""Read-only queries of the ambiguity probes: QA model versions and a project's passages."""
from __future__ import annotations

from annotation.models import Paragraph, Project
from annotation.selectors import projects as annotation_project_selectors
from annotation.selectors.reviews import paragraphs_of_project
from mlcore.bias.retrieval import Passage
from modelhub.models import ModelVersion


def model_version_by_name(*, name: str) -> ModelVersion | None:
    """The registered model called ``name`` (any kind), or ``None``."""
    return ModelVersion.objects.filter(name=name).first()


def project_by_name(*, name: str) -> Project:
    """The annotation project called ``name``; AccessError with a readable message if there is none."""
    return annotation_project_selectors.project_by_name(name=name)


def project_passages(*, project: Project) -> list[Passage]:
    """Every paragraph of the project that is not discarded, in the project's reading order.

    The article title names the passage's subject (the page a Wikipedia paragraph comes from).
    """
    paragraphs = paragraphs_of_project(project=project).exclude(
        status=Paragraph.Status.DISCARDED
    )
    return [Passage(p.pk, p.article.title, p.context) for p in paragraphs]

