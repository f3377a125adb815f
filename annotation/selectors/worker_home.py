"""A worker's home (the task list): the projects they can work in with the work left in each, and
what they have done in a project: counts, time, review states.

A submitted paragraph's state comes from the project owner's review of the second pass's flags
on its questions: ``review`` while a flag waits for the owner, ``corrected`` once the owner
accepted one (a question was changed or removed), otherwise ``accepted``.
"""
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, QuerySet, Sum

from accounts.models import User
from annotation.i18n import LANGUAGE_NAMES
from annotation.models import AnnotationSession, Project, QuestionFlag, SpanQuestion
from annotation.selectors.authoring import paragraphs_needing_questions, session_in_progress
from annotation.selectors.invites import projects_visible_to_worker
from annotation.selectors.second_pass import paragraphs_needing_second_pass

Kind, Status = AnnotationSession.Kind, AnnotationSession.Status


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


def projects_for_worker(*, user: User, language: str | None = None) -> list[ProjectTasks]:
    """The projects ``user`` can work in, those in the language they work in first, then by name.

    The language they work in is their projects' one language (:func:`worker_projects_language`:
    those they worked in or joined), else ``language`` (the page's: the one they chose, else the
    browser's), so a worker who works in English is offered the English projects first.
    """
    preferred = worker_projects_language(user=user) or language
    projects = projects_visible_to_worker(user=user).select_related("qa_model").order_by("name")
    out = []
    for project in sorted(projects, key=lambda project: project.language != preferred):  # stable: by name within
        out.append(ProjectTasks(
            project=project,
            authoring_left=paragraphs_needing_questions(project=project, user=user).count(),
            second_pass_left=paragraphs_needing_second_pass(project=project, user=user).count(),
            resume_authoring=session_in_progress(user=user, project=project, kind=Kind.AUTHORING),
            resume_second_pass=session_in_progress(user=user, project=project, kind=Kind.SECOND_PASS),
        ))
    return out


@dataclass(frozen=True)
class FinishedParagraph:
    session_id: int
    title: str
    kind: str
    submitted_at: datetime | None
    active_seconds: int
    questions: int
    open_flags: int
    accepted_flags: int
    state: str  # review | corrected | accepted | discarded


@dataclass(frozen=True)
class WorkerProgress:
    authored: int
    answered: int
    discarded: int
    active_seconds: int
    recent: list[FinishedParagraph]

    @property
    def completed(self) -> int:
        return self.authored + self.answered


def _state(session: AnnotationSession) -> str:
    if session.status == Status.DISCARDED:
        return "discarded"
    if session.open_flags:
        return "review"
    return "corrected" if session.accepted_flags else "accepted"


def _flags(status: str) -> Count:
    """Flags of one status that matter to a session: on its worker's questions (authoring) or
    raised by its worker (second pass)."""
    on_my_questions = Q(questions__flags__isnull=False) & ~Q(kind=Kind.SECOND_PASS)
    return (Count("questions__flags", distinct=True, filter=on_my_questions & Q(questions__flags__status=status))
            + Count("flags", distinct=True, filter=Q(flags__status=status)))


def _with_flag_counts(sessions: QuerySet[AnnotationSession]) -> QuerySet[AnnotationSession]:
    return sessions.annotate(open_flags=_flags(QuestionFlag.Status.OPEN),
                             accepted_flags=_flags(QuestionFlag.Status.ACCEPTED))


def worker_paragraphs_accepted(*, user: User, project: Project) -> int:
    """Paragraphs ``user`` finished in ``project`` (wrote its questions, or answered others' in the
    second pass) that no open flag holds in review: the task list's "accepted" and "corrected" ones.

    The project's measure of a worker's accepted work (an LMS gradebook gets it as points)."""
    finished = AnnotationSession.objects.filter(worker=user, paragraph__article__project=project,
                                                status=Status.SUBMITTED)
    return _with_flag_counts(finished).filter(open_flags=0).count()


def paragraphs_finished_counts(*, project_ids: list[int], user_ids: list[int]) -> dict[int, int]:
    """How many paragraphs each of ``user_ids`` finished (submitted) in these projects (absent: none), in one query."""
    rows = (AnnotationSession.objects.filter(paragraph__article__project_id__in=project_ids, worker_id__in=user_ids,
                                             status=Status.SUBMITTED)
            .values("worker_id").annotate(n=Count("pk")).values_list("worker_id", "n"))
    return dict(rows)


def worker_progress(*, user: User, project: Project, recent: int = 5) -> WorkerProgress:
    """Paragraphs ``user`` finished in ``project`` (counts, time on them) and the latest ``recent``."""
    sessions = AnnotationSession.objects.filter(worker=user, paragraph__article__project=project)
    totals = sessions.aggregate(
        authored=Count("pk", filter=Q(kind=Kind.AUTHORING, status=Status.SUBMITTED)),
        answered=Count("pk", filter=Q(kind=Kind.SECOND_PASS, status=Status.SUBMITTED)),
        discarded=Count("pk", filter=Q(status=Status.DISCARDED)),
        seconds=Sum("active_seconds"),
    )
    finished = (
        _with_flag_counts(sessions.exclude(status=Status.IN_PROGRESS)).select_related("paragraph__article")
        .annotate(
            n_questions=Count("questions", distinct=True, filter=~Q(questions__status=SpanQuestion.Status.REMOVED))
            + Count("second_pass_answers", distinct=True),  # written, or answered in the second pass
        )
        .order_by("-submitted_at", "-started_at")[:recent]
    )
    rows = [FinishedParagraph(session_id=s.pk, title=s.paragraph.article.title, kind=s.kind,
                              submitted_at=s.submitted_at, active_seconds=s.active_seconds, questions=s.n_questions,
                              open_flags=s.open_flags, accepted_flags=s.accepted_flags, state=_state(s))
            for s in finished]
    return WorkerProgress(authored=totals["authored"], answered=totals["answered"], discarded=totals["discarded"],
                          active_seconds=totals["seconds"] or 0, recent=rows)


def worker_projects_language(*, user: User) -> str | None:
    """The one language of a crowdworker's projects: those they worked in or joined, else those
    their task list shows. None for anyone else, and for a mix of languages or none."""
    if user.role != User.Role.CROWDWORKER or user.is_instructor:
        return None
    languages = set(Project.objects.filter(articles__paragraphs__sessions__worker=user).values_list("language", flat=True))
    languages |= set(Project.objects.filter(members__worker=user).values_list("language", flat=True))
    if not languages:
        languages = set(projects_visible_to_worker(user=user).values_list("language", flat=True))
    return languages.pop() if len(languages) == 1 else None
