"""The release form after a refused download: what the person chose and why no release was made.

The form (``evaluation/_release_form.html``, on the round page and the project dashboard) asks for
a zip with GET; a release that cannot be made sends the browser back to the page. The choices and
the refusal travel in the session, one at a time, from ``views/releases.py`` (``release_form_refused``)
to the form (``templatetags/evaluation_releases.py``, ``release_form_state``), which shows the
message beside the field it is about, in the page's words, with the choices kept.
"""
import time
from dataclasses import dataclass, field

from evaluation.selectors.releases import ReleaseError

SESSION_KEY = "evaluation:release_form"
#: A refusal is for the page the browser is sent back to, not for a visit much later.
KEPT_SECONDS = 600
#: The form's inputs (query parameters); ``fields`` is a list.
INPUTS = ("status", "split_by", "license", "source_dataset", "authors")
#: The page's words for what would make the release (``ReleaseError.fix``).
FIX_WORDS = {
    ("status", "all"): "Choose “All submitted” under Questions.",
    ("split_by", "author"): "Choose “By author” under Splits.",
    ("split_by", "article"): "Choose “The articles' train/validation/test” under Splits.",
}
#: The form's element ids (without the ``-<kind>`` suffix) and labels, per option.
FIELD_ELEMENTS = {
    "status": ("release-status", "Questions"), "split_by": ("release-split", "Splits"),
    "fields": ("release-fields", "Per-question fields"), "license": ("release-license", "License"),
    "source_dataset": ("release-source", "Source dataset"), "authors": ("release-authors", "Authors"),
}


@dataclass(frozen=True)
class ReleaseFormState:
    """The form's values (``None``: its defaults) and the refusal to show (``error`` blank: none)."""

    values: dict = field(default_factory=dict)
    fields: tuple[str, ...] = ()
    error: str = ""
    about: str = ""  # the option the error is about ("" when it is about the round or project)

    def summary_items(self, kind: str) -> list[dict]:
        """The error as ``templates/includes/error_summary.html`` lists it, linked to its field."""
        if not self.error:
            return []
        element, label = FIELD_ELEMENTS.get(self.about, ("", ""))
        return [{"id": f"{element}-{kind}" if element else "", "label": label, "messages": [self.error]}]


def release_form_refused(session, *, target: str, query, error: ReleaseError) -> None:
    """Keep the choices of a refused download (``query``) and the reason, for ``target``'s page."""
    session[SESSION_KEY] = {
        "target": target, "values": {name: query.get(name, "") for name in INPUTS},
        "fields": [part for value in query.getlist("fields") for part in value.split(",") if part.strip()],
        "error": error.worded(lambda option, value: FIX_WORDS.get((option, value), "")).strip(),
        "about": error.field or "", "at": time.time(),
    }


def release_form_state(session, *, target: str) -> ReleaseFormState:
    """The refusal kept for ``target`` (e.g. ``round:3``), taken out of the session: shown once."""
    kept = session.get(SESSION_KEY)
    if not kept or kept.get("target") != target:
        return ReleaseFormState()
    del session[SESSION_KEY]
    if time.time() - kept.get("at", 0) > KEPT_SECONDS:
        return ReleaseFormState()
    return ReleaseFormState(values=kept["values"], fields=tuple(kept["fields"]), error=kept["error"],
                            about=kept["about"])
