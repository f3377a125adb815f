"""The student's dashboard (``collector:dashboard``): where a student starts (``core.views.home`` sends them
here through the ``home`` link registered in ``CollectorConfig.ready``).

Access rules live in the selectors and services: they raise ``AccessError`` (a
``PermissionDenied``), which Django turns into ``templates/403.html`` showing its message.
"""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.roles import not_for_crowdworkers
from collector.presentation.questions import question_view
from collector.selectors.questions import author_credit_total, questions_of_author
from collector.selectors.rounds import rounds_open_for_author
from core.pages import paginate

DASHBOARD_PAGE_SIZE = 25


@login_required
@not_for_crowdworkers
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """A student's open rounds and their own questions with the model's answers and credit."""
    # Grouped by round (newest round first) so the template can regroup one page at a time.
    questions = questions_of_author(user=request.user).order_by(
        "-round__created_at", "round_id", "-created_at", "-id"
    )
    page = paginate(request, questions, DASHBOARD_PAGE_SIZE)
    context = {
        "open_rounds": rounds_open_for_author(user=request.user),
        "page_obj": page,
        "rows": [question_view(question) for question in page],
        "total_credit": author_credit_total(user=request.user),
    }
    return render(request, "collector/dashboard.html", context)
