/*
 * The question form of the writing page (annotation.js): adding, editing and deleting questions
 * (each stored on the server at once, annotation/api_urls.py) and the draft of the question being
 * typed, saved as the session's draft so that a reload or a crash loses nothing.
 *
 *   const form = questionForm(page, {changed}); form.clear(); form.startEdit(q); form.remove(q);
 *   form.scheduleDraft(); form.restore(draft); formBody(page)
 */
import { call, messagesOf, showErrors } from "../lib/api.js";
import { debounce } from "../lib/debounce.js";
import { gettext } from "../lib/i18n.js";
import { renderList } from "./question_list.js";

const DRAFT_DEBOUNCE_MS = 700;
const PREDICTION_DELAY_MS = 4000; // the server stores the model's answer shortly after a question is added

function post(page, path, body) { return call(page.api + path, body); }

function setMode(els, editing) {
  els.mode.textContent = editing ? gettext("Edit question") : gettext("New question");
  els.addButton.textContent = editing ? gettext("Save changes") : gettext("Add question");
  els.cancelButton.hidden = !editing;
}

/** The question being typed, as the API takes it. */
export function formBody(page) {
  const selection = page.paragraph.selection();
  const impossible = page.els.impossible.checked;
  return {question: page.els.input.value, is_impossible: impossible,
          selection: selection && !impossible ? {start16: selection.start16, end16: selection.end16} : null};
}

function refreshPredictions(page) {
  if (!page.project.has_model || page.finished) { return; }
  post(page, "sessions/" + page.data.id + "/").then(function (result) {
    if (!result.ok || !result.data.questions) { return; }
    const fresh = {};
    result.data.questions.forEach(function (q) { fresh[q.id] = q; });
    page.questions.forEach(function (q) { if (fresh[q.id]) { q.prediction = fresh[q.id].prediction; } });
    renderList(page);
  });
}

function clear(page) {
  const els = page.els;
  page.editingId = null;
  els.input.value = "";
  els.impossible.checked = false;
  page.paragraph.setSelection(null);
  page.paragraph.setHighlight("pred", null);
  els.modelAnswer.hidden = true;
  setMode(els, false);
  showErrors(els.errors, null);
  renderList(page);
}

function stored(page, question) {
  if (page.editingId === null) {
    page.questions.push(question);
  } else {
    page.questions = page.questions.map(function (q) { return q.id === question.id ? question : q; });
  }
  clear(page);
  page.els.saveState.textContent = gettext("Saved.");
  page.say.part("saved", gettext("Saved."));
  page.els.input.focus();
  window.setTimeout(function () { refreshPredictions(page); }, PREDICTION_DELAY_MS);
}

function submit(page) {
  const els = page.els;
  if (els.addButton.disabled) { return; }
  els.addButton.disabled = true;
  const path = page.editingId === null ? "sessions/" + page.data.id + "/questions/" : "questions/" + page.editingId + "/update/";
  post(page, path, formBody(page)).then(function (result) {
    els.addButton.disabled = false;
    if (result.ok) { stored(page, result.data); } else { showErrors(els.errors, result.data); }
  });
}

function remove(page, q) {
  if (!window.confirm(gettext("Delete this question?") + "\n\n" + q.question)) { return; }
  post(page, "questions/" + q.id + "/delete/", {}).then(function (result) {
    if (!result.ok) { showErrors(page.els.errors, result.data); return; }
    page.questions = page.questions.filter(function (other) { return other.id !== q.id; });
    if (page.editingId === q.id) { clear(page); } else { renderList(page); }
  });
}

export function questionForm(page, hooks) {
  const els = page.els;
  const saveDraft = debounce(function () {
    const draft = formBody(page);
    draft.editing_id = page.editingId;
    post(page, "sessions/" + page.data.id + "/draft/", {draft: draft}).then(function (result) {
      els.saveState.textContent = result.ok ? gettext("Draft saved.") : gettext("Draft not saved:") + " " + messagesOf(result.data)[0];
    });
  }, DRAFT_DEBOUNCE_MS);

  function scheduleDraft() {
    els.saveState.textContent = "";
    saveDraft();
  }

  function startEdit(q) {
    page.editingId = q.id;
    els.input.value = q.question;
    els.impossible.checked = q.is_impossible;
    page.paragraph.setSelection(q.answers.length ? {start16: q.answers[0].start16, end16: q.answers[0].end16} : null);
    setMode(els, true);
    renderList(page);
    els.input.focus();
    scheduleDraft();
  }

  function restore(draft) {
    els.input.value = draft.question || "";
    els.impossible.checked = !!draft.is_impossible;
    const editing = draft.editing_id ? page.questions.filter(function (q) { return q.id === draft.editing_id; })[0] : null;
    if (editing) {
      page.editingId = editing.id;
      setMode(els, true);
    }
    if (draft.selection) { page.paragraph.setSelection(draft.selection); } else { hooks.changed(null); }
  }

  els.form.addEventListener("submit", function (event) { event.preventDefault(); submit(page); });
  els.cancelButton.addEventListener("click", function () { clear(page); });
  return {
    clear: function () { clear(page); },
    startEdit: startEdit,
    remove: function (q) { remove(page, q); },
    scheduleDraft: scheduleDraft,
    restore: restore,
  };
}
