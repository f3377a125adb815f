"""The project form of the owner's pages (create, settings).

Forms parse what the browser sends; the services own the rules and their messages, which
``ServiceErrorsMixin`` puts next to the right field.
"""
from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Project
from annotation.services.projects import EDITABLE_FIELDS
from core.forms import ServiceErrorsMixin
from modelhub.models import ModelVersion


class ProjectForm(ServiceErrorsMixin, forms.ModelForm):
    """Create (name and language too) or edit a project's settings, shown in ``FIELDSETS``."""

    # (legend, what the group is about, fields): the settings page draws one <fieldset> each.
    FIELDSETS = (
        (_("Project"), "", ("name", "language")),
        (_("Crowdworkers"), _("What workers read, and whether they see the project."), ("instructions", "is_active")),
        (_("Writing questions"), _("PQuAD asked for 5–10 questions in about 15 minutes per paragraph."),
         ("questions_min", "questions_max", "minutes_per_paragraph", "overlap")),
        (_("Second pass"), _("Other workers answer the validation and test questions blind; their answers become "
                        "extra gold answers and measure human performance."), ("second_pass_answers",)),
        (_("Model in the loop"), _("An extractive QA model answers each question while it is written; a question that "
                              "fools it is an adversarial example."), ("qa_model", "fool_f1_threshold")),
        (_("Passages"), _("How imported Wikipedia articles become paragraphs (PQuAD §3). Used by the next import."),
         ("pagerank_damping", "top_articles", "paragraphs_per_article", "paragraph_min_chars", "paragraph_max_chars")),
        (_("Train, validation and test splits"), _("Whole articles go to one split, so no article leaks between them. "
                                              "The three shares add up to 1."),
         ("train_ratio", "validation_ratio", "test_ratio", "split_seed")),
    )

    class Meta:
        model = Project
        fields = ("name", "language", *EDITABLE_FIELDS)
        widgets = {"instructions": forms.Textarea(attrs={"rows": 5, "dir": "auto"})}
        labels = {
            "instructions": _("Instructions for workers"), "is_active": _("Open to crowdworkers"),
            "questions_min": _("Fewest questions per paragraph"), "questions_max": _("Most questions per paragraph"),
            "minutes_per_paragraph": _("Minutes per paragraph (a guide)"), "overlap": _("Workers per paragraph"),
            "second_pass_answers": _("Extra answers per question"), "qa_model": _("Model"),
            "fool_f1_threshold": _("“Fooled” below F1"), "pagerank_damping": _("PageRank damping"),
            "top_articles": _("Articles kept"), "paragraphs_per_article": _("Paragraphs kept per article"),
            "paragraph_min_chars": _("Shortest paragraph (characters)"),
            "paragraph_max_chars": _("Longest paragraph (characters)"), "train_ratio": _("Train share"),
            "validation_ratio": _("Validation share"), "test_ratio": _("Test share"), "split_seed": _("Split seed"),
        }
        help_texts = {
            "name": _("Unique; workers see it on their task list."),
            "language": _("The paragraphs' language: Persian pages are right to left, in Persian, with Persian digits. "
                        "Fixed once the project exists."),
            "instructions": _("Shown above the paragraph and, in full, on the task list; write them in the "
                            "project's language (the box follows its direction)."),
            "is_active": _("Closed projects disappear from the workers' task lists; nothing is deleted."),
            "questions_min": _("A paragraph can be submitted from this many questions on."),
            "questions_max": _("At most 50."),
            "minutes_per_paragraph": _("A guide: the page shows the time spent on the paragraph against it; "
                                     "nothing stops at the limit."),
            "overlap": _("Different workers who write questions on each paragraph (1 in PQuAD)."),
            "second_pass_answers": _("Per validation/test question; 0 turns the second pass off."),
            "qa_model": _("A registered extractive QA model version; or train one on this project's answered "
                        "questions from the project page."),
            "fool_f1_threshold": _("A question fools the model when the F1 of the model's answer against the worker's "
                                 "is below this (0–1)."),
            "pagerank_damping": _("0–1; PQuAD used 0.4."),
            "top_articles": _("Only the highest-ranked articles of an import are kept."),
            "paragraphs_per_article": _("The introduction and the paragraphs after it, up to this many."),
            "paragraph_min_chars": _("Shorter paragraphs are skipped (PQuAD: 500)."),
            "paragraph_max_chars": _("Longer paragraphs are skipped (PQuAD: 1100)."),
            "train_ratio": _("0–1"), "validation_ratio": _("0–1"), "test_ratio": _("0–1"),
            "split_seed": _("The same seed gives the same split of the same articles."),
        }

    def __init__(self, *args, creating: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["qa_model"].queryset = ModelVersion.objects.filter(kind=ModelVersion.Kind.QUESTION_ANSWERING)
        self.fields["qa_model"].empty_label = _("No model in the loop")
        if creating:  # the model's field names, in the reader's language
            self.fields["name"].label, self.fields["language"].label = _("Name"), _("Language")
        else:
            # The language decides direction and normalisation of everything already collected.
            del self.fields["name"], self.fields["language"]
            self.fields["instructions"].widget.attrs.update({"dir": self.instance.direction,
                                                             "lang": self.instance.language})

    def fieldsets(self, exclude: tuple[str, ...] = ()) -> list[tuple[str, str, list]]:
        """``FIELDSETS`` with bound fields, leaving out fields this form does not have or ``exclude``."""
        out = []
        for legend, about, names in self.FIELDSETS:
            fields = [self[name] for name in names if name in self.fields and name not in exclude]
            if fields:
                out.append((legend, about, fields))
        return out
