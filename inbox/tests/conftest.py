"""An instructor's world with one of each thing the inbox lists, and someone else's as noise."""
from datetime import timedelta

import pytest
from django.utils import timezone


def _question(round_, author, **fields):
    from collector.models import Question
    from collector.tests.factories import question_data

    return Question.objects.create(round=round_, author=author, **question_data(), **fields)


def _flagged_project(owner, worker, name):
    from annotation.models import QuestionFlag
    from annotation.tests.factories import make_project, submitted_paragraph

    project = make_project(owner, name=name)
    paragraph = submitted_paragraph(project, worker)
    for question in paragraph.questions.all()[:2]:
        QuestionFlag.objects.create(question=question, raised_by=owner, proposal="remove_question", reason="off")
    return project


@pytest.fixture
def busy_world(instructor, other_instructor, course, student, crowdworker):
    """prof's course with two questions in review, an open appeal, a round closing in two days,
    runs that ended (one failed), a project with two open flags; otherprof has the same, hidden."""
    from collector.models import Appeal, Question, ScoringRun, TrainingJob
    from collector.services.rounds import round_create
    from courses.services import course_create

    now = timezone.now()
    mine = round_create(course=course, name="mine", title="Idioms", closes_at=now + timedelta(days=2))
    theirs_course = course_create(owner=other_instructor, name="Other course")
    theirs = round_create(course=theirs_course, name="theirs", closes_at=now + timedelta(days=1))
    for round_ in (mine, theirs):
        for _ in range(2):
            _question(round_, student, status=Question.Status.REVIEW)
        appealed = _question(round_, student, status=Question.Status.APPEALED)
        Appeal.objects.create(question=appealed, author=student, message="The key is right.")
        ScoringRun.objects.create(round=round_, status="failed", error="boom", base_checkpoint="x", finished_at=now)
        TrainingJob.objects.create(round=round_, name=f"next-{round_.name}", status="done", finished_at=now)
        # Too old to be news.
        ScoringRun.objects.create(round=round_, kind="answer_only", status="done", base_checkpoint="x",
                                  finished_at=now - timedelta(days=30))
    _flagged_project(instructor, crowdworker, "nile-mine")
    _flagged_project(other_instructor, crowdworker, "nile-theirs")
    return {"mine": mine, "theirs": theirs}
