"""The demo course behind ``seed_demo`` and ``scripts/start.sh`` (services level, idempotent).

Every step looks its object up by a natural key first (username, join code, round name, a fixed
client token per question), so running the seed again changes nothing.
"""
import uuid
from dataclasses import dataclass

from accounts.models import User
from accounts.services import user_create
from collector.models import Question, Round
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from courses.models import Course
from courses.services import course_create, course_join
from modelhub.services import model_version_default

INSTRUCTOR_LOGIN = ("instructor", "stumper-demo-instructor")
STUDENT_LOGINS = (("alice", "stumper-demo-student"), ("bob", "stumper-demo-student"))
COURSE_NAME = "Commonsense NLP (demo)"
JOIN_CODE = "DEMO2026"
ROUND_NAME = "demo-round-1"
_TOKEN_NAMESPACE = uuid.UUID("5d0c9a3e-4f0b-4c55-9d0e-2a6f1b7c8e41")

# Written for this demo (not taken from CODAH): (author, categories, prompt, choices, answer).
DEMO_QUESTIONS: tuple[tuple[str, tuple[str, ...], str, tuple[str, str, str, str], int], ...] = (
    ("alice", ("quantitative",), "Priya bought a dozen eggs and dropped three on the way home. She",
     ("had nine unbroken eggs left.", "had fifteen eggs to cook.", "had twelve unbroken eggs left.",
      "had no eggs left at all."), 0),
    ("alice", ("idioms",), "Tom told his sister that the driving test was a piece of cake. He",
     ("had eaten cake right before the test.", "baked his sister a cake to celebrate.",
      "found the driving test easy.", "thought the test was the hardest thing he had done."), 2),
    ("bob", ("negation",), "The museum is never open on Mondays, so the tourists who arrived on Monday",
     ("spent the whole day looking at paintings inside.", "came back the next day to see the exhibits.",
      "joined the Monday guided tour of the galleries.", "bought tickets for that afternoon's show inside."), 1),
    ("bob", ("reference",), "Marco could not lift the box onto the shelf because it was too heavy. He",
     ("lifted the box easily with one hand.", "made the box heavier before trying again.",
      "took the shelf down and lifted it instead.", "asked his neighbour to help him carry it."), 3),
    ("alice", ("polysemy",), "Jenna and her grandfather took their rods down to the bank to fish. They",
     ("waited in line for the next teller.", "sat by the river until lunchtime.",
      "opened a savings account for the fish.", "deposited their rods in the vault."), 1),
    ("bob", ("quantitative", "negation"), "Only two of the five runners finished the race. The others",
     ("all received medals for finishing.", "crossed the line before the two winners.",
      "did not reach the finish line.", "numbered four in total."), 2),
    ("alice", ("other",), "The power went out during the storm, so Leila",
     ("lit a few candles in the kitchen.", "turned on every lamp in the house.",
      "watched the news on the television.", "charged her phone from the wall socket."), 0),
)


@dataclass(frozen=True)
class DemoSeed:
    course: Course
    round_: Round
    created_users: tuple[str, ...]
    created_questions: int


def _user(username: str, password: str, role: str) -> tuple[User, bool]:
    existing = User.objects.filter(username=username).first()
    if existing is not None:
        return existing, False
    return user_create(username=username, password=password, role=role), True


def _token(index: int) -> uuid.UUID:
    return uuid.uuid5(_TOKEN_NAMESPACE, f"demo-question-{index}")


def demo_seed() -> DemoSeed:
    """Create the demo instructor, students, course, open round and example questions.

    Questions are stored with pending predictions that a worker computes (the worker's start-up
    sweep also finds them), so seeding never waits for the model.
    """
    instructor, created = _user(*INSTRUCTOR_LOGIN, role=User.Role.INSTRUCTOR)
    created_users = [instructor.username] if created else []
    students = {}
    for username, password in STUDENT_LOGINS:
        students[username], created = _user(username, password, role=User.Role.STUDENT)
        created_users += [username] if created else []
    course = Course.objects.filter(join_code=JOIN_CODE).first() or course_create(
        owner=instructor, name=COURSE_NAME, join_code=JOIN_CODE
    )
    for student in students.values():
        course_join(user=student, join_code=course.join_code)
    round_ = Round.objects.filter(name=ROUND_NAME).first() or round_create(
        course=course, name=ROUND_NAME, title="Demo round 1: fool the model",
        live_model=model_version_default(),
        instructions="Write a prompt and four completions so that the model picks a wrong one.",
    )
    created_questions = 0
    for index, (author, categories, prompt, choices, answer) in enumerate(DEMO_QUESTIONS):
        if Question.objects.filter(author=students[author], client_token=_token(index)).exists():
            continue
        question_submit(
            user=students[author], round_id=round_.pk, prompt=prompt, choices=choices, correct_index=answer,
            categories=categories, time_spent_seconds=90, client_token=_token(index), compute_prediction=False,
        )
        created_questions += 1
    return DemoSeed(course=course, round_=round_, created_users=tuple(created_users),
                    created_questions=created_questions)
