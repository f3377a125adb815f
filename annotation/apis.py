"""JSON API of span annotation: one ``APIView`` per operation (token or session auth).

The annotation page uses these too; the worker's ones answer in the language of the worker's page
(``annotation.api_language``). Services raise ``ValidationError`` (400 with field errors)
and ``AccessError`` (403 with its message) through collector's ``ApiErrorsMixin``; a second answer
to a second-pass question is 409 (the first is final). The SQuAD export
(``projects/<id>/export/``), which can add an evaluation report's weights, is
``evaluation.export_apis.ProjectExportApi``.
"""
from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation import selectors, services
from annotation.api_language import WorkerLanguageMixin
from annotation.exceptions import AnswerFinal
from annotation.models import AnnotationSession, QuestionFlag
from annotation.presentation import question_payload, session_payload
from annotation.stats import project_stats
from core.apis import MAX_ID, ApiErrorsMixin


class _AnswerFields(serializers.Serializer):
    # Offsets are checked by the service against the paragraph (its messages say what is wrong).
    is_impossible = serializers.BooleanField(required=False, default=False)
    answer = serializers.JSONField(required=False, allow_null=True, default=None,
                                   help_text='{"text", "answer_start"} in code points (SQuAD convention)')
    selection = serializers.JSONField(required=False, allow_null=True, default=None,
                                      help_text='{"start16", "end16"}: a browser selection in UTF-16 units')


class TaskNextApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST: resume the worker's unfinished paragraph in the project, or start the next one."""

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=AnnotationSession.Kind.choices, default=AnnotationSession.Kind.AUTHORING)

    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = selectors.project_for_worker(user=request.user, project_id=project_id)
        session = services.session_start_next(user=request.user, project=project, kind=serializer.validated_data["kind"])
        if session is None:
            return Response({"session": None, "detail": _("No paragraph needs this kind of work right now.")})
        return Response({"session": session_payload(session)})


class SessionDetailApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """GET a session's paragraph, the worker's questions (or the questions to answer) and draft."""

    def get(self, request: Request, session_id: int) -> Response:
        return Response(session_payload(selectors.session_for_worker(user=request.user, session_id=session_id)))


class SessionDraftSaveApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST the question being typed so a reload restores it."""

    class InputSerializer(serializers.Serializer):
        draft = serializers.JSONField()

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        session = services.session_draft_save(session=session, user=request.user, draft=serializer.validated_data["draft"])
        return Response({"draft": session.draft})


class QuestionAddApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a question with its span (``answer`` or ``selection``) or ``is_impossible``; stored as a draft."""

    class InputSerializer(_AnswerFields):
        question = serializers.CharField(allow_blank=True, trim_whitespace=False)

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        question = services.question_add(session=session, user=request.user, **serializer.validated_data)
        return Response(question_payload(question, session.paragraph.context), status=status.HTTP_201_CREATED)


class QuestionUpdateApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST new text and answer for a draft question."""

    class InputSerializer(_AnswerFields):
        question = serializers.CharField(allow_blank=True, trim_whitespace=False)

    def post(self, request: Request, question_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        question = selectors.question_for_worker(user=request.user, question_id=question_id)
        question = services.question_update(question=question, user=request.user, question_text=data.pop("question"),
                                            **data)
        return Response(question_payload(question, question.paragraph.context))


class QuestionDeleteApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to delete a draft question."""

    def post(self, request: Request, question_id: int) -> Response:
        question = selectors.question_for_worker(user=request.user, question_id=question_id)
        services.question_delete(question=question, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionSubmitApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to submit the paragraph: its drafts, or ``questions`` (a full list replacing them).

    For a second-pass session every question must have been answered first.
    """

    class InputSerializer(serializers.Serializer):
        questions = serializers.ListField(child=serializers.JSONField(), required=False, allow_null=True,
                                          default=None, max_length=100)

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        if session.kind == AnnotationSession.Kind.SECOND_PASS:
            session = services.second_pass_submit(session=session, user=request.user)
        else:
            session = services.session_submit(session=session, user=request.user,
                                              questions=serializer.validated_data["questions"])
        return Response(session_payload(session))


class SessionDiscardApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST to discard the paragraph with a reason (hard to understand, too many foreign words, other)."""

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField()
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        session = services.session_discard(session=session, user=request.user, **serializer.validated_data)
        return Response({"id": session.pk, "status": session.status})


class SecondPassAnswerApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a blind answer (span or unanswerable) to one question, with an optional flag on the original.

    The first answer is final: another answer to the same question is 409 and changes nothing
    (after the reveal, flag the original through ``SecondPassFlagApi`` instead).
    """

    class InputSerializer(_AnswerFields):
        question_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        flag = serializers.JSONField(required=False, allow_null=True, default=None,
                                     help_text='{"proposal": "fix_answer" | "mark_unanswerable" | "remove_question", '
                                               '"reason": str}')

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        try:
            answer = services.second_pass_answer_save(session=session, user=request.user, **serializer.validated_data)
        except AnswerFinal as error:
            return Response({"detail": error.detail, "question_id": serializer.validated_data["question_id"]},
                            status=status.HTTP_409_CONFLICT)
        return Response({"question_id": answer.question_id, "is_impossible": answer.is_impossible,
                         "text": answer.text, "answer_start": answer.answer_start}, status=status.HTTP_201_CREATED)


class SecondPassFlagApi(WorkerLanguageMixin, ApiErrorsMixin, APIView):
    """POST a flag on the original answer of a question the worker has answered (after the reveal).

    A proposal for the project's owner, never an answer: ``fix_answer`` proposes the span given
    (``answer`` or ``selection``, else the worker's own answer), ``mark_unanswerable`` and
    ``remove_question`` need none. The worker's answer stays as it was.
    """

    class InputSerializer(serializers.Serializer):
        question_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        proposal = serializers.ChoiceField(choices=QuestionFlag.Proposal.choices)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
        answer = serializers.JSONField(required=False, allow_null=True, default=None,
                                       help_text='The proposed span: {"text", "answer_start"} in code points')
        selection = serializers.JSONField(required=False, allow_null=True, default=None,
                                          help_text='The proposed span: {"start16", "end16"} in UTF-16 units')

    def post(self, request: Request, session_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = selectors.session_for_worker(user=request.user, session_id=session_id)
        flag = services.second_pass_flag_save(session=session, user=request.user, **serializer.validated_data)
        return Response({"id": flag.pk, "question_id": flag.question_id, "proposal": flag.proposal,
                         "reason": flag.reason, "proposed_text": flag.proposed_text,
                         "proposed_start": flag.proposed_start, "after_reveal": flag.after_reveal,
                         "status": flag.status}, status=status.HTTP_201_CREATED)


class ProjectStatsApi(ApiErrorsMixin, APIView):
    """GET a project's progress per split, unanswerable share, model fooling rate and human performance
    (from ``human_performance_answers`` blind second-pass answers)."""

    def get(self, request: Request, project_id: int) -> Response:
        project = selectors.project_for_owner(user=request.user, project_id=project_id)
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
