/*
 * Live feedback on the authoring page (author.js): drafts go to the websocket
 * ws(s)://host/ws/author/<round_id>/ and the live model's probabilities come back; the protocol is
 * documented in collector/consumers.py. The server answers only the newest draft.
 *
 *   const live = liveFeedback(form, view, {readDraft, token}); live.send(); live.edited();
 *   live.connect(); live.leave(); live.back()
 */
import { connectSocket } from "../lib/socket.js";
import { debounce } from "../lib/debounce.js";
import * as i18n from "../lib/i18n.js";
import { showForecast } from "./forecast.js";
import { announcementFor, differs, draftAction, draftKey, verdictFor, verdictTexts } from "./draft.js";

const DEBOUNCE_MS = 250;
const { gettext } = i18n;
const TEXTS = verdictTexts(gettext); // in the page's language (the catalogue runs before the modules)

function guessShown(live) { return live.state.lastPrediction !== null; }

function renderVerdict(live) {
  const draft = live.page.readDraft(), silent = live.state.silent || live.state.stopped;
  const [kind, text] = verdictFor(draft, live.state.lastPrediction, silent, TEXTS);
  live.view.verdict(kind, text);
  // Said once the guess is for this very draft (a keystroke drops one not yet made: edited()).
  const announcement = announcementFor(draft, live.state.lastPrediction, silent, i18n);
  if (announcement) { live.view.announce(announcement); }
}

function showConnection(live, text) {
  live.view.connection.textContent = text;
  live.view.announce(text); // the guess shown is no longer live
}

function transmit(live, draft) {
  const state = live.state;
  const key = draftKey(draft);
  state.seq += 1;
  state.silent = false;
  const sent = {}; // older drafts need no entry: their answers are dropped
  if (state.inFlight !== null) { sent[state.inFlight.seq] = { key: state.inFlight.key, answer: state.inFlight.answer }; }
  sent[state.seq] = { key: key, answer: draft.answer };
  state.sent = sent;
  state.inFlight = { seq: state.seq, key: key, answer: draft.answer };
  const message = { type: "draft", prompt: draft.prompt, choices: draft.choices, answer: draft.answer, seq: state.seq };
  // The question's token lets the server match the coach's warnings with the submitted question.
  const token = live.page.token();
  if (token) { message.token = token; }
  state.socket.send(message);
}

function send(live) {
  const state = live.state;
  const draft = live.page.readDraft();
  const action = draftAction(draft, { lastPrediction: state.lastPrediction, inFlight: state.inFlight,
                                      socketOpen: state.socket !== null && state.socket.open });
  if (action === "in-flight") { return; }
  if (action === "incomplete") {
    state.lastPrediction = null;
    live.view.bars(null);
    live.view.coach([]);
    showForecast(null);
  }
  if (action === "send") { transmit(live, draft); }
  live.view.stale(action !== "incomplete" && action !== "unchanged" && guessShown(live));
  renderVerdict(live);
}

function onPrediction(live, message) {
  if (!Array.isArray(message.probs) || typeof message.predicted !== "number") { return; }
  const {state, view} = live;
  const current = draftKey(live.page.readDraft());
  const draft = state.sent[message.seq] || { key: null, answer: null };
  if (state.inFlight !== null && message.seq === state.inFlight.seq) { state.inFlight = null; }
  state.lastPrediction = { probs: message.probs, predicted: message.predicted, key: draft.key, answer: draft.answer };
  view.coach(message.coach && message.coach.warnings);
  view.bars(state.lastPrediction);
  // An answer to an older draft still shows, dimmed, until the newest one arrives.
  view.stale(draft.key !== current);
  if (typeof message.model_version === "string" && message.model_version) { view.modelName.textContent = message.model_version; }
  state.silent = false;
  view.hideNotice();
  renderVerdict(live);
  showForecast(message.survival); // the survival forecast (issue 29 §1), advice only; said after the guess
}

// An error or a status instead of a prediction: the notice says why, the guess shown is dimmed.
function onSilence(live, kind, text) {
  live.view.notice(kind, text);
  live.state.silent = true;
  live.view.stale(guessShown(live));
  renderVerdict(live);
}

function onStatus(live, message) {
  const state = live.state;
  if (message.state === "loading") {
    // The server is still loading the model (a fresh process): the draft stays in flight and is
    // answered once the model is there.
    live.view.notice("busy", String(message.message || gettext("The model is loading…")));
    live.view.stale(guessShown(live));
    return;
  }
  // No prediction is coming for that draft: the next edit (or "change") may send it again.
  if (state.inFlight !== null && (message.seq === state.inFlight.seq || message.seq === undefined)) { state.inFlight = null; }
  onSilence(live, message.state === "busy" ? "busy" : "warning", String(message.message || gettext("The model is not available.")));
}

function onMessage(live, message) {
  if (!message || typeof message !== "object") { return; }
  if (message.type === "prediction") {
    onPrediction(live, message);
  } else if (message.type === "status") {
    onStatus(live, message);
  } else if (message.type === "error") {
    live.state.inFlight = null;
    onSilence(live, "error", String(message.message || gettext("The server could not read this draft.")));
  }
}

function connect(live) {
  const {state, view} = live;
  if (state.socket !== null) {
    state.socket.connect(); // reopens a socket closed while leaving (no-op when open)
    return;
  }
  state.socket = connectSocket(live.form.dataset.wsPath, {
    jitter: true, // a restarted server isn't hit by everyone at once
    onOpen: function () {
      view.connection.textContent = "";
      const last = state.lastPrediction;
      state.lastPrediction = last && { probs: last.probs, predicted: last.predicted, key: null };
      send(live); // whatever changed while we were offline
    },
    onMessage: function (message) { onMessage(live, message); },
    onClose: function () { state.inFlight = null; }, // its answer would have come on the closed socket
    onForbidden: function () { // the consumer's "you may not write here"
      state.stopped = true;
      showConnection(live, gettext("Live feedback is off for this round."));
      renderVerdict(live);
    },
    shouldReconnect: function () { return !state.stopped && !state.leaving; },
    onRetry: function () {
      showConnection(live, gettext("Live feedback lost — reconnecting…"));
      view.stale(guessShown(live));
    },
  });
}

export function liveFeedback(form, view, page) {
  const live = {form: form, view: view, page: page, state: {
    socket: null,         // the socket client (lib/socket.js), made by connect()
    leaving: false,       // set on submit so the closing socket doesn't announce a reconnect
    stopped: false,       // the server refused this round: don't reconnect
    seq: 0,
    sent: {},             // seq -> {key, answer}: the draft text and marked answer it was sent for
    inFlight: null,       // {seq, key, answer} of the draft sent last, until its answer (or a status) arrives
    lastPrediction: null, // {probs, predicted, key, answer}
    silent: false,        // the last draft got an error or status instead of a prediction
  }};
  const scheduleSend = debounce(function () { send(live); }, DEBOUNCE_MS);
  return {
    renderVerdict: function () { renderVerdict(live); },
    connect: function () { connect(live); },
    get leaving() { return live.state.leaving; },
    // The guess is out of date from the first keystroke, not only once the new draft is sent.
    edited: function () {
      if (guessShown(live)) { view.stale(differs(page.readDraft(), live.state.lastPrediction)); }
      view.quiet(); // a guess not yet announced is out of date: it is not said
      scheduleSend();
    },
    leave: function () { live.state.leaving = true; },
    back: function () { // coming back with the back button
      if (!live.state.leaving) { return; }
      live.state.leaving = false;
      if (!live.state.stopped) { connect(live); }
    },
  };
}
