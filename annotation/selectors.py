"""Reads of the annotation app: access checks, the work queues, a session's contents.

Access rules live here: they raise ``AccessError`` (a ``PermissionDenied``) with a message
for the person. Project owners (and staff) manage a project; crowdworkers and instructors
annotate in active projects.
"""
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.i18n import LANGUAGE_NAMES
from annotation.invite_selectors import is_member, is_member_anywhere, projects_visible_to_worker, worker_may_enter
from annotation.models import (
    AnnotationSession,
    Paragraph,
    Project,
    QuestionFlag,
    SecondPassAnswer,
    SpanQuestion,
    Split,
)
from core.exceptions import AccessError
from modelhub.models import ModelVersion

Kind = AnnotationSession.Kind
SECOND_PASS_SPLITS = (Split.VALIDATION, Split.TEST)


def can_annotate(user: User) -> bool:
    """Crowdworkers and instructors annotate in any project open to them."""
    return user.is_authenticated and (user.role == User.Role.CROWDWORKER or user.is_instructor)


def can_annotate_in(user: User, project: Project) -> bool:
    """``can_annotate``, or a student who is a member of ``project`` (an LMS assignment of it made them one)."""
    return can_annotate(user) or is_member(user=user, project=project)


def can_manage(user: User, project: Project) -> bool:
    return user.is_authenticated and (project.owner_id == user.pk or user.is_staff or user.is_superuser)


def project_get(*, project_id: int) -> Project:
    project = Project.objects.select_related("owner", "qa_model").filter(pk=project_id).first()
    if project is None:
        raise AccessError(_("There is no such annotation project."))
    return project


def project_by_name(*, name: str) -> Project:
    project = Project.objects.select_related("owner", "qa_model").filter(name=name).first()
    if project is None:
        raise AccessError(_("There is no annotation project called %(name)s.") % {"name": repr(name)})
    return project


def project_for_owner(*, user: User, project_id: int) -> Project:
    project = project_get(project_id=project_id)
    if not can_manage(user, project):
        raise AccessError(_("Only the project's owner can manage this project."))
    return project


def projects_of_owner(*, user: User) -> QuerySet[Project]:
    projects = Project.objects.select_related("owner", "qa_model")
    if not (user.is_staff or user.is_superuser):
        projects = projects.filter(owner=user)
    return projects.annotate(n_paragraphs=Count("articles__paragraphs", distinct=True)).order_by("name")


def projects_for_instructor(*, user: User) -> QuerySet[Project]:
    """``projects_of_owner`` for an instructor (or staff); anyone else is refused, as on the page."""
    if not user.is_instructor:
        raise AccessError(_("Only instructors (project owners) manage annotation projects."))
    return projects_of_owner(user=user)


def project_for_worker(*, user: User, project_id: int) -> Project:
    if not can_annotate(user) and not is_member_anywhere(user=user):
        raise AccessError(_("Only crowdworkers and instructors annotate paragraphs."))
    project = project_get(project_id=project_id)
    if not can_annotate_in(user, project):
        raise AccessError(_("Students annotate only in the projects their course's LMS assignments open to them."))
    if not project.is_active and not can_manage(user, project):
        raise AccessError(_("This project is not taking annotations at the moment."))
    if not worker_may_enter(user=user, project=project):
        raise AccessError(_("This project is open to invited crowdworkers only: join it with the invite link "
                            "its owner sent you."))
    return project


def project_languages(*, session_id: int | None = None, question_id: int | None = None,
                      project_id: int | None = None) -> list[str]:
    """The language of the project a worker's session, question or project id belongs to ([] if none),
    read before any access check: a refusal is worded in the language of the page too."""
    if session_id is not None:
        projects = Project.objects.filter(articles__paragraphs__sessions__pk=session_id)
    elif question_id is not None:
        projects = Project.objects.filter(questions__pk=question_id)
    elif project_id is not None:
        projects = Project.objects.filter(pk=project_id)
    else:
        return []
    return list(projects.values_list("language", flat=True)[:1])


