"""The project form of the owner's pages (create, settings).

Forms parse what the browser sends; the services own the rules and their messages, which
``ServiceErrorsMixin`` puts next to the right field.
"""
from django import forms

from annotation.models import Project
from annotation.services.projects import EDITABLE_FIELDS
from core.forms import ServiceErrorsMixin
from modelhub.models import ModelVersion


class ProjectForm(ServiceErrorsMixin, forms.ModelForm):
    """Create (name and language too) or edit a project's settings, shown in ``FIELDSETS``."""

    # (legend, what the group is about, fields): the settings page draws one <fieldset> each.
    FIELDSETS = (
        ("Project", "", ("name", "language")),
        ("Crowdworkers", "What workers read, and whether they see the project.", ("instructions", "is_active")),
        ("Writing questions", "PQuAD asked for 5–10 questions in about 15 minutes per paragraph.",
         ("questions_min", "questions_max", "minutes_per_paragraph", "overlap")),
        ("Second pass", "Other workers answer the validation and test questions blind; their answers become "
                        "extra gold answers and measure human performance.", ("second_pass_answers",)),
        ("Model in the loop", "An extractive QA model answers each question while it is written; a question that "
                              "fools it is an adversarial example.", ("qa_model", "fool_f1_threshold")),
        ("Passages", "How imported Wikipedia articles become paragraphs (PQuAD §3). Used by the next import.",
         ("pagerank_damping", "top_articles", "paragraphs_per_article", "paragraph_min_chars", "paragraph_max_chars")),
        ("Train, validation and test splits", "Whole articles go to one split, so no article leaks between them. "
                                              "The three shares add up to 1.",
         ("train_ratio", "validation_ratio", "test_ratio", "split_seed")),
    )

    class Meta:
        model = Project
        fields = ("name", "language", *EDITABLE_FIELDS)
        widgets = {"instructions": forms.Textarea(attrs={"rows": 5, "dir": "auto"})}
        labels = {
            "instructions": "Instructions for workers", "is_active": "Open to crowdworkers",
            "questions_min": "Fewest questions per paragraph", "questions_max": "Most questions per paragraph",
            "minutes_per_paragraph": "Minutes per paragraph (a guide)", "overlap": "Workers per paragraph",
            "second_pass_answers": "Extra answers per question", "qa_model": "Model",
            "fool_f1_threshold": "“Fooled” below F1", "pagerank_damping": "PageRank damping",
            "top_articles": "Articles kept", "paragraphs_per_article": "Paragraphs kept per article",
            "paragraph_min_chars": "Shortest paragraph (characters)",
            "paragraph_max_chars": "Longest paragraph (characters)", "train_ratio": "Train share",
            "validation_ratio": "Validation share", "test_ratio": "Test share", "split_seed": "Split seed",
        }
        help_texts = {
            "name": "Unique; workers see it on their task list.",
            "language": "The paragraphs' language: Persian pages are right to left, in Persian, with Persian digits. "
                        "Fixed once the project exists.",
            "instructions": "Shown above the paragraph and, in full, on the task list; write them in the "
                            "project's language (the box follows its direction).",
            "is_active": "Closed projects disappear from the workers' task lists; nothing is deleted.",
            "questions_min": "A paragraph can be submitted from this many questions on.",
            "questions_max": "At most 50.",
            "minutes_per_paragraph": "A guide: the page shows the time spent on the paragraph against it; "
                                     "nothing stops at the limit.",
            "overlap": "Different workers who write questions on each paragraph (1 in PQuAD).",
            "second_pass_answers": "Per validation/test question; 0 turns the second pass off.",
            "qa_model": "A registered extractive QA model version; or train one on this project's answered "
                        "questions from the project page.",
            "fool_f1_threshold": "A question fools the model when the F1 of the model's answer against the worker's "
                                 "is below this (0–1).",
            "pagerank_damping": "0–1; PQuAD used 0.4.",
            "top_articles": "Only the highest-ranked articles of an import are kept.",
            "paragraphs_per_article": "The introduction and the paragraphs after it, up to this many.",
            "paragraph_min_chars": "Shorter paragraphs are skipped (PQuAD: 500).",
            "paragraph_max_chars": "Longer paragraphs are skipped (PQuAD: 1100).",
            "train_ratio": "0–1", "validation_ratio": "0–1", "test_ratio": "0–1",
            "split_seed": "The same seed gives the same split of the same articles.",
        }

    def __init__(self, *args, creating: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["qa_model"].queryset = ModelVersion.objects.filter(kind=ModelVersion.Kind.QUESTION_ANSWERING)
        self.fields["qa_model"].empty_label = "No model in the loop"
        if not creating:
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
