/*
 * Writing questions on a paragraph (annotation/templates/annotation/annotate.html).
 *
 * Every question is stored on the server the moment it is added (as a draft, editable and
 * deletable until the paragraph is submitted); the question being typed is saved as the
 * session's draft, so a reload or a crash loses nothing. The REST endpoints are in
 * annotation/api_urls.py; the model in the loop answers over the websocket documented in
 * annotation/consumers.py and only ever advises. User text is only written with textContent.
 */
import { call as apiCall, messagesOf, showErrors as showErrorsIn } from "./lib/api.js";
import { connectSocket } from "./lib/socket.js";
import { decimal, digits, fmt, gettext, ngettext } from "./lib/i18n.js";
import { paragraphTimer } from "./lib/paragraph_timer.js";
import { mount } from "./annotation_spans.js";

function main() {
  const root = document.getElementById("annotate");
  const dataEl = document.getElementById("session-data");
  if (!root || !dataEl || !window.fetch) { return; }

  const data = JSON.parse(dataEl.textContent);
  const project = data.project;
  const api = root.dataset.apiBase;
  let questions = data.questions;
  let editingId = null;
  let selectedId = null; // the question whose answer was clicked in the paragraph (or in the list)
  const COLOURS = 8;     // hl-c0 … hl-c7 in annotation.css
  let seq = 0;
  let socket = null; // the socket client (lib/socket.js)
  let finished = false;
  let draftTimer = null;
  let wsTimer = null;
  let timer = null; // the paragraph timer (lib/paragraph_timer.js)

  const input = document.getElementById("question-input");
  const impossible = document.getElementById("impossible-input");
  const form = document.getElementById("question-form");
  const errorsEl = document.getElementById("form-errors");
  const listEl = document.getElementById("question-list");
  const emptyEl = document.getElementById("no-questions");
  const countEl = document.getElementById("question-count");
  const addButton = document.getElementById("add-button");
  const cancelButton = document.getElementById("cancel-edit");
  const modeEl = document.getElementById("form-mode");
  const saveState = document.getElementById("save-state");
  const submitButton = document.getElementById("submit-paragraph");
  const submitHint = document.getElementById("submit-hint");
  const selectionText = document.getElementById("selection-text");
  const modelStatus = document.getElementById("model-status");
  const modelAnswer = document.getElementById("model-answer");
  const modelAnswerText = document.getElementById("model-answer-text");
  const modelVerdict = document.getElementById("model-verdict");

  // ---- server calls (lib/api.js) ---------------------------------------------------------

  function call(path, body) { return apiCall(api + path, body); }
  function showErrors(payload) { showErrorsIn(errorsEl, payload); }

  // ---- paragraph and selection -------------------------------------------------------------

  const paragraph = mount(document.getElementById("paragraph"), data.paragraph.context, {
    onChange: function (selection) {
      showSelection(selection);
      if (selection && impossible.checked) { impossible.checked = false; }
      scheduleDraft();
      scheduleModel();
    },
    onMarkClick: function (id) { selectQuestion(id, true); },
  });

  function selectQuestion(id, focus) {
    selectedId = id;
    renderList();
    const item = listEl.querySelector('[data-question-id="' + id + '"]');
    if (item && focus) {
      item.scrollIntoView({block: "nearest"});
      item.focus();
    }
  }

  function answerSpan(q) {
    return q.answers.length && q.answers[0].end16 !== undefined ? {start16: q.answers[0].start16, end16: q.answers[0].end16} : null;
  }

  function showMarks() {
    // Every added answer in its question's colour; the one being edited shows as the selection instead.
    paragraph.setMarks(questions.map(function (q, index) {
      const span = answerSpan(q);
      return span && q.id !== editingId ? {id: q.id, start16: span.start16, end16: span.end16, colour: index % COLOURS} : null;
    }), selectedId);
  }

  function showSelection(selection) {
    selectionText.textContent = selection ? selection.text : (impossible.checked ? gettext("none (unanswerable)") : gettext("nothing yet"));
    selectionText.classList.toggle("is-empty", !selection);
  }

  // ---- the question list -------------------------------------------------------------------

  function verdictBadge(prediction) {
    const badge = document.createElement("span");
    badge.className = "badge";
    if (!project.has_model) { return null; }
    if (!prediction) {
      badge.classList.add("badge-pending");
      badge.textContent = gettext("model pending");
    } else if (prediction.fooled) {
      badge.classList.add("badge-fooled");
      badge.textContent = gettext("fooled the model");
    } else {
      badge.classList.add("badge-not-fooled");
      badge.textContent = gettext("model found it");
    }
    badge.title = prediction ? fmt(gettext("Model's answer: %(text)s (F1 %(f1)s)"),
                                   {text: prediction.text || gettext("no answer"), f1: decimal(prediction.f1, 2)}) : "";
    return badge;
  }

  function renderList() {
    listEl.textContent = "";
    questions.forEach(function (q, index) {
      const item = document.createElement("li");
      item.className = "span-question q-c" + (index % COLOURS) + (q.id === editingId ? " is-editing" : "") +
                       (q.id === selectedId ? " is-selected" : "");
      item.dataset.questionId = q.id;
      item.tabIndex = 0;
      const text = document.createElement("p");
      text.className = "q-text";
      text.dir = "auto";
      text.textContent = q.question;
      const answer = document.createElement("p");
      answer.className = "q-answer";
      if (q.is_impossible) {
        answer.textContent = gettext("Unanswerable");
        answer.classList.add("muted");
      } else {
        const mark = document.createElement("mark");
        mark.className = "ans-sample hl-c" + (index % COLOURS);
        mark.dir = "auto";
        mark.textContent = q.answers[0].text;
        answer.appendChild(document.createTextNode(gettext("Answer:") + " "));
        answer.appendChild(mark);
      }
      const badge = verdictBadge(q.prediction);
      if (badge) { answer.appendChild(document.createTextNode(" ")); answer.appendChild(badge); }
      const actions = document.createElement("div");
      actions.className = "q-actions";
      const edit = document.createElement("button");
      edit.type = "button";
      edit.className = "button button-quiet";
      edit.textContent = gettext("Edit");
      edit.addEventListener("click", function () { startEdit(q); });
      const del = document.createElement("button");
      del.type = "button";
      del.className = "button button-quiet";
      del.textContent = gettext("Delete");
      del.addEventListener("click", function () { removeQuestion(q); });
      actions.appendChild(edit);
      actions.appendChild(del);
      item.appendChild(text);
      item.appendChild(answer);
      item.appendChild(actions);
      item.addEventListener("click", function (event) {
        if (!event.target.closest("button") && selectedId !== q.id) { selectQuestion(q.id, false); }
      });
      listEl.appendChild(item);
    });
    showMarks();
    emptyEl.hidden = questions.length > 0;
    updateCounts();
  }

  function updateCounts() {
    const n = questions.length;
    countEl.textContent = fmt(gettext("(%(n)s of %(min)s–%(max)s)"), {n: n, min: project.questions_min, max: project.questions_max});
    const full = n >= project.questions_max && editingId === null;
    addButton.disabled = full;
    if (n < project.questions_min) {
      const missing = project.questions_min - n;
      submitHint.textContent = fmt(ngettext("Write %(n)s more question to submit.", "Write %(n)s more questions to submit.", missing), {n: missing});
    } else if (full) {
      submitHint.textContent = gettext("That is the most questions for one paragraph: submit when you are happy with them.");
    } else {
      submitHint.textContent = fmt(gettext("Ready to submit (you may add up to %(n)s more)."), {n: project.questions_max - n});
    }
    submitButton.disabled = n < project.questions_min || n > project.questions_max;
  }

  // ---- writing, editing, deleting ----------------------------------------------------------

  function clearForm() {
    editingId = null;
    input.value = "";
    impossible.checked = false;
    paragraph.setSelection(null);
    paragraph.setHighlight("pred", null);
    modelAnswer.hidden = true;
    modeEl.textContent = gettext("New question");
    addButton.textContent = gettext("Add question");
    cancelButton.hidden = true;
    showErrors(null);
    renderList();
  }

  function startEdit(q) {
    editingId = q.id;
    input.value = q.question;
    impossible.checked = q.is_impossible;
    paragraph.setSelection(q.answers.length ? {start16: q.answers[0].start16, end16: q.answers[0].end16} : null);
    modeEl.textContent = gettext("Edit question");
    addButton.textContent = gettext("Save changes");
    cancelButton.hidden = false;
    renderList();
    input.focus();
    scheduleDraft();
  }

  function removeQuestion(q) {
    if (!window.confirm(gettext("Delete this question?") + "\n\n" + q.question)) { return; }
    call("questions/" + q.id + "/delete/", {}).then(function (result) {
      if (!result.ok) { showErrors(result.data); return; }
      questions = questions.filter(function (other) { return other.id !== q.id; });
      if (editingId === q.id) { clearForm(); } else { renderList(); }
    });
  }

  function formBody() {
    const selection = paragraph.selection();
    return {question: input.value, is_impossible: impossible.checked,
            selection: selection && !impossible.checked ? {start16: selection.start16, end16: selection.end16} : null};
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (addButton.disabled) { return; }
    addButton.disabled = true;
    const path = editingId === null ? "sessions/" + data.id + "/questions/" : "questions/" + editingId + "/update/";
    call(path, formBody()).then(function (result) {
      addButton.disabled = false;
      if (!result.ok) { showErrors(result.data); return; }
      if (editingId === null) {
        questions.push(result.data);
      } else {
        questions = questions.map(function (q) { return q.id === result.data.id ? result.data : q; });
      }
      clearForm();
      saveState.textContent = gettext("Saved.");
      input.focus();
      window.setTimeout(refreshPredictions, 4000);
    });
  });

  cancelButton.addEventListener("click", clearForm);

  function refreshPredictions() {
    // The server stores the model's answer shortly after a question is added.
    if (!project.has_model || finished) { return; }
    call("sessions/" + data.id + "/").then(function (result) {
      if (result.ok && result.data.questions) {
        const fresh = {};
        result.data.questions.forEach(function (q) { fresh[q.id] = q; });
        questions.forEach(function (q) { if (fresh[q.id]) { q.prediction = fresh[q.id].prediction; } });
        renderList();
      }
    });
  }

  submitButton.addEventListener("click", function () {
    submitButton.disabled = true;
    timer.hold().then(function () { return call("sessions/" + data.id + "/submit/", {}); }).then(function (result) {
      if (!result.ok) { timer.release(); showErrors(result.data); updateCounts(); return; }
      finish(gettext("Paragraph submitted"), fmt(gettext("Your %(n)s questions are saved. Thank you!"), {n: questions.length}));
    });
  });

  document.getElementById("discard-form").addEventListener("submit", function (event) {
    event.preventDefault();
    const body = {reason: document.getElementById("discard-reason").value, note: document.getElementById("discard-note").value};
    if (!body.reason) { showErrors({reason: gettext("Choose why the paragraph should be discarded.")}); return; }
    timer.hold().then(function () { return call("sessions/" + data.id + "/discard/", body); }).then(function (result) {
      if (!result.ok) { timer.release(); showErrors(result.data); return; }
      finish(gettext("Paragraph discarded"), gettext("It will not be shown to anyone again unless the project owner restores it."));
    });
  });

  function finish(title, text) {
    finished = true;
    if (timer) { timer.stop(); }
    if (socket) { socket.close(); }
    root.hidden = true;
    document.getElementById("done-title").textContent = title;
    document.getElementById("done-text").textContent = text;
    const panel = document.getElementById("done-panel");
    panel.hidden = false;
    document.getElementById("next-paragraph").focus();
  }

  // ---- the draft (survives a reload) -------------------------------------------------------

  function scheduleDraft() {
    window.clearTimeout(draftTimer);
    saveState.textContent = "";
    draftTimer = window.setTimeout(function () {
      const body = formBody();
      body.editing_id = editingId;
      call("sessions/" + data.id + "/draft/", {draft: body}).then(function (result) {
        saveState.textContent = result.ok ? gettext("Draft saved.") : gettext("Draft not saved:") + " " + messagesOf(result.data)[0];
      });
    }, 700);
  }

  input.addEventListener("input", function () { scheduleDraft(); scheduleModel(); });
  impossible.addEventListener("change", function () {
    if (impossible.checked) { paragraph.setSelection(null); }
    showSelection(paragraph.selection());
    scheduleDraft();
    scheduleModel();
  });
  form.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey && (event.key === "u" || event.key === "U")) {
      event.preventDefault();
      impossible.checked = !impossible.checked;
      impossible.dispatchEvent(new Event("change"));
    }
  });

  // ---- model in the loop -------------------------------------------------------------------

  function setModelStatus(text) { modelStatus.textContent = text; }

  function scheduleModel() {
    window.clearTimeout(wsTimer);
    wsTimer = window.setTimeout(sendDraft, 350);
  }

  function sendDraft() {
    if (!socket || !socket.open || !project.has_model || !input.value.trim()) { return; }
    seq += 1;
    const body = formBody();
    socket.send({type: "draft", question: body.question, selection: body.selection,
                 is_impossible: body.is_impossible, seq: seq});
    setModelStatus(gettext("Asking the model…"));
  }

  function showPrediction(message) {
    if (message.seq !== seq) { return; }
    paragraph.setHighlight("pred", message.span16);
    modelAnswer.hidden = false;
    modelAnswerText.textContent = message.text || gettext("no answer (unanswerable)");
    modelVerdict.className = "badge";
    if (message.f1 === null) {
      modelVerdict.textContent = gettext("mark your answer to compare");
    } else if (message.fooled) {
      modelVerdict.classList.add("badge-fooled");
      modelVerdict.textContent = fmt(gettext("fooled (F1 %(f1)s)"), {f1: decimal(message.f1, 2)});
    } else {
      modelVerdict.classList.add("badge-not-fooled");
      modelVerdict.textContent = fmt(gettext("not fooled (F1 %(f1)s)"), {f1: decimal(message.f1, 2)});
    }
    setModelStatus(fmt(gettext("Model %(name)s answered your current question."), {name: message.model_version}));
  }

  function connect() {
    if (!("WebSocket" in window) || !root.dataset.wsPath || finished) { return; }
    socket = connectSocket(root.dataset.wsPath, {
      onMessage: function (message) {
        if (message.type === "prediction") { showPrediction(message); }
        else if (message.type === "status") {
          setModelStatus(message.message);  // worded by the server in the page's language
          if (message.state === "no_model") { project.has_model = false; }
          if (message.state === "ready") { project.has_model = true; scheduleModel(); }
        } else if (message.type === "error") { setModelStatus(message.message); }
      },
      shouldReconnect: function () { return !finished; },
      onRetry: function () {
        setModelStatus(gettext("Lost the connection to the model; reconnecting. Your questions are saved either way."));
      },
    });
  }

  // ---- timer -------------------------------------------------------------------------------

  const limit = project.minutes_per_paragraph * 60;
  const elapsedEl = document.getElementById("elapsed");
  const barEl = document.getElementById("elapsed-bar");

  function tick(seconds) {
    const m = Math.floor(seconds / 60), s = seconds % 60;
    elapsedEl.textContent = digits(m + ":" + (s < 10 ? "0" : "") + s);
    if (barEl) {
      barEl.style.width = Math.min(100, 100 * seconds / limit) + "%";
      barEl.classList.toggle("is-over", seconds > limit);
    }
  }

  // ---- start -------------------------------------------------------------------------------

  const draft = data.draft || {};
  input.value = draft.question || "";
  impossible.checked = !!draft.is_impossible;
  if (draft.editing_id) {
    const editing = questions.filter(function (q) { return q.id === draft.editing_id; })[0];
    if (editing) {
      editingId = editing.id;
      modeEl.textContent = gettext("Edit question");
      addButton.textContent = gettext("Save changes");
      cancelButton.hidden = false;
    }
  }
  if (draft.selection) { paragraph.setSelection(draft.selection); } else { showSelection(null); }
  renderList();
  timer = paragraphTimer(api, data.id, data.elapsed_seconds, tick);
  if (!project.has_model) { setModelStatus(gettext("No model is set up for this project: write your questions as usual.")); }
  connect();
}

main();
