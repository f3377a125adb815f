"""The round page's "Download grades" button: Canvas, Moodle or plain CSV."""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from collector.forms.grades import GradesExportForm
from collector.presentation.grades import grades_file
from collector.selectors.grades import round_gradebook, round_grades
from collector.selectors.rounds import round_for_manager
from collector.views.rounds import back_to_round
from core.apis import content_disposition
from core.pages import form_refused


@login_required
@require_safe
def round_grades_download(request: HttpRequest, round_id: int) -> HttpResponse:
    """One row per enrolled student as a Canvas, Moodle or plain CSV file."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    form = GradesExportForm(request.GET)
    if form_refused(request, form, _("No grades exported.")):
        return back_to_round(round_)
    fmt, points_possible = form.cleaned_data["format"], form.cleaned_data["points_possible"]
    rows = round_grades(round_=round_, points_possible=points_possible)
    gradebook = round_gradebook(round_=round_, users=[row.user for row in rows])
    response = HttpResponse(  # who is left out is said on the round page, under this button
        grades_file(round_=round_, rows=rows, fmt=fmt, points_possible=points_possible, gradebook=gradebook).text,
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition(f"stumper-{round_.name}-grades-{fmt}.csv")
    return response