def session_for_worker(*, user: User, session_id: int) -> AnnotationSession:
    session = (
        AnnotationSession.objects.select_related("paragraph__article__project__qa_model", "worker")
        .filter(pk=session_id).first()
    )
    if session is None or session.worker_id != user.pk:
        raise AccessError(_("This annotation task is not yours."))
    return session


def session_in_progress(*, user: User, project: Project, kind: str) -> AnnotationSession | None:
    return (
        AnnotationSession.objects.select_related("paragraph__article__project")
        .filter(worker=user, kind=kind, status=AnnotationSession.Status.IN_PROGRESS,
                paragraph__article__project=project)
        .order_by("started_at").first()
    )


def _lease_cutoff():
    return timezone.now() - timedelta(minutes=settings.STUMPER_ANNOTATION_LEASE_MINUTES)


def _not_done_by(user: User, kind: str) -> Exists:
    return Exists(AnnotationSession.objects.filter(paragraph=OuterRef("pk"), worker=user, kind=kind))


def paragraphs_needing_questions(*, project: Project, user: User) -> QuerySet[Paragraph]:
    """Open paragraphs this worker never had, with fewer than ``overlap`` workers on them.

    Ordered as imported: by the article's PageRank rank, then paragraph position. A session
    left in progress past the lease no longer holds its paragraph.
    """
    held = Q(sessions__kind=Kind.AUTHORING) & (
        Q(sessions__status=AnnotationSession.Status.SUBMITTED)
        | Q(sessions__status=AnnotationSession.Status.IN_PROGRESS, sessions__started_at__gte=_lease_cutoff())
    )
    return (
        Paragraph.objects.select_related("article")
        .filter(article__project=project, status=Paragraph.Status.OPEN)
        .exclude(_not_done_by(user, Kind.AUTHORING))
        .annotate(n_held=Count("sessions", filter=held))
        .filter(n_held__lt=project.overlap)
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position", "id")
    )


def questions_needing_answers(*, project: Project, user: User) -> QuerySet[SpanQuestion]:
    """Submitted validation/test questions of others with fewer than ``second_pass_answers`` extra answers."""
    return (
        SpanQuestion.objects.filter(project=project, status=SpanQuestion.Status.SUBMITTED,
                                    paragraph__article__split__in=SECOND_PASS_SPLITS)
        .exclude(author=user)
        .annotate(n_second=Count("second_pass_answers"))
        .filter(n_second__lt=project.second_pass_answers)
    )


def paragraphs_needing_second_pass(*, project: Project, user: User) -> QuerySet[Paragraph]:
    if project.second_pass_answers == 0:
        return Paragraph.objects.none()
    wanted = questions_needing_answers(project=project, user=user).filter(paragraph=OuterRef("pk"))
    return (
        Paragraph.objects.select_related("article")
        .filter(article__project=project, article__split__in=SECOND_PASS_SPLITS)
        .exclude(status=Paragraph.Status.DISCARDED)
        .exclude(_not_done_by(user, Kind.SECOND_PASS))
        .filter(Exists(wanted))
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position", "id")
    )


@dataclass(frozen=True)
class ProjectTasks:
    """What a worker can do in one project (for the task list)."""

    project: Project
    authoring_left: int
    second_pass_left: int
    resume_authoring: AnnotationSession | None
    resume_second_pass: AnnotationSession | None

    @property
    def language_label(self) -> str:
        return str(LANGUAGE_NAMES[self.project.language])


def projects_for_worker(*, user: User) -> list[ProjectTasks]:
    out = []
    for project in projects_visible_to_worker(user=user).select_related("qa_model").order_by("name"):
        out.append(ProjectTasks(
            project=project,
            authoring_left=paragraphs_needing_questions(project=project, user=user).count(),
            second_pass_left=paragraphs_needing_second_pass(project=project, user=user).count(),
            resume_authoring=session_in_progress(user=user, project=project, kind=Kind.AUTHORING),
            resume_second_pass=session_in_progress(user=user, project=project, kind=Kind.SECOND_PASS),
        ))
    return out


