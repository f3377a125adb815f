"""How a course's teaching staff is shown: what each role may do, in words, and the context of the
staff section (``courses/_staff.html``) that the course page and the staff page share."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from courses.forms import CourseStaffAddForm
from courses.models import Course, StaffRole
from courses.selectors import course_staff

# What each role may do, as the course pages write it next to the role. Keep it true to the
# checks: courses.selectors.user_manages_course (owner, co-instructors) and
# user_validates_anytime (teaching assistants too), collector.selectors.validation.check_may_validate.
STAFF_ROLE_POWERS = {
    StaffRole.OWNER: gettext_noop("Everything a co-instructor may do. The owner cannot be removed from the course."),
    StaffRole.INSTRUCTOR: gettext_noop(
        "Everything in this course: rounds and their settings, validating and reviewing questions, appeals, "
        "grades, scoring and models, students, teaching staff and this invite link. Their account becomes an "
        "instructor account, which may also create its own courses and annotation projects."
    ),
    StaffRole.TA: gettext_noop(
        "Validates this course's questions at any time, also while a round is open, and each validation counts "
        "towards a question's acceptance. Cannot open the round pages, grades, settings, the review queue, the "
        "students or the teaching staff, and cannot write questions in this course. Their account keeps its role."
    ),
}


def staff_section(*, course: Course, form: CourseStaffAddForm | None = None) -> dict:
    """The context of ``courses/_staff.html``: ``form`` is a refused one to show again, else a blank one."""
    return {"staff": course_staff(course=course), "staff_form": form or CourseStaffAddForm(),
            "staff_powers": [(StaffRole(role).label, _(text)) for role, text in STAFF_ROLE_POWERS.items()]}
