"""A worker's session on a paragraph and what it writes: questions and their gold answer spans."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from annotation.models.projects import Paragraph, Project
from mlcore.data.spans import SpanError, check_span


class AnnotationSession(models.Model):
    """One worker's work on one paragraph: writing questions, or answering others' (second pass).

    ``draft`` holds the question being typed (text and selection) so a reload loses nothing;
    added questions are ``SpanQuestion`` rows in ``draft`` status until the session is submitted.
    """

    class Kind(models.TextChoices):
        AUTHORING = "authoring", "Writing questions"
        SECOND_PASS = "second_pass", "Answering questions (second pass)"

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        SUBMITTED = "submitted", "Submitted"
        DISCARDED = "discarded", "Discarded the paragraph"

    class DiscardReason(models.TextChoices):
        HARD_TO_UNDERSTAND = "hard_to_understand", "Hard to understand"
        FOREIGN_WORDS = "foreign_words", "Too many words not in the project's language"
        OTHER = "other", "Other"

    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, related_name="sessions")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="annotation_sessions")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.AUTHORING)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True)
    draft = models.JSONField(default=dict, blank=True)
    discard_reason = models.CharField(max_length=24, choices=DiscardReason.choices, blank=True)
    discard_note = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    # Time on the paragraph: the page's heartbeats add up while it is open (gaps longer than
    # services.session_time.HEARTBEAT_GAP_MAX, a closed page, do not count).
    active_seconds = models.PositiveIntegerField(default=0)
    last_active_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            # A worker never gets the same paragraph twice for the same kind of work.
            models.UniqueConstraint(fields=["paragraph", "worker", "kind"], name="unique_session_per_worker"),
        ]

    def __str__(self) -> str:
        return f"{self.worker} on {self.paragraph_id} ({self.kind}, {self.status})"


class SpanQuestion(models.Model):
    """A question on a paragraph (``qid`` is its SQuAD id, unique within the project).

    The model-in-the-loop fields store what the project's QA model answered when the
    question was added, with the model's name and revision.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (editable)"
        SUBMITTED = "submitted", "Submitted"
        REMOVED = "removed", "Removed after a flag"

    class Source(models.TextChoices):
        AUTHORED = "authored", "Authored"
        IMPORTED = "imported", "Imported"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="questions")
    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, related_name="questions")
    session = models.ForeignKey(AnnotationSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="questions")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="span_questions")
    qid = models.CharField("SQuAD id", max_length=64)
    question = models.TextField()
    is_impossible = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.AUTHORED)
    position = models.PositiveIntegerField(default=0, help_text="Order within the paragraph")
    # SQuAD 2.0's plausible (but wrong) answers of unanswerable questions, kept for export only.
    plausible_answers = models.JSONField(default=list, blank=True)
    # Model in the loop.
    qa_model_version = models.ForeignKey("modelhub.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    qa_model_revision = models.CharField(max_length=64, blank=True)
    qa_prediction_text = models.TextField(blank=True)
    qa_prediction_start = models.IntegerField(null=True, blank=True)
    qa_prediction_f1 = models.FloatField(null=True, blank=True)
    fooled_model = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["paragraph_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["project", "qid"], name="unique_question_qid")]
        indexes = [models.Index(fields=["paragraph", "status"])]

    def __str__(self) -> str:
        return self.question[:60]


class SpanAnswer(models.Model):
    """One gold answer span of a question; unanswerable questions have none."""

    class Kind(models.TextChoices):
        ORIGINAL = "original", "Original (the question's author)"
        SECOND_PASS = "second_pass", "Second pass"
        CORRECTION = "correction", "Correction after a flag"
        IMPORTED = "imported", "Imported"

    question = models.ForeignKey(SpanQuestion, on_delete=models.CASCADE, related_name="answers")
    text = models.TextField()
    answer_start = models.PositiveIntegerField(help_text="Offset in code points into the paragraph's context")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="span_answers")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ORIGINAL)
    position = models.PositiveIntegerField(default=0, help_text="Order in the exported answers list")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question_id", "position", "id"]

    def __str__(self) -> str:
        return f"{self.text[:40]} @{self.answer_start}"

    def clean(self) -> None:
        # The one invariant of SQuAD data, checked here too so admin edits cannot break it.
        if self.question_id is None or self.answer_start is None:
            return
        try:
            check_span(self.question.paragraph.context, self.text, self.answer_start)
        except SpanError as error:
            raise ValidationError({"text": str(error)}) from None
        if self.question.is_impossible:
            raise ValidationError({"text": "An unanswerable question has no answer spans."})
