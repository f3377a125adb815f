/*
 * Writing questions on a paragraph (annotation/templates/annotation/annotate.html): the entry
 * point that wires the page's modules together.
 *
 * Every question is stored on the server the moment it is added (as a draft, editable and
 * deletable until the paragraph is submitted); the question being typed is saved as the
 * session's draft, so a reload or a crash loses nothing. The REST endpoints are in
 * annotation/api_urls.py; the model in the loop answers over the websocket documented in
 * annotation/consumers.py and only ever advises. User text is only written with textContent.
 * Screen readers hear the page's one polite live region (lib/announce.js): the selected answer
 * once the selection stops moving, the model's answer once it has come, "Saved." — not the
 * status lines, which change on every keystroke.
 *
 *   annotate/question_list.js  the list of added questions, their marks and the counts
 *   annotate/question_form.js  add / edit / delete, and the draft of the question being typed
 *   annotate/model_loop.js     the model's answer to the question being typed (websocket)
 *   annotate/keyboard.js       Ctrl+Enter and Alt+U
 *   annotation_spans.js        the paragraph and its selection (shared with the second pass)
 */
import { announcer } from "./lib/announce.js";
import { call, showErrors } from "./lib/api.js";
import { digits, fmt, gettext } from "./lib/i18n.js";
import { paragraphTimer } from "./lib/paragraph_timer.js";
import { mount } from "./annotation_spans.js";
import { renderList, selectQuestion, updateCounts } from "./annotate/question_list.js";
import { questionForm } from "./annotate/question_form.js";
import { modelLoop } from "./annotate/model_loop.js";
import { bindKeys } from "./annotate/keyboard.js";

const byId = (id) => document.getElementById(id);

function pageElements(root) {
  return {
    root: root, input: byId("question-input"), impossible: byId("impossible-input"), form: byId("question-form"),
    errors: byId("form-errors"), list: byId("question-list"), empty: byId("no-questions"), count: byId("question-count"),
    addButton: byId("add-button"), cancelButton: byId("cancel-edit"), mode: byId("form-mode"), saveState: byId("save-state"),
    submitButton: byId("submit-paragraph"), submitHint: byId("submit-hint"), selectionText: byId("selection-text"),
    modelStatus: byId("model-status"), modelAnswer: byId("model-answer"), modelAnswerText: byId("model-answer-text"),
    modelVerdict: byId("model-verdict"),
  };
}

function showSelection(page, selection) {
  const el = page.els.selectionText;
  const impossible = !selection && page.els.impossible.checked;
  el.textContent = selection ? selection.text : (impossible ? gettext("none (unanswerable)") : gettext("nothing yet"));
  el.classList.toggle("is-empty", !selection);
  page.say.part("selection", selection || impossible ? fmt(gettext("Selected answer: %(text)s"), {text: el.textContent}) : "");
}

function timerTick(limit) {
  const elapsedEl = byId("elapsed");
  const barEl = byId("elapsed-bar");
  return function (seconds) {
    const m = Math.floor(seconds / 60), s = seconds % 60;
    elapsedEl.textContent = digits(m + ":" + (s < 10 ? "0" : "") + s);
    if (barEl) {
      barEl.style.width = Math.min(100, 100 * seconds / limit) + "%";
      barEl.classList.toggle("is-over", seconds > limit);
    }
  };
}

function finish(page, title, text) {
  page.finished = true;
  page.timer.stop();
  page.model.close();
  page.els.root.hidden = true;
  byId("done-title").textContent = title;
  byId("done-text").textContent = text;
  byId("done-panel").hidden = false;
  byId("next-paragraph").focus();
}

// Submitting or discarding the paragraph: the timer holds so no heartbeat reaches a finished session.
function endSession(page, path, body, onDone) {
  page.timer.hold().then(function () { return call(page.api + "sessions/" + page.data.id + path, body); }).then(function (result) {
    if (!result.ok) { page.timer.release(); showErrors(page.els.errors, result.data); updateCounts(page); return; }
    onDone();
  });
}

function bindSession(page) {
  page.els.submitButton.addEventListener("click", function () {
    page.els.submitButton.disabled = true;
    endSession(page, "/submit/", {}, function () {
      finish(page, gettext("Paragraph submitted"), fmt(gettext("Your %(n)s questions are saved. Thank you!"), {n: page.questions.length}));
    });
  });
  byId("discard-form").addEventListener("submit", function (event) {
    event.preventDefault();
    const body = {reason: byId("discard-reason").value, note: byId("discard-note").value};
    if (!body.reason) { showErrors(page.els.errors, {reason: gettext("Choose why the paragraph should be discarded.")}); return; }
    endSession(page, "/discard/", body, function () {
      finish(page, gettext("Paragraph discarded"), gettext("It will not be shown to anyone again unless the project owner restores it."));
    });
  });
}

function bindEdits(page) {
  const {els, form, model} = page;
  els.input.addEventListener("input", function () { form.scheduleDraft(); model.schedule(); page.say.part("model", ""); });
  els.impossible.addEventListener("change", function () {
    if (els.impossible.checked) { page.paragraph.setSelection(null); }
    showSelection(page, page.paragraph.selection());
    form.scheduleDraft();
    model.schedule();
  });
  bindKeys(page, {
    submitQuestion: function () { els.form.requestSubmit(); },
    toggleUnanswerable: function () {
      els.impossible.checked = !els.impossible.checked;
      els.impossible.dispatchEvent(new Event("change"));
    },
  });
}

function main() {
  const root = byId("annotate");
  const dataEl = byId("session-data");
  if (!root || !dataEl || !window.fetch) { return; }
  const data = JSON.parse(dataEl.textContent);
  const page = {data: data, project: data.project, api: root.dataset.apiBase, questions: data.questions,
                editingId: null, selectedId: null, finished: false, els: pageElements(root),
                say: announcer(byId("announcer"))};
  page.paragraph = mount(byId("paragraph"), data.paragraph.context, {
    onChange: function (selection) {
      showSelection(page, selection);
      if (selection && page.els.impossible.checked) { page.els.impossible.checked = false; }
      page.form.scheduleDraft();
      page.model.schedule();
      page.say.part("model", ""); // the model's answer to the old span is not said: a new one is coming
    },
    onMarkClick: function (id) { selectQuestion(page, id, true); },
  });
  page.model = modelLoop(page);
  page.form = questionForm(page, {changed: function (selection) { showSelection(page, selection); }});
  page.actions = {startEdit: page.form.startEdit, remove: page.form.remove};
  bindEdits(page);
  bindSession(page);
  page.form.restore(data.draft || {});
  renderList(page);
  page.timer = paragraphTimer(page.api, data.id, data.elapsed_seconds, timerTick(data.project.minutes_per_paragraph * 60));
  page.model.connect();
}

main();
