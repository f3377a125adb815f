"""Files a project owner uploaded for the ambiguity probes of its reports."""
from django.conf import settings
from django.db import models


class AmbiguityDataset(models.Model):
    """A file a project owner uploaded for the ambiguity probes, stored as validated text.

    ``questions``: selectional-ambiguity questions (JSON Lines, the format of Mao et al.'s
    doubly-eponymous set); ``occupations``: an occupation list in UnQover's format, in the
    passages' language. A report records which one it used (``EvaluationRun.snapshot``).
    """

    class Kind(models.TextChoices):
        QUESTIONS = "questions", "Selectional-ambiguity questions"
        OCCUPATIONS = "occupations", "Occupation list"

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="ambiguity_datasets")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    name = models.CharField(max_length=200, help_text="The uploaded file's name")
    content = models.TextField()
    sha256 = models.CharField(max_length=64)
    items = models.PositiveIntegerField(help_text="Questions or occupations in the file")
    script = models.CharField(max_length=32, blank=True, help_text="Writing system of the occupations")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # The same file uploaded twice to a project is one dataset.
            models.UniqueConstraint(fields=["project", "kind", "sha256"], name="one_ambiguity_dataset_per_content"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display().lower()}, {self.items})"

    @property
    def label(self) -> str:
        """How reports and forms name it: the file name, what it holds and when it came."""
        what = "questions" if self.kind == self.Kind.QUESTIONS else "occupations"
        script = f", {self.script} script" if self.script else ""
        return f"{self.name} ({self.items} {what}{script}, uploaded {self.created_at:%Y-%m-%d})"

