"""``manage.py export_grades --round NAME --format canvas|moodle|csv [--points-possible P] PATH``."""
import argparse
import math
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from collector.presentation.grades import FORMAT_KEYS, FORMATS, grades_file
from collector.selectors.grades import round_gradebook, round_grades
from collector.selectors.rounds import round_get_by_name
from core.exceptions import AccessError


def non_negative_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text}")
    return value


class Command(BaseCommand):
    help = (
        "Write one grade row per student enrolled in the round's course (students without questions get 0). "
        "Credit = weight_live x fooled_live + weight_cv x fooled_cv over the student's questions. "
        "Points = credit, or with --points-possible P: min(P, credit), so P credits are full marks. "
        "canvas: Canvas gradebook import (Student, ID, SIS User ID, SIS Login ID, Section, then the LMS line item's "
        "label for a round placed in an LMS, else 'Stumper <round>'; with a Points Possible row: P, or the best "
        "student's points), matched on SIS User ID, else SIS Login ID. moodle: 'Email address' and 'Grade', "
        "matched on the email. csv: username, email, questions, fooled_live, fooled_cv, credit, points, "
        "sis_user_id, lms_user_id. Students with no value for the format's key are left out, named in a warning."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Output file ('-' for standard output)")
        parser.add_argument("--round", required=True, dest="round_name", help="Round name")
        parser.add_argument("--format", choices=FORMATS, default="csv", dest="fmt")
        parser.add_argument("--points-possible", type=non_negative_number, default=None, metavar="P",
                            help="Full marks; points = min(P, credit) (default: points = credit)")

    def handle(self, *args, path: str, round_name: str, fmt: str, points_possible: float | None, **options) -> None:
        try:
            round_ = round_get_by_name(name=round_name)
        except AccessError as error:
            raise CommandError(error.message) from None
        rows = round_grades(round_=round_, points_possible=points_possible)
        gradebook = round_gradebook(round_=round_, users=[row.user for row in rows])
        grades = grades_file(round_=round_, rows=rows, fmt=fmt, points_possible=points_possible, gradebook=gradebook)
        if grades.left_out:  # on stderr: with path "-" stdout is the file
            self.stderr.write(self.style.WARNING(
                f"Left out (no {FORMAT_KEYS[fmt]}): {', '.join(grades.left_out)}"))
        if path == "-":
            self.stdout.write(grades.text, ending="")
            return
        try:
            Path(path).write_text(grades.text, encoding="utf-8", newline="")
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error}") from None
        written = len(rows) - len(grades.left_out)
        self.stdout.write(f"Exported grades of {written} students of round {round_.name} to {path} ({fmt})")
