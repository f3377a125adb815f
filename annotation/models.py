"""Reading-comprehension span annotation: projects, passages, questions, answers, flags.

The data model follows PQuAD/SQuAD 2.0: a project holds articles (one split each, so no
article's paragraphs leak between train and evaluation), an article holds paragraphs, a
paragraph holds questions, and a question holds zero (unanswerable) or more gold spans.
Every ``answer_start`` is an offset in Python characters (code points) into
``Paragraph.context`` and ``text == context[answer_start:answer_start + len(text)]``;
the services enforce this with ``mlcore.data.spans``.
"""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


class Language(models.TextChoices):
    ENGLISH = "en", "English"
    PERSIAN = "fa", "Persian"


class Split(models.TextChoices):
    TRAIN = "train", "Train"
    VALIDATION = "validation", "Validation"
    TEST = "test", "Test"


RTL_LANGUAGES = frozenset({Language.PERSIAN})


class Project(models.Model):
    """A collection campaign over one language's passages, owned by an instructor."""

    name = models.CharField(max_length=100, unique=True)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.ENGLISH)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="annotation_projects")
    instructions = models.TextField(blank=True)
    is_active = models.BooleanField(default=True, help_text="Crowdworkers only see active projects")
    invite_only = models.BooleanField(
        default=False, help_text="Only crowdworkers who joined by an invite link see the project",
    )
    # Authoring (PQuAD: 5-10 questions in about 15 minutes per paragraph).
    questions_min = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1)])
    questions_max = models.PositiveSmallIntegerField(default=10, validators=[MinValueValidator(1), MaxValueValidator(50)])
    minutes_per_paragraph = models.PositiveSmallIntegerField(default=15, validators=[MinValueValidator(1)])
    overlap = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="Different workers who write questions on each paragraph",
    )
    second_pass_answers = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(0), MaxValueValidator(10)],
        help_text="Extra answers collected per validation/test question (0 turns the second pass off)",
    )
    # Model in the loop.
    qa_model = models.ForeignKey(
        "modelhub.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="annotation_projects",
        limit_choices_to={"kind": "question_answering"},
        help_text="Extractive QA model that answers while the worker writes (blank: no model in the loop)",
    )
    fool_f1_threshold = models.FloatField(
        default=0.4, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text="A question fools the model when the prediction's F1 against the worker's answer is below this",
    )
    # Passage selection (PQuAD §3: PageRank with damping 0.4, intro + first 20 paragraphs of 500-1100 chars).
    pagerank_damping = models.FloatField(default=0.4, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    top_articles = models.PositiveIntegerField(default=1000, validators=[MinValueValidator(1)])
    paragraphs_per_article = models.PositiveSmallIntegerField(default=20, validators=[MinValueValidator(1)])
    paragraph_min_chars = models.PositiveIntegerField(default=500)
    paragraph_max_chars = models.PositiveIntegerField(default=1100)
    train_ratio = models.FloatField(default=0.8, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    validation_ratio = models.FloatField(default=0.1, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    test_ratio = models.FloatField(default=0.1, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    split_seed = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_rtl(self) -> bool:
        return self.language in RTL_LANGUAGES

    @property
    def direction(self) -> str:
        return "rtl" if self.is_rtl else "ltr"

    def clean(self) -> None:
        errors = {}
        if self.questions_min > self.questions_max:
            errors["questions_min"] = "The minimum number of questions is larger than the maximum."
        if self.paragraph_min_chars > self.paragraph_max_chars:
            errors["paragraph_min_chars"] = "The minimum paragraph length is larger than the maximum."
        if abs(self.train_ratio + self.validation_ratio + self.test_ratio - 1.0) > 1e-6:
            errors["train_ratio"] = "The train, validation and test ratios must add up to 1."
        if errors:
            raise ValidationError(errors)


class Article(models.Model):
    """A Wikipedia article; its split holds for all its paragraphs."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="articles")
    title = models.CharField(max_length=300)
    split = models.CharField(max_length=16, choices=Split.choices, default=Split.TRAIN, db_index=True)
    pagerank = models.FloatField(null=True, blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="1 = highest PageRank in the import")
    has_infobox = models.BooleanField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0, help_text="Order in the imported file")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["project", "title"], name="unique_article_title")]

    def __str__(self) -> str:
        return self.title


class Paragraph(models.Model):
    """One passage; workers write questions on it until ``overlap`` of them submitted."""

    class Status(models.TextChoices):
        OPEN = "open", "Needs questions"
        DONE = "done", "Done"
        DISCARDED = "discarded", "Discarded"

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="paragraphs")
    position = models.PositiveIntegerField(help_text="0 = the introduction")
    context = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["article_id", "position"]
        constraints = [models.UniqueConstraint(fields=["article", "position"], name="unique_paragraph_position")]

    def __str__(self) -> str:
        return f"{self.article.title} ¶{self.position}"

    @property
    def split(self) -> str:
        return self.article.split


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
        from mlcore.data.spans import SpanError, check_span

        if self.question_id is None or self.answer_start is None:
            return
        try:
            check_span(self.question.paragraph.context, self.text, self.answer_start)
        except SpanError as error:
            raise ValidationError({"text": str(error)}) from None
        if self.question.is_impossible:
            raise ValidationError({"text": "An unanswerable question has no answer spans."})


class SecondPassAnswer(models.Model):
    """A second-pass worker's blind answer to an existing question: a span or "unanswerable".

    Final once stored (one per worker and question, written once by ``second_pass_answer_save``):
    the original answer is revealed right after it, so a later answer would no longer be blind.
    The span, if any, is also stored as an extra gold ``SpanAnswer``; this row keeps who said
    what so human performance (against the first answer) can be computed. What the worker
    thinks after the reveal is a ``QuestionFlag`` (``after_reveal``), never an answer.
    """

    question = models.ForeignKey(SpanQuestion, on_delete=models.CASCADE, related_name="second_pass_answers")
    session = models.ForeignKey(AnnotationSession, on_delete=models.CASCADE, related_name="second_pass_answers")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="second_pass_answers")
    is_impossible = models.BooleanField(default=False)
    span = models.OneToOneField(SpanAnswer, null=True, blank=True, on_delete=models.SET_NULL, related_name="second_pass")
    text = models.TextField(blank=True, help_text="The answered text ('' = unanswerable), kept even if the span is removed")
    answer_start = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question_id", "created_at"]
        constraints = [models.UniqueConstraint(fields=["question", "worker"], name="unique_second_pass_answer")]

    def __str__(self) -> str:
        return f"{self.worker} on {self.question_id}"


class QuestionFlag(models.Model):
    """A second-pass worker's report that a question's original answer is wrong; the owner resolves it.

    A proposed span (``fix_answer``) is a correction for the owner to accept or reject: it never
    counts as the worker's answer, and ``after_reveal`` says whether the worker had seen the
    original answer when proposing it.
    """

    class Proposal(models.TextChoices):
        FIX_ANSWER = "fix_answer", "Replace the answer with the proposed span"
        MARK_UNANSWERABLE = "mark_unanswerable", "The question cannot be answered from the paragraph"
        REMOVE_QUESTION = "remove_question", "Remove the question"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    question = models.ForeignKey(SpanQuestion, on_delete=models.CASCADE, related_name="flags")
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="question_flags")
    session = models.ForeignKey(AnnotationSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="flags")
    proposal = models.CharField(max_length=24, choices=Proposal.choices)
    reason = models.TextField(blank=True)
    proposed_text = models.TextField(blank=True)
    proposed_start = models.PositiveIntegerField(null=True, blank=True)
    after_reveal = models.BooleanField(
        default=False, help_text="Raised after the worker saw the original answer (a proposal, not a blind answer)",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    resolution_note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["question", "raised_by"], name="unique_flag_per_worker")]

    def __str__(self) -> str:
        return f"{self.get_proposal_display()} on {self.question_id} ({self.status})"


from annotation.invite_models import ProjectInvite, ProjectMember  # noqa: E402, F401
from annotation.job_models import QATrainingJob  # noqa: E402, F401
