"""HTML pages and downloads of the evaluation app: each view validates, calls one service or
selector, renders. Access rules live in the selectors (``AccessError`` -> 403 with its message)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from collector.validation import first_message
from evaluation.forms.reports import EvaluationStartForm, ProjectEvaluationStartForm
from evaluation.reports.presentation import report_view, run_json, run_payload
from evaluation.reports.sections import table_csv
from evaluation.selectors import reports as selectors
from evaluation.services import reports as services
from evaluation.services.reports import evaluation_start_project_with_inputs

RUNS_PAGE_SIZE = 10


def _target(*, round_=None, project=None) -> dict:
    """What the report page says about its target and where its links go."""
    if round_ is not None:
        return {
            "kind": "round", "object": round_, "title": str(round_), "eyebrow": str(round_.course),
            "back_url": reverse("collector:round_detail", args=[round_.pk]), "back_label": "Round page",
            "start_url": reverse("evaluation:round_report_start", args=[round_.pk]),
            "intro": "Bias benchmarks on the round's questions: CODAH-style accuracy tables and lexical artifacts in "
                     "the completions (Serrano, Dodge & Smith 2023).",
            "needs": "the round's questions, the live model's answers and the newest finished cross-validation and "
                     "answer-only scoring runs (run those from the round page first for the full report)",
        }
    return {
        "kind": "project", "object": project, "title": project.name, "eyebrow": "Annotation project",
        "back_url": reverse("annotation:project_dashboard", args=[project.pk]), "back_label": "Project dashboard",
        "start_url": reverse("evaluation:project_report_start", args=[project.pk]),
        "intro": "Bias benchmarks on the project's questions: PQuAD-style EM/F1, lexical artifacts of answerable vs "
                 "unanswerable questions, and the QA ambiguity probes of Mao et al. (2021).",
        "needs": "the project's submitted questions with their gold answers, the QA model's answers and the "
                 "project's passages",
    }


def _report_page(request: HttpRequest, *, round_=None, project=None) -> HttpResponse:
    """The target's newest finished report, the run in progress, the start form and the history."""
    shown = selectors.latest_evaluation_run(round_=round_, project=project, finished=True)
    active = selectors.active_evaluation_run(round_=round_, project=project)
    latest = selectors.latest_evaluation_run(round_=round_, project=project)
    runs = selectors.evaluation_runs(round_=round_, project=project)
    context = {
        "target": _target(round_=round_, project=project),
        "form": ProjectEvaluationStartForm(project=project) if project is not None else EvaluationStartForm(),
        "run": shown,
        "sections": report_view(shown) if shown else [],
        "active": run_payload(active) if active else None,
        "failed": latest if latest is not None and latest.status == latest.Status.FAILED else None,
        "page_obj": Paginator(runs, RUNS_PAGE_SIZE).get_page(request.GET.get("page")),
    }
    return render(request, "evaluation/report_page.html", context)


def _start(request: HttpRequest, start, page: HttpResponse, form: EvaluationStartForm, **target) -> HttpResponse:
    if not form.is_valid():
        errors = " ".join(f"{form.fields[name].label}: {' '.join(errs)}" if name in form.fields else " ".join(errs)
                          for name, errs in form.errors.items())
        messages.error(request, f"Report not started. {errors}")
        return page
    try:
        run = start(user=request.user, **form.start_kwargs(), **target)
    except services.EvaluationRefused as error:
        messages.error(request, error.message)
    except ValidationError as error:
        messages.error(request, f"Report not started. {first_message(error)}")
    else:
        messages.success(request, f"Report {run.pk} queued: a worker computes it; its progress shows below.")
    return page


@login_required
@require_safe
def round_report(request: HttpRequest, round_id: int) -> HttpResponse:
    return _report_page(request, round_=selectors.round_for_evaluation(user=request.user, round_id=round_id))


@login_required
@require_POST
def round_report_start(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue a new report of the round with the form's settings."""
    round_ = selectors.round_for_evaluation(user=request.user, round_id=round_id)
    return _start(request, services.evaluation_start_round, redirect("evaluation:round_report", round_id=round_.pk),
                  EvaluationStartForm(request.POST), round_=round_)


@login_required
@require_safe
def project_report(request: HttpRequest, project_id: int) -> HttpResponse:
    return _report_page(request, project=selectors.project_for_evaluation(user=request.user, project_id=project_id))


@login_required
@require_POST
def project_report_start(request: HttpRequest, project_id: int) -> HttpResponse:
    """Queue a new report of the project with the form's settings and the probes' chosen or uploaded inputs."""
    project = selectors.project_for_evaluation(user=request.user, project_id=project_id)
    return _start(request, evaluation_start_project_with_inputs,
                  redirect("evaluation:project_report", project_id=project.pk),
                  ProjectEvaluationStartForm(request.POST, request.FILES, project=project), project=project)


@login_required
@require_safe
def run_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    """One report, finished or not (older reports stay readable next to newer ones)."""
    run = selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    context = {
        "run": run,
        "target": _target(round_=run.round, project=run.project),
        "sections": report_view(run) if run.status == run.Status.DONE else [],
        "active": run_payload(run) if run.status in run.ACTIVE else None,
    }
    return render(request, "evaluation/run_detail.html", context)


@login_required
@require_safe
def run_json_download(request: HttpRequest, run_id: int) -> HttpResponse:
    """The whole report with its provenance as one JSON file."""
    run = selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    response = JsonResponse(run_json(run), json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="stumper-evaluation-{run.pk}.json"'
    return response


@login_required
@require_safe
def run_table_csv(request: HttpRequest, run_id: int, section: str, table: str) -> HttpResponse:
    """Any table of any section as CSV."""
    run = selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    item = ((run.result or {}).get(section) or {}).get("tables", {}).get(table)
    if item is None:
        raise Http404(f"Report {run.pk} has no table “{table}” in section “{section}”.")
    response = HttpResponse(table_csv(item), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="stumper-evaluation-{run.pk}-{section}-{table}.csv"'
    return response
