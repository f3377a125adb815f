// A character counter under every field marked data-max-chars="N" (the authoring form's prompt and
// completions, the review's edit). The browser's maxlength would cut a pasted text at the limit
// without a word and the cut text would be saved; instead the field takes everything, the counter
// appears near the limit and says by how much a text is too long, and the server refuses it with
// the same numbers. The count is of the text without its surrounding spaces, as the server counts.

const SHOW_FROM = 0.8; // of the limit: below it the counter stays out of the way

/** What the counter says for `length` characters of at most `limit`: {text, over, shown}. */
export function counterState(length, limit) {
  const over = length > limit;
  const text = over
    ? `${length} of ${limit} characters: ${length - limit} too many. Shorten it; nothing is cut.`
    : `${length} of ${limit} characters`;
  return { text, over, shown: over || length >= SHOW_FROM * limit };
}

function attach(field) {
  const limit = Number(field.dataset.maxChars);
  if (!(limit > 0)) {
    return;
  }
  const counter = document.createElement("p");
  counter.className = "char-count";
  counter.id = `${field.id || field.name}-char-count`;
  counter.hidden = true;
  field.insertAdjacentElement("afterend", counter);
  // Read with the field (not a live region, which would speak on every keystroke).
  const described = field.getAttribute("aria-describedby");
  field.setAttribute("aria-describedby", described ? `${described} ${counter.id}` : counter.id);
  const invalidFromServer = field.getAttribute("aria-invalid") === "true";

  function update() {
    const state = counterState(field.value.trim().length, limit);
    counter.textContent = state.text;
    counter.hidden = !state.shown;
    counter.classList.toggle("char-count-over", state.over);
    if (state.over) {
      field.setAttribute("aria-invalid", "true");
    } else if (!invalidFromServer) {
      field.removeAttribute("aria-invalid");
    }
  }
  field.addEventListener("input", update);
  update(); // a form sent back with a too-long text shows the count at once
}

document.querySelectorAll("[data-max-chars]").forEach(attach);
