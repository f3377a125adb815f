"""HTML pages and downloads of the leaderboards: validate, call one service or selector, render.

Each view serves a round (``round_id``) and a project (``project_id``) alike: ``urls.py`` routes
both to it. Access rules live in the selectors (``AccessError`` -> 403 with its message)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from collector.cleaning import first_message
from core.apis import file_response, json_file_response
from core.charts import chart_view
from core.exceptions import AccessError
from evaluation.reports.leaderboards import (
    evaluation_json,
    evaluation_payload,
    leaderboard_chart,
    leaderboard_csv,
    leaderboard_filename,
    leaderboard_table,
    sorted_table,
)
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.selectors.reports import evaluation_target, target_kind
from evaluation.services.leaderboards import model_evaluation_start


@login_required
@require_safe
def leaderboard_page(request: HttpRequest, round_id: int | None = None, project_id: int | None = None) -> HttpResponse:
    """Every model evaluated on the target, as a sortable table and a chart; a round's page adds
    the course's vMER curve."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    round_ = target.get("round_")
    board = leaderboard_selectors.leaderboard(**target)
    live_id = round_.live_model_id if round_ is not None else None
    active = [evaluation_payload(e, live_model_id=live_id)
              for e in leaderboard_selectors.active_model_evaluations(**target)]
    kind, target_object = target_kind(target), round_ or target.get("project")
    vmer = leaderboard_selectors.vmer_curve(course=round_.course) if round_ is not None else None
    context = {
        "kind": kind, "target": target_object, "board": board,
        "table": sorted_table(leaderboard_table(board), sort=request.GET.get("sort"), direction=request.GET.get("dir")),
        "chart": chart_view("leaderboard-chart", leaderboard_chart(board)) if board["entries"] else None,
        "active": active[0] if active else None, "more_active": active[1:],
        "failed": leaderboard_selectors.latest_failed_model_evaluations(**target),
        "versions": leaderboard_selectors.evaluable_model_versions(user=request.user, **target),
        "vmer": vmer, "vmer_chart": chart_view("vmer-chart", vmer["chart"]) if vmer and vmer["rounds"] else None,
        **{f"{name}_url": reverse(f"evaluation:{kind}_leaderboard_{name}", args=[target_object.pk])
           for name in ("evaluate", "csv", "json")},
        "api_url": reverse(f"evaluation_api:{kind}_leaderboard", args=[target_object.pk]),
        "vmer_api_url": reverse("evaluation_api:course_vmer", args=[round_.course_id]) if round_ is not None else "",
    }
    return render(request, "evaluation/leaderboard.html", context)


@login_required
@require_POST
def leaderboard_evaluate(request: HttpRequest, round_id: int | None = None,
                         project_id: int | None = None) -> HttpResponse:
    """Queue an evaluation of the chosen model version on the target, then back to its leaderboard."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    try:
        version = leaderboard_selectors.model_version_for_evaluation(
            user=request.user, version_id=int(request.POST.get("model_version")))
        evaluation = model_evaluation_start(model_version=version, user=request.user, **target)
    except (TypeError, ValueError):
        messages.error(request, _("Choose a model version to evaluate."))
    except ValidationError as error:
        messages.error(request, _("Not started. %(reason)s") % {"reason": first_message(error)})
    except AccessError as error:
        messages.error(request, _("Not started. %(reason)s") % {"reason": error.message})
    else:
        if evaluation.status == evaluation.Status.DONE:
            messages.info(request, _("%(name)s was already evaluated on exactly these questions; "
                                     "its entry is on the leaderboard.") % {"name": version.name})
        else:
            messages.success(request, _("Evaluation of %(name)s queued: a worker computes it; "
                                        "its progress shows below.") % {"name": version.name})
    return redirect(f"evaluation:{target_kind(target)}_leaderboard", round_id or project_id)


@login_required
@require_safe
def leaderboard_download(request: HttpRequest, file_format: str, round_id: int | None = None,
                         project_id: int | None = None) -> HttpResponse:
    """The target's leaderboard as a CSV or JSON file (``file_format``, fixed by the URL)."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    board, filename = leaderboard_selectors.leaderboard(**target), leaderboard_filename(**target, ext=file_format)
    if file_format == "csv":
        return file_response(leaderboard_csv(board), content_type="text/csv; charset=utf-8", filename=filename)
    return json_file_response(board, filename=filename)


@login_required
@require_safe
def model_evaluation_json(request: HttpRequest, evaluation_id: int) -> HttpResponse:
    """One evaluation with every per-question prediction, as a JSON file."""
    evaluation = leaderboard_selectors.model_evaluation_for_user(user=request.user, evaluation_id=evaluation_id)
    live_id = evaluation.round.live_model_id if evaluation.round_id else None
    return json_file_response(evaluation_json(evaluation, live_model_id=live_id),
                              filename=f"stumper-model-evaluation-{evaluation.pk}.json")
