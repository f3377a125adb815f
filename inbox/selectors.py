"""The instructor's inbox: what waits for them, read with one query per kind (no N+1).

Kinds: questions waiting for review and appeals (per round), questions awaiting validation (per
round, with a line for a round whose settings keep them from being accepted), open annotation
flags (per project), background runs that finished or failed lately, and rounds closing soon. Each item
carries the link to the page where the instructor acts on it.
"""
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from annotation.models import Project, QuestionFlag
from collector.models import Appeal, Question, Round, ScoringRun, TrainingJob
from collector.selectors.validation import validator_capacity
from courses.selectors import course_people_counts, courses_managed_by
from evaluation.models import EvaluationRun

RECENT_RUNS = timedelta(days=7)
CLOSING_SOON = timedelta(days=7)
MAX_ITEMS = 20


@dataclass(frozen=True)
class InboxItem:
    """One line of the inbox: what it is, a short detail and where to act on it."""

    title: str
    detail: str
    url: str
    at: datetime | None = None
    count: int = 0
    status: str = ""


@dataclass(frozen=True)
class Inbox:
    reviews: list[InboxItem] = field(default_factory=list)
    appeals: list[InboxItem] = field(default_factory=list)
    validations: list[InboxItem] = field(default_factory=list)
    flags: list[InboxItem] = field(default_factory=list)
    runs: list[InboxItem] = field(default_factory=list)
    closing: list[InboxItem] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.reviews or self.appeals or self.validations or self.flags or self.runs or self.closing)

    @property
    def waiting(self) -> int:
        """Things that need a decision (reviews, appeals, flags)."""
        return sum(item.count for item in (*self.reviews, *self.flags)) + len(self.appeals)

    @property
    def awaiting_validation(self) -> int:
        """Questions of the instructor's rounds that wait for validators (by anyone, not only them)."""
        return sum(item.count for item in self.validations)


def _managed_rounds(user: User) -> QuerySet[Round]:
    return Round.objects.filter(course__in=courses_managed_by(user=user).values("pk"))


def _owned_projects(user: User) -> QuerySet[Project]:
    projects = Project.objects.all()
    return projects if user.is_staff or user.is_superuser else projects.filter(owner=user)


def _reviews(user: User) -> list[InboxItem]:
    rounds = (
        _managed_rounds(user).select_related("course")
        .annotate(n_review=Count("questions", filter=Q(questions__status=Question.Status.REVIEW)))
        .filter(n_review__gt=0).order_by("-n_review", "name")[:MAX_ITEMS]
    )
    return [
        InboxItem(title=ngettext("%(count)s question to review", "%(count)s questions to review", r.n_review)
                  % {"count": r.n_review},
                  detail=f"{r} · {r.course}", url=reverse("collector:review_queue", args=[r.pk]), count=r.n_review)
        for r in rounds
    ]


def _appeals(user: User) -> list[InboxItem]:
    appeals = (
        Appeal.objects.filter(status=Appeal.Status.OPEN, question__round__in=_managed_rounds(user).values("pk"))
        .select_related("author", "question__round").order_by("created_at")[:MAX_ITEMS]
    )
    return [
        InboxItem(title=_("Appeal by %(name)s") % {"name": a.author.username},
                  detail=f"{a.question.round} · “{a.question.prompt[:80]}”",
                  url=reverse("collector:question_review", args=[a.question_id]), at=a.created_at, count=1)
        for a in appeals
    ]


def _validations(user: User) -> list[InboxItem]:
    """Per round: its questions awaiting validation, linked to the validation page where the
    instructor may still validate some; and a line for a round whose settings keep them waiting."""
    pending = Q(questions__status=Question.Status.PENDING)
    rounds = list(
        _managed_rounds(user).select_related("course").annotate(n_pending=Count("questions", filter=pending))
        .filter(n_pending__gt=0).order_by("-n_pending", "name")[:MAX_ITEMS]
    )
    if not rounds:
        return []
    yours = dict(
        Question.objects.filter(round__in=[r.pk for r in rounds], status=Question.Status.PENDING)
        .exclude(author=user).exclude(validations__validator=user)
        .values("round_id").annotate(n=Count("id")).values_list("round_id", "n")
    )
    people = course_people_counts(course_ids={r.course_id for r in rounds})
    items = []
    for r in rounds:
        mine = yours.get(r.pk, 0)
        url = (f"{reverse('collector:validate')}?round={r.pk}" if mine
               else reverse("collector:round_detail", args=[r.pk]))
        items.append(InboxItem(
            title=ngettext("%(count)s question awaits validation", "%(count)s questions await validation",
                           r.n_pending) % {"count": r.n_pending},
            detail=f"{r} · {r.course} · " + (_("%(count)s you can validate") % {"count": mine} if mine
                                              else _("none left for you to validate")),
            url=url, count=r.n_pending))
        capacity = validator_capacity(round_=r, people=people[r.course_id])
        if capacity.impossible or capacity.waits_for_close:
            items.append(InboxItem(
                title=(_("%(round)s: no question can be accepted before it closes") if capacity.waits_for_close
                       else _("%(round)s: no question can be accepted")) % {"round": r},
                detail=_("It needs %(required)s agreeing validators; %(able)s can validate. "
                         "Add teaching staff or change its settings.")
                % {"required": capacity.required,
                   "able": capacity.while_open if capacity.waits_for_close else capacity.at_most},
                url=reverse("collector:round_detail", args=[r.pk]) + "#validator-capacity-heading"))
    return items


