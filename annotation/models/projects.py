"""Projects and their passages: a project holds articles (one split each), an article paragraphs.

The data model follows PQuAD/SQuAD 2.0: a project holds articles (one split each, so no
article's paragraphs leak between train and evaluation), an article holds paragraphs, a
paragraph holds questions (``annotation.models.authoring``), and a question holds zero
(unanswerable) or more gold spans. Every ``answer_start`` is an offset in Python characters
(code points) into ``Paragraph.context`` and ``text == context[answer_start:answer_start + len(text)]``;
the services enforce this with ``mlcore.data.spans``.
"""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    ENGLISH = "en", _("English")
    PERSIAN = "fa", _("Persian")


class Split(models.TextChoices):
    TRAIN = "train", _("Train")
    VALIDATION = "validation", _("Validation")
    TEST = "test", _("Test")


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
    # Where imported questions come from, recorded by the SQuAD import (docs/release.md).
    source_dataset = models.CharField(
        max_length=200, blank=True, help_text="Hub id of the dataset imported questions come from (e.g. squad_v2)",
    )
    source_license = models.CharField(
        max_length=64, blank=True, help_text="Hub license id of the imported questions (e.g. cc-by-sa-4.0)",
    )
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
        OPEN = "open", _("Needs questions")
        DONE = "done", _("Done")
        DISCARDED = "discarded", _("Discarded")

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
