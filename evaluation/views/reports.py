"""HTML pages and downloads of the reports: each view validates, calls one service or selector,
renders. A report page and its start serve a round (``round_id``) and a project (``project_id``)
alike: ``urls.py`` routes both to them. Access rules live in the selectors (``AccessError`` -> 403
with its message)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from collector.cleaning import first_message
from core.apis import file_response, json_file_response
from core.pages import form_refused, paginate
from evaluation.forms.reports import EvaluationStartForm, ProjectEvaluationStartForm
from evaluation.reports.presentation import report_view, run_json, run_payload
from evaluation.reports.sections import table_csv
from evaluation.selectors import reports as report_selectors
from evaluation.selectors.reports import evaluation_target, target_kind
from evaluation.services.reports import EvaluationRefused, evaluation_start_project_with_inputs, evaluation_start_round

RUNS_PAGE_SIZE = 10


# What the report page says about each kind of target.
PAGE_TEXT = {
    "round": {
        "back": ("collector:round_detail", gettext_lazy("Round page")),
        "intro": gettext_lazy("Bias benchmarks on the round's questions: CODAH-style accuracy tables and lexical "
                              "artifacts in the completions (Serrano, Dodge & Smith 2023)."),
        "needs": gettext_lazy("the round's questions, the live model's answers and the newest finished "
                              "cross-validation and answer-only scoring runs (run those from the round page first "
                              "for the full report)"),
    },
    "project": {
        "back": ("annotation:project_dashboard", gettext_lazy("Project dashboard")),
        "intro": gettext_lazy("Bias benchmarks on the project's questions: PQuAD-style EM/F1, lexical artifacts of "
                              "answerable vs unanswerable questions, and the QA ambiguity probes of Mao et al. "
                              "(2021)."),
        "needs": gettext_lazy("the project's submitted questions with their gold answers, the QA model's answers and "
                              "the project's passages"),
    },
}


def _page_target(*, round_=None, project=None) -> dict:
    """What the report page says about its target and where its links go."""
    kind, target = ("round", round_) if round_ is not None else ("project", project)
    text = PAGE_TEXT[kind]
    back_url, back_label = text["back"]
    return {
        "kind": kind, "object": target, "title": str(round_) if round_ is not None else project.name,
        "eyebrow": str(round_.course) if round_ is not None else _("Annotation project"),
        "back_url": reverse(back_url, args=[target.pk]), "back_label": back_label,
        "start_url": reverse(f"evaluation:{kind}_report_start", args=[target.pk]),
        "intro": text["intro"], "needs": text["needs"],
    }


def _start_form(target: dict, *data) -> EvaluationStartForm:
    """The settings form of a new report; a project's also chooses or uploads the probes' inputs."""
    if "project" in target:
        return ProjectEvaluationStartForm(*data, project=target["project"])
    return EvaluationStartForm(*data)


@login_required
@require_safe
def report_page(request: HttpRequest, round_id: int | None = None, project_id: int | None = None) -> HttpResponse:
    """The target's newest finished report, the run in progress, the start form and the history."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    shown = report_selectors.latest_evaluation_run(**target, finished=True)
    active = report_selectors.active_evaluation_run(**target)
    latest = report_selectors.latest_evaluation_run(**target)
    context = {
        "target": _page_target(**target),
        "form": _start_form(target),
        "run": shown,
        "sections": report_view(shown) if shown else [],
        "active": run_payload(active) if active else None,
        "failed": latest if latest is not None and latest.status == latest.Status.FAILED else None,
        "page_obj": paginate(request, report_selectors.evaluation_runs(**target), RUNS_PAGE_SIZE),
    }
    return render(request, "evaluation/report_page.html", context)


@login_required
@require_POST
def report_start(request: HttpRequest, round_id: int | None = None, project_id: int | None = None) -> HttpResponse:
    """Queue a new report with the form's settings (a project's: and the probes' chosen or uploaded inputs)."""
    target = evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
    page = redirect(f"evaluation:{target_kind(target)}_report", round_id or project_id)
    form = _start_form(target, request.POST, request.FILES)
    if form_refused(request, form, "Report not started."):
        return page
    start = evaluation_start_project_with_inputs if "project" in target else evaluation_start_round
    try:
        run = start(user=request.user, **form.start_kwargs(), **target)
    except EvaluationRefused as error:
        messages.error(request, error.message)
    except ValidationError as error:
        messages.error(request, _("Report not started. %(reason)s") % {"reason": first_message(error)})
    else:
        messages.success(request, _("Report %(id)s queued: a worker computes it; its progress shows below.") % {"id": run.pk})
    return page


@login_required
@require_safe
def run_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    """One report, finished or not (older reports stay readable next to newer ones)."""
    run = report_selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    context = {
        "run": run,
        "target": _page_target(round_=run.round, project=run.project),
        "sections": report_view(run) if run.status == run.Status.DONE else [],
        "active": run_payload(run) if run.status in run.ACTIVE else None,
    }
    return render(request, "evaluation/run_detail.html", context)


@login_required
@require_safe
def run_json_download(request: HttpRequest, run_id: int) -> HttpResponse:
    """The whole report with its provenance as one JSON file."""
    run = report_selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    return json_file_response(run_json(run), filename=f"stumper-evaluation-{run.pk}.json")


@login_required
@require_safe
def run_table_csv(request: HttpRequest, run_id: int, section: str, table: str) -> HttpResponse:
    """Any table of any section as CSV."""
    run = report_selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
    item = report_selectors.evaluation_run_table(run=run, section=section, table=table)
    if item is None:
        raise Http404(f"Report {run.pk} has no table “{table}” in section “{section}”.")
    return file_response(table_csv(item), content_type="text/csv; charset=utf-8",
                         filename=f"stumper-evaluation-{run.pk}-{section}-{table}.csv")
