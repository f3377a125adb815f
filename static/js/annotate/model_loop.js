/*
 * The model in the loop on the writing page (annotation.js): the question being typed goes over
 * the websocket documented in annotation/consumers.py, and the model's answer comes back as a
 * highlight and a verdict. It only ever advises: nothing here stores anything.
 *
 *   const model = modelLoop(page); model.schedule(); model.connect(); model.close()
 * page = {project, paragraph, els, finished, say} (annotation.js); the status line is visual only,
 * the answer, once it has come, is said through `say` (the page's live region, lib/announce.js).
 */
import { connectSocket } from "../lib/socket.js";
import { debounce } from "../lib/debounce.js";
import { decimal, fmt, gettext } from "../lib/i18n.js";
import { formBody } from "./question_form.js";

const MODEL_DEBOUNCE_MS = 350;

function showVerdict(verdictEl, message) {
  verdictEl.className = "badge";
  if (message.f1 === null) {
    verdictEl.textContent = gettext("mark your answer to compare");
  } else if (message.fooled) {
    verdictEl.classList.add("badge-fooled");
    verdictEl.textContent = fmt(gettext("fooled (F1 %(f1)s)"), {f1: decimal(message.f1, 2)});
  } else {
    verdictEl.classList.add("badge-not-fooled");
    verdictEl.textContent = fmt(gettext("not fooled (F1 %(f1)s)"), {f1: decimal(message.f1, 2)});
  }
}

export function modelLoop(page) {
  const {project, els} = page;
  let socket = null; // the socket client (lib/socket.js)
  let seq = 0;

  function setStatus(text) { els.modelStatus.textContent = text; }

  function sendDraft() {
    if (!socket || !socket.open || !project.has_model || !els.input.value.trim()) { return; }
    seq += 1;
    const body = formBody(page);
    socket.send({type: "draft", question: body.question, selection: body.selection,
                 is_impossible: body.is_impossible, seq: seq});
    setStatus(gettext("Asking the model…"));
  }
  const schedule = debounce(sendDraft, MODEL_DEBOUNCE_MS);

  function showPrediction(message) {
    if (message.seq !== seq) { return; }
    page.paragraph.setHighlight("pred", message.span16);
    els.modelAnswer.hidden = false;
    els.modelAnswerText.textContent = message.text || gettext("no answer (unanswerable)");
    showVerdict(els.modelVerdict, message);
    setStatus(fmt(gettext("Model %(name)s answered your current question."), {name: message.model_version}));
    page.say.part("model", fmt(gettext("Model's answer: %(text)s; %(verdict)s."),
                               {text: els.modelAnswerText.textContent, verdict: els.modelVerdict.textContent}));
  }

  function onStatus(message) {
    setStatus(message.message); // worded by the server in the page's language
    if (message.state === "no_model") { project.has_model = false; }
    if (message.state === "ready") { project.has_model = true; schedule(); }
  }

  function onMessage(message) {
    if (message.type === "prediction") { showPrediction(message); }
    else if (message.type === "status") { onStatus(message); }
    else if (message.type === "error") { setStatus(message.message); page.say.part("model", message.message); }
  }

  function connect() {
    if (!("WebSocket" in window) || !els.root.dataset.wsPath || page.finished) { return; }
    socket = connectSocket(els.root.dataset.wsPath, {
      onMessage: onMessage,
      shouldReconnect: function () { return !page.finished; },
      onRetry: function () {
        setStatus(gettext("Lost the connection to the model; reconnecting. Your questions are saved either way."));
        page.say.part("model", els.modelStatus.textContent);
      },
    });
  }

  if (!project.has_model) { setStatus(gettext("No model is set up for this project: write your questions as usual.")); }
  return {
    schedule: schedule,
    connect: connect,
    close: function () { schedule.cancel(); if (socket) { socket.close(); } },
  };
}
