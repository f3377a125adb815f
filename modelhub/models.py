"""The model registry: every model the apps serve or train, where its weights are, how it did.

A model fine-tuned on a course's questions belongs to that course (``course``): only its
instructors see it and may serve it, unless they share it with every instructor (``shared``).
A model without a course (the packaged version 0, one the operator registered) is public
(``modelhub.selectors.models_usable_by``).

The table keeps the name it had in the collector app (``db_table``), so an existing database
moved to this app without copying a row (migration ``modelhub/0001``).
"""
import re

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Settings a kind reads from ``ModelVersion.options`` (all strings); any other key is refused.
KIND_OPTIONS: dict[str, frozenset[str]] = {
    "causal_lm": frozenset({"normalization"}),
    "openai_compatible": frozenset({"model", "api_key_env"}),
}
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


class ModelVersion(models.Model):
    """A registered model: where its weights are and how well it did."""

    class Kind(models.TextChoices):
        ZERO_SHOT = "zero_shot_embedding", _("Zero-shot sentence-embedding scorer")
        MULTIPLE_CHOICE = "multiple_choice", _("Fine-tuned multiple-choice model")
        QUESTION_ANSWERING = "question_answering", _("Extractive question answering")
        CAUSAL_LM = "causal_lm", _("Causal language model (log-likelihood of each completion)")
        OPENAI_COMPATIBLE = "openai_compatible", _("OpenAI-compatible chat-completions endpoint")

    name = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    path = models.CharField(
        max_length=500, help_text="Local folder, hub id or packaged:all-MiniLM-L6-v2; an endpoint's base URL (…/v1)",
    )
    revision = models.CharField(max_length=64, blank=True)
    metrics = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)
    base = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="derived")
    # PROTECT: a course is not deleted from under its models (SET_NULL would make them public).
    course = models.ForeignKey(
        "courses.Course", null=True, blank=True, on_delete=models.PROTECT, related_name="trained_models",
        help_text="The course whose questions trained it: only its instructors see and serve it unless shared. "
                  "Blank: public (a packaged model or one the operator registered).",
    )
    shared = models.BooleanField(
        default=False, help_text="Every instructor may see it and serve it in their rounds, not only its course's.",
    )
    options = models.JSONField(
        default=dict, blank=True,
        help_text="The kind's settings: normalization (causal LM); model and api_key_env, the NAME of the "
                  "environment variable holding the key, never the key (endpoint)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "collector_modelversion"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Options are string settings the kind knows; an API key variable is a name, never a key."""
        super().clean()
        options = self.options or {}
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise ValidationError({"options": _("Options must be an object of text settings.")})
        unknown = sorted(set(options) - KIND_OPTIONS.get(self.kind, frozenset()))
        if unknown:
            raise ValidationError({"options": _("Unknown options for this kind: %(names)s.") % {"names": ", ".join(unknown)}})
        env = options.get("api_key_env", "")
        if env and not _ENV_NAME.fullmatch(env):
            raise ValidationError({"options": _("api_key_env must be the name of an environment variable "
                                                "(letters, digits and _), not the key itself.")})
