"""Writes on projects and paragraphs by their owner."""
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from annotation.models import AnnotationSession, Paragraph, Project
from annotation.selectors.projects import can_manage
from core.exceptions import AccessError
from modelhub.models import ModelVersion

# Settings an owner may change after creation (the language is fixed: it decides normalisation).
EDITABLE_FIELDS = (
    "instructions", "is_active", "questions_min", "questions_max", "minutes_per_paragraph", "overlap",
    "second_pass_answers", "qa_model", "fool_f1_threshold", "pagerank_damping", "top_articles",
    "paragraphs_per_article", "paragraph_min_chars", "paragraph_max_chars", "train_ratio",
    "validation_ratio", "test_ratio", "split_seed",
)


def _check_qa_model(model: ModelVersion | None) -> None:
    if model is not None and model.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValidationError({"qa_model": f"{model.name} is not an extractive question-answering model."})


@transaction.atomic
def project_create(*, owner: User, name: str, language: str = "en", **fields) -> Project:
    """Create a project owned by ``owner`` (an instructor or staff); ``fields`` are settings."""
    if not owner.is_instructor:
        raise AccessError("Only instructors (project owners) create annotation projects.")
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({"__all__": f"Unknown project setting(s): {', '.join(sorted(unknown))}."})
    _check_qa_model(fields.get("qa_model"))
    project = Project(owner=owner, name=(name or "").strip(), language=language, **fields)
    project.full_clean()
    project.save()
    return project


@transaction.atomic
def project_update(*, project: Project, user: User, **fields) -> Project:
    """Change a project's settings; all-or-nothing."""
    if not can_manage(user, project):
        raise AccessError("Only the project's owner can change its settings.")
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({"__all__": f"Unknown project setting(s): {', '.join(sorted(unknown))}."})
    _check_qa_model(fields.get("qa_model"))
    project = Project.objects.select_for_update().get(pk=project.pk)
    for name, value in fields.items():
        setattr(project, name, value)
    project.full_clean()
    project.save()
    return project


def paragraph_refresh_status(*, paragraph: Paragraph) -> Paragraph:
    """``done`` once ``overlap`` workers submitted questions on it, else ``open`` (discarded stays)."""
    if paragraph.status == Paragraph.Status.DISCARDED:
        return paragraph
    project = paragraph.article.project
    submitted = paragraph.sessions.filter(
        kind=AnnotationSession.Kind.AUTHORING, status=AnnotationSession.Status.SUBMITTED
    ).count()
    has_imported = paragraph.questions.filter(source="imported").exists()
    status = Paragraph.Status.DONE if submitted >= project.overlap or has_imported else Paragraph.Status.OPEN
    if status != paragraph.status:
        Paragraph.objects.filter(pk=paragraph.pk).update(status=status)
        paragraph.status = status
    return paragraph
