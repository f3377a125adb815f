"""``manage.py seed_demo``: the demo course, round, users and questions, and the annotation demo (safe to
run again). It lives in the evaluation app, the layer above both apps it seeds."""
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation import demo as annotation_demo
from collector.cleaning import first_message
from collector.services.demo import INSTRUCTOR_LOGIN, STUDENT_LOGINS, demo_seed
from core.exceptions import AccessError


class Command(BaseCommand):
    help = "Create the demo instructor, students, course and open round with example questions (idempotent)."

    def handle(self, *args, **options) -> None:
        try:
            seed = demo_seed()
            annotation_seed = annotation_demo.annotation_demo_seed(owner=seed.course.owner)
        except AccessError as error:
            raise CommandError(error.message) from None
        except ValidationError as error:
            raise CommandError(f"Could not seed the demo: {first_message(error)}") from None
        self.stdout.write(
            f"Demo course {seed.course.name!r} (join code {seed.course.join_code}), "
            f"round {seed.round_.name!r}: {len(seed.created_users)} users and "
            f"{seed.created_questions} questions created"
        )
        self.stdout.write(f"Annotation projects: {', '.join(p.name for p in annotation_seed.projects)}")
        self.stdout.write("Demo logins:")
        for username, password in (INSTRUCTOR_LOGIN, *STUDENT_LOGINS, *annotation_demo.WORKER_LOGINS):
            self.stdout.write(f"  {username:<12} {password}")
