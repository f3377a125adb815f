"""The round's quality report page (accuracy, agreement, validators, coach); its settings are on the
round settings page with all the others."""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from collector.presentation.quality import accuracy_chart, coach_chart, item_map_chart, workload_chart
from collector.presentation.training import training_job_card
from collector.selectors.coach import coach_notes
from collector.selectors.item_quality import round_item_quality
from collector.selectors.quality import round_quality_report
from collector.selectors.rounds import round_for_manager
from collector.selectors.training import answer_only_job_latest
from core.charts import chart_view


@login_required
@require_safe
def round_quality(request: HttpRequest, round_id: int) -> HttpResponse:
    """The round's quality report (accuracy, agreement, validators, coach); its settings are on
    the round settings page with all the others."""
    round_ = round_for_manager(user=request.user, round_id=round_id)
    report = round_quality_report(round_=round_)
    context = {
        "round": round_, "report": report, "notes": coach_notes(round_=round_),
        "answer_only_job": training_job_card(job) if (job := answer_only_job_latest(round_=round_)) else None,
        **{f"{name}_chart": chart_view(f"{name}-chart", chart) if chart else None
           for name, chart in (("accuracy", accuracy_chart(report)), ("workload", workload_chart(report)),
                               ("coach", coach_chart(report)),
                               ("item_map", item_map_chart(round_item_quality(round_=round_))))},
    }
    return render(request, "collector/round_quality.html", context)
