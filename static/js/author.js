/*
 * The authoring page (collector/templates/collector/round_write.html): the entry point that wires
 * the page's modules together. Plain JavaScript without a build step.
 *
 *   author/draft.js  the draft as data: what changed since the model's guess, the verdict (pure)
 *   author/live.js   live feedback over the websocket (collector/consumers.py)
 *   author/view.js   what the page shows: verdict, bars, coach, notice, time
 * A reload must not lose what the author typed: the form is kept in sessionStorage until the
 * server confirms the question was stored.
 */
import { cleanDraft, parseSaved } from "./author/draft.js";
import { liveFeedback } from "./author/live.js";
import { authorView } from "./author/view.js";

function formFields(form) {
  return {
    prompt: form.elements.prompt,
    choices: [0, 1, 2, 3].map(function (i) { return form.elements["choice_" + i]; }),
    answers: Array.from(form.querySelectorAll('input[name="answer"]')),
    categories: Array.from(form.querySelectorAll('input[name="categories"]')),
    time: form.elements.time_spent_seconds,
    token: form.elements.client_token,
  };
}

function checkedAnswer(fields) {
  const index = fields.answers.findIndex(function (el) { return el.checked; });
  return index === -1 ? null : index;
}

function draftStore(key, fields, clock) {
  return {
    save: function () {
      try {
        sessionStorage.setItem(key, JSON.stringify({
          prompt: fields.prompt.value,
          choices: fields.choices.map(function (el) { return el.value; }),
          answer: checkedAnswer(fields),
          categories: fields.categories.filter(function (el) { return el.checked; }).map(function (el) { return el.value; }),
          elapsed: clock.elapsed,
          // Kept so that re-sending after a lost response is still recognised as the same question.
          token: fields.token ? fields.token.value : "",
        }));
      } catch { /* storage full or disabled: live feedback still works */ }
    },
    clear: function () {
      try { sessionStorage.removeItem(key); } catch { /* ignore */ }
    },
    restore: function () {
      let saved;
      try { saved = parseSaved(sessionStorage.getItem(key)); } catch { return; } // storage disabled
      if (saved) { fill(fields, saved, clock); }
    },
  };
}

function fill(fields, saved, clock) {
  if (saved.prompt !== null) { fields.prompt.value = saved.prompt; }
  fields.choices.forEach(function (el, i) { if (typeof saved.choices[i] === "string") { el.value = saved.choices[i]; } });
  fields.answers.forEach(function (el, i) { el.checked = saved.answer === i; });
  if (saved.categories !== null) {
    fields.categories.forEach(function (el) { el.checked = saved.categories.indexOf(el.value) !== -1; });
  }
  if (saved.elapsed !== null) { clock.elapsed = saved.elapsed; }
  if (fields.token && saved.token !== null) { fields.token.value = saved.token; }
}

// Alt+1…4 marks the right answer; Ctrl+Enter (⌘+Enter) submits.
function answerShortcut(event) {
  const digit = /^(Digit|Numpad)([1-4])$/.exec(event.code || "");
  return event.altKey && !event.ctrlKey && !event.metaKey && digit ? Number(digit[2]) - 1 : null;
}

function bindKeys(form, fields) {
  document.addEventListener("keydown", function (event) {
    const index = answerShortcut(event);
    if (index !== null) {
      event.preventDefault();
      const radio = fields.answers[index];
      if (!radio) { return; }
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    } else if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

function bindPage(form, fields, store, live, view, clock) {
  const submitButton = document.getElementById("submit-question");
  function onEdit() { store.save(); live.edited(); }
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);
  form.addEventListener("submit", function () {
    view.time(clock.elapsed);
    store.save(); // kept until the page confirms the question was stored
    live.leave();
    // Disabled after the submit event has fired, so this submission still goes through.
    window.setTimeout(function () { submitButton.disabled = true; }, 0);
  });
  window.addEventListener("pageshow", function () {
    submitButton.disabled = false; // coming back with the back button: the form is usable again
    live.back();
  });
  bindKeys(form, fields);
  window.setInterval(function () {
    if (document.visibilityState !== "visible" || live.leaving) { return; }
    clock.elapsed += 1; // seconds on this question while the page was visible
    view.time(clock.elapsed);
    if (clock.elapsed % 5 === 0) { store.save(); }
  }, 1000);
}

function main() {
  const form = document.getElementById("author-form");
  if (!form || !("WebSocket" in window)) {
    return; // the plain form POST still works
  }
  const fields = formFields(form);
  const clock = { elapsed: 0 };
  const store = draftStore("stumper:draft:" + form.dataset.roundId, fields, clock);
  const view = authorView(form);
  const live = liveFeedback(form, view, {
    readDraft: function () {
      return cleanDraft(fields.prompt.value, fields.choices.map(function (el) { return el.value; }), checkedAnswer(fields));
    },
    token: function () { return fields.token ? fields.token.value : ""; },
  });
  bindPage(form, fields, store, live, view, clock);

  if (document.querySelector(".question-saved")) {
    store.clear(); // the server confirmed the last question: start afresh
  } else if (form.dataset.bound === "1") {
    // The server sent the form back with errors and the author's input: it wins over storage.
    // (The error summary's script focuses the first field in error: error_summary.js.)
    clock.elapsed = parseInt(fields.time && fields.time.value, 10) || 0;
  } else {
    store.restore();
  }
  view.time(clock.elapsed);
  view.bars(null);
  live.renderVerdict();
  live.connect();
}

main();
