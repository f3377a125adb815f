/*
 * The writing page's shortcuts (annotation.js), as the help under the question box says:
 * Ctrl+Enter (⌘+Enter) adds the question wherever the focus is in the writing area, the paragraph
 * where the answer was just selected included; Alt+U toggles "cannot be answered".
 * The discard form keeps its own Enter.
 */

export function isSubmitKey(event) {
  return event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.altKey;
}

export function isUnanswerableKey(event) {
  return event.altKey && !event.ctrlKey && !event.metaKey && (event.key === "u" || event.key === "U");
}

export function bindKeys(page, actions) {
  document.addEventListener("keydown", function (event) {
    if (page.finished || event.defaultPrevented) { return; }
    const inDiscard = event.target.closest && event.target.closest("#discard-form");
    if (isSubmitKey(event) && !inDiscard) {
      event.preventDefault();
      actions.submitQuestion();
    } else if (isUnanswerableKey(event)) {
      event.preventDefault();
      actions.toggleUnanswerable();
    }
  });
}