def _flags(user: User) -> list[InboxItem]:
    projects = (
        _owned_projects(user)
        .annotate(n_open=Count("questions__flags", filter=Q(questions__flags__status=QuestionFlag.Status.OPEN)))
        .filter(n_open__gt=0).order_by("-n_open", "name")[:MAX_ITEMS]
    )
    return [
        InboxItem(title=ngettext("%(count)s flag to resolve", "%(count)s flags to resolve", p.n_open) % {"count": p.n_open},
                  detail=_("Annotation project %(name)s") % {"name": p},
                  url=reverse("annotation:project_flags", args=[p.pk]), count=p.n_open)
        for p in projects
    ]


def _runs(user: User, now: datetime) -> list[InboxItem]:
    """Scoring runs, training jobs and evaluation reports that finished or failed lately."""
    since, ended = now - RECENT_RUNS, ("done", "failed")
    rounds = _managed_rounds(user).values("pk")
    items = [
        InboxItem(title=_("%(kind)s run %(id)s %(ended)s") % {"kind": run.get_kind_display(), "id": run.pk,
                                                                 "ended": _ended(run.status)}, detail=str(run.round),
                  url=reverse("collector:round_detail", args=[run.round_id]) + "#scoring", at=run.finished_at,
                  status=run.status)
        for run in ScoringRun.objects.filter(round__in=rounds, status__in=ended, finished_at__gte=since)
        .select_related("round").order_by("-finished_at")[:MAX_ITEMS]
    ]
    items += [
        InboxItem(title=_("Training of model %(name)s %(ended)s") % {"name": job.name, "ended": _ended(job.status)},
                  detail=str(job.round),
                  url=reverse("collector:round_detail", args=[job.round_id]) + "#training-jobs", at=job.finished_at,
                  status=job.status)
        for job in TrainingJob.objects.filter(round__in=rounds, status__in=ended, finished_at__gte=since)
        .select_related("round").order_by("-finished_at")[:MAX_ITEMS]
    ]
    evaluations = EvaluationRun.objects.filter(
        Q(round__in=rounds) | Q(project__in=_owned_projects(user).values("pk")), status__in=ended,
        finished_at__gte=since,
    ).select_related("round", "project").order_by("-finished_at")[:MAX_ITEMS]
    items += [
        InboxItem(title=_("Evaluation report %(id)s %(ended)s") % {"id": run.pk, "ended": _ended(run.status)},
                  detail=run.target_label,
                  url=reverse("evaluation:run_detail", args=[run.pk]), at=run.finished_at, status=run.status)
        for run in evaluations
    ]
    # Failures first (they need attention), then the newest.
    items.sort(key=lambda item: (item.status != "failed", -(item.at.timestamp() if item.at else 0)))
    return items[:MAX_ITEMS]


def _ended(status: str) -> str:
    return _("failed") if status == "failed" else _("finished")


def _closing(user: User, now: datetime) -> list[InboxItem]:
    rounds = (
        _managed_rounds(user).select_related("course").filter(closes_at__gt=now, closes_at__lte=now + CLOSING_SOON)
        .annotate(n_questions=Count("questions")).order_by("closes_at")[:MAX_ITEMS]
    )
    return [
        InboxItem(title=_("%(round)s closes %(at)s") % {"round": r,
                                                        "at": dateformat.format(timezone.localtime(r.closes_at),
                                                                                "D M j, H:i")},
                  detail=f"{r.course} · " + ngettext("%(count)s question so far", "%(count)s questions so far",
                                                     r.n_questions) % {"count": r.n_questions},
                  url=reverse("collector:round_detail", args=[r.pk]), at=r.closes_at, count=r.n_questions)
        for r in rounds
    ]


def instructor_inbox(*, user: User, now: datetime | None = None) -> Inbox:
    """Everything waiting for ``user`` in the courses they teach and the projects they own."""
    now = now or timezone.now()
    return Inbox(reviews=_reviews(user), appeals=_appeals(user), validations=_validations(user), flags=_flags(user),
                 runs=_runs(user, now), closing=_closing(user, now))
