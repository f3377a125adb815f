// After a refused save a form's error summary (templates/includes/error_summary.html) lists every
// problem at its top. Here: each line's link focuses its field (a plain #id link would only scroll,
// and not to a radio group's first button), and the focus goes to the summary, so that the person
// who pressed the button sees, and a screen reader reads, what went wrong; data-error-summary="field"
// focuses the first field in error instead (the authoring form, where the author goes on typing).

function focusField(id) {
  const field = document.getElementById(id);
  if (field && typeof field.focus === "function") {
    field.focus();
    return true;
  }
  return false;
}

const summaries = Array.from(document.querySelectorAll("[data-error-summary]"));
summaries.forEach((summary) => {
  summary.querySelectorAll("[data-field-link]").forEach((link) => {
    link.addEventListener("click", (event) => {
      if (focusField(link.dataset.fieldLink)) {
        event.preventDefault();
      }
    });
  });
});

// Without errors, a page may name what to read first instead (an import's preview): data-focus-on-load.
const first = summaries[0];
if (first) {
  const firstLink = first.querySelector("[data-field-link]");
  if (first.dataset.errorSummary === "field" && firstLink) {
    focusField(firstLink.dataset.fieldLink);
  } else {
    first.focus();
  }
} else {
  document.querySelector("[data-focus-on-load]")?.focus();
}
