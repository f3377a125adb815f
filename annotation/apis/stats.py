"""GET /api/annotation/projects/<id>/stats/: the numbers of the project dashboard, for its owner.

The SQuAD export (``projects/<id>/export/``), which can add an evaluation report's weights, is
``evaluation.apis.exports.ProjectExportApi``.
"""
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.selectors.projects import project_for_owner
from annotation.selectors.stats import project_stats
from core.apis import ApiErrorsMixin


class ProjectStatsApi(ApiErrorsMixin, APIView):
    """GET a project's progress per split, unanswerable share, model fooling rate and human performance
    (from ``human_performance_answers`` blind second-pass answers)."""

    def get(self, request: Request, project_id: int) -> Response:
        project = project_for_owner(user=request.user, project_id=project_id)
        stats = project_stats(project=project)
        return Response({
            "project": project.name,
            "splits": [{"split": s.split, "articles": s.articles, "paragraphs": s.paragraphs, "open": s.open,
                        "done": s.done, "discarded": s.discarded, "questions": s.questions,
                        "unanswerable": s.unanswerable, "second_pass_answers": s.second_pass_answers}
                       for s in stats.splits],
            "questions": stats.questions, "unanswerable_share": stats.unanswerable_share,
            "questions_per_paragraph": dict(stats.questions_per_paragraph),
            "answer_words": dict(stats.answer_words),
            "human_performance": [{"normalizer": h.normalizer, "exact": h.exact, "f1": h.f1, "n": h.n,
                                   "HasAns_exact": h.has_ans_exact, "HasAns_f1": h.has_ans_f1,
                                   "NoAns_exact": h.no_ans_exact, "NoAns_f1": h.no_ans_f1} for h in stats.human],
            # Human performance is computed only from blind (first, final) second-pass answers.
            "human_performance_answers": stats.blind_answers,
            "human_performance_left_out": stats.blind_left_out,
            "model": {"predicted": stats.predicted, "fooled": stats.fooled, "fooled_share": stats.fooled_share},
            "open_flags": stats.open_flags,
        })
