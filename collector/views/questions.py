"""The authoring page: a student writes a question; the websocket gives live feedback, the POST stores it."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from collector.forms.questions import QuestionForm
from collector.presentation.questions import submit_message
from collector.selectors.questions import author_round_tally
from collector.selectors.rounds import round_for_author
from collector.services.questions import question_submit


@login_required
@require_http_methods(["GET", "POST"])
def round_write(request: HttpRequest, round_id: int) -> HttpResponse:
    """The authoring page; the websocket gives live feedback, this POST stores the question."""
    round_ = round_for_author(user=request.user, round_id=round_id)
    form = QuestionForm(request.POST or None, round_=round_)
    if request.method == "POST" and form.is_valid():
        try:
            question = question_submit(user=request.user, round_id=round_.pk, **form.service_kwargs())
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            # The extra tag tells author.js that the saved draft can be forgotten.
            messages.success(request, submit_message(question), extra_tags="question-saved")
            return redirect("collector:round_write", round_id=round_.pk)
    context = {"round": round_, "form": form, "live_model": round_.live_model,
               "tally": author_round_tally(user=request.user, round_=round_)}
    return render(request, "collector/round_write.html", context)