def session_questions(*, session: AnnotationSession) -> QuerySet[SpanQuestion]:
    """The questions a worker wrote in an authoring session, with their answers."""
    return (
        session.questions.exclude(status=SpanQuestion.Status.REMOVED)
        .select_related("qa_model_version").prefetch_related("answers").order_by("position", "id")
    )


def paragraph_question_texts(*, paragraph: Paragraph, session: AnnotationSession | None,
                             exclude_id: int | None = None) -> list[str]:
    """Questions already on the paragraph: submitted ones and this session's drafts."""
    mine = Q(session=session) if session is not None else Q(pk__in=[])
    questions = paragraph.questions.filter(Q(status=SpanQuestion.Status.SUBMITTED) | (mine & Q(status=SpanQuestion.Status.DRAFT)))
    if exclude_id is not None:
        questions = questions.exclude(pk=exclude_id)
    return list(questions.values_list("question", flat=True))


def second_pass_questions(*, session: AnnotationSession) -> QuerySet[SpanQuestion]:
    """The paragraph's questions this second-pass worker answers (never their own)."""
    return (
        SpanQuestion.objects.filter(paragraph=session.paragraph_id, status=SpanQuestion.Status.SUBMITTED)
        .exclude(author=session.worker_id).order_by("position", "id")
    )


def second_pass_answers_of(*, session: AnnotationSession) -> dict[int, SecondPassAnswer]:
    return {a.question_id: a for a in SecondPassAnswer.objects.filter(session=session)}


def flags_of_session(*, session: AnnotationSession) -> dict[int, QuestionFlag]:
    return {f.question_id: f for f in QuestionFlag.objects.filter(session=session)}


def question_for_worker(*, user: User, question_id: int) -> SpanQuestion:
    question = (
        SpanQuestion.objects.select_related("session", "paragraph__article__project__qa_model")
        .filter(pk=question_id).first()
    )
    if question is None or question.session is None or question.session.worker_id != user.pk:
        raise AccessError(_("This question is not yours."))
    return question


def flags_of_project(*, project: Project, status: str | None = QuestionFlag.Status.OPEN) -> QuerySet[QuestionFlag]:
    flags = QuestionFlag.objects.filter(question__project=project).select_related(
        "question__paragraph__article", "raised_by", "resolved_by"
    ).prefetch_related("question__answers")
    return flags.filter(status=status) if status else flags


def flag_for_owner(*, user: User, flag_id: int) -> QuestionFlag:
    flag = QuestionFlag.objects.select_related("question__project", "question__paragraph").filter(pk=flag_id).first()
    if flag is None or not can_manage(user, flag.question.project):
        raise AccessError(_("Only the project's owner resolves its flags."))
    return flag


def paragraphs_of_project(*, project: Project, status: str = "", split: str = "") -> QuerySet[Paragraph]:
    paragraphs = (
        Paragraph.objects.filter(article__project=project).select_related("article")
        .annotate(n_questions=Count("questions", filter=Q(questions__status=SpanQuestion.Status.SUBMITTED)))
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position")
    )
    if status:
        paragraphs = paragraphs.filter(status=status)
    if split:
        paragraphs = paragraphs.filter(article__split=split)
    return paragraphs


def paragraph_for_owner(*, user: User, paragraph_id: int) -> Paragraph:
    paragraph = Paragraph.objects.select_related("article__project").filter(pk=paragraph_id).first()
    if paragraph is None or not can_manage(user, paragraph.article.project):
        raise AccessError(_("Only the project's owner manages its paragraphs."))
    return paragraph


def qa_model_versions_in_use() -> list[ModelVersion]:
    """The QA models of every project (the model in the loop of its workers' draft sockets)."""
    return list(ModelVersion.objects.filter(pk__in=Project.objects.exclude(qa_model=None).values("qa_model")))
