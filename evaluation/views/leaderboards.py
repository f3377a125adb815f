"""HTML pages and downloads of the leaderboards: validate, call one service or selector, render.
Access rules live in the selectors (``AccessError`` -> 403 with its message)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from collector.validation import first_message
from core.apis import file_response
from core.charts import chart_view
from core.exceptions import AccessError
from evaluation.reports.leaderboards import (
    evaluation_json,
    evaluation_payload,
    leaderboard_chart,
    leaderboard_csv,
    leaderboard_table,
    sorted_table,
)
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.selectors import reports as evaluation_selectors
from evaluation.services import leaderboards as leaderboard_services


def _page(request: HttpRequest, *, round_=None, project=None) -> HttpResponse:
    board = leaderboard_selectors.leaderboard(round_=round_, project=project)
    live_id = round_.live_model_id if round_ is not None else None
    active = [evaluation_payload(e, live_model_id=live_id)
              for e in leaderboard_selectors.active_model_evaluations(round_=round_, project=project)]
    kind = "round" if round_ is not None else "project"
    target_id = (round_ or project).pk
    vmer = leaderboard_selectors.vmer_curve(course=round_.course) if round_ is not None else None
    context = {
        "kind": kind, "target": round_ or project, "board": board,
        "table": sorted_table(leaderboard_table(board), sort=request.GET.get("sort"), direction=request.GET.get("dir")),
        "chart": chart_view("leaderboard-chart", leaderboard_chart(board)) if board["entries"] else None,
        "active": active[0] if active else None, "more_active": active[1:],
        "failed": leaderboard_selectors.latest_failed_model_evaluations(round_=round_, project=project),
        "versions": leaderboard_selectors.evaluable_model_versions(round_=round_, project=project),
        "vmer": vmer, "vmer_chart": chart_view("vmer-chart", vmer["chart"]) if vmer and vmer["rounds"] else None,
        "evaluate_url": reverse(f"evaluation:{kind}_leaderboard_evaluate", args=[target_id]),
        "csv_url": reverse(f"evaluation:{kind}_leaderboard_csv", args=[target_id]),
        "json_url": reverse(f"evaluation:{kind}_leaderboard_json", args=[target_id]),
        "api_url": reverse(f"evaluation_api:{kind}_leaderboard", args=[target_id]),
        "vmer_api_url": reverse("evaluation_api:course_vmer", args=[round_.course_id]) if round_ is not None else "",
    }
    return render(request, "evaluation/leaderboard.html", context)


def _evaluate(request: HttpRequest, page, *, round_=None, project=None) -> HttpResponse:
    try:
        version = leaderboard_selectors.model_version_for_evaluation(version_id=int(request.POST.get("model_version")))
        evaluation = leaderboard_services.model_evaluation_start(model_version=version, round_=round_,
                                                                 project=project, user=request.user)
    except (TypeError, ValueError):
        messages.error(request, "Choose a model version to evaluate.")
    except ValidationError as error:
        messages.error(request, f"Not started. {first_message(error)}")
    except AccessError as error:
        messages.error(request, f"Not started. {error.message}")
    else:
        if evaluation.status == evaluation.Status.DONE:
            messages.info(request, f"{version.name} was already evaluated on exactly these questions; "
                                   "its entry is on the leaderboard.")
        else:
            messages.success(request, f"Evaluation of {version.name} queued: a worker computes it; "
                                      "its progress shows below.")
    return page


@login_required
@require_safe
def round_leaderboard(request: HttpRequest, round_id: int) -> HttpResponse:
    return _page(request, round_=evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id))


@login_required
@require_POST
def round_leaderboard_evaluate(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
    return _evaluate(request, redirect("evaluation:round_leaderboard", round_id=round_.pk), round_=round_)


@login_required
@require_safe
def project_leaderboard(request: HttpRequest, project_id: int) -> HttpResponse:
    return _page(request, project=evaluation_selectors.project_for_evaluation(user=request.user,
                                                                             project_id=project_id))


@login_required
@require_POST
def project_leaderboard_evaluate(request: HttpRequest, project_id: int) -> HttpResponse:
    project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
    return _evaluate(request, redirect("evaluation:project_leaderboard", project_id=project.pk), project=project)


def _json(document: dict, filename: str) -> HttpResponse:
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_safe
def round_leaderboard_csv(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
    return file_response(leaderboard_csv(leaderboard_selectors.leaderboard(round_=round_)), content_type="text/csv; charset=utf-8",
                         filename=f"stumper-leaderboard-round-{round_.name}.csv")


@login_required
@require_safe
def round_leaderboard_json(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = evaluation_selectors.round_for_evaluation(user=request.user, round_id=round_id)
    return _json(leaderboard_selectors.leaderboard(round_=round_), f"stumper-leaderboard-round-{round_.name}.json")


@login_required
@require_safe
def project_leaderboard_csv(request: HttpRequest, project_id: int) -> HttpResponse:
    project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
    return file_response(leaderboard_csv(leaderboard_selectors.leaderboard(project=project)), content_type="text/csv; charset=utf-8",
                         filename=f"stumper-leaderboard-project-{project.pk}.csv")


@login_required
@require_safe
def project_leaderboard_json(request: HttpRequest, project_id: int) -> HttpResponse:
    project = evaluation_selectors.project_for_evaluation(user=request.user, project_id=project_id)
    return _json(leaderboard_selectors.leaderboard(project=project), f"stumper-leaderboard-project-{project.pk}.json")


@login_required
@require_safe
def model_evaluation_json(request: HttpRequest, evaluation_id: int) -> HttpResponse:
    """One evaluation with every per-question prediction, as a JSON file."""
    evaluation = leaderboard_selectors.model_evaluation_for_user(user=request.user, evaluation_id=evaluation_id)
    live_id = evaluation.round.live_model_id if evaluation.round_id else None
    return _json(evaluation_json(evaluation, live_model_id=live_id), f"stumper-model-evaluation-{evaluation.pk}.json")
