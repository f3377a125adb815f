/*
 * Live feedback on the authoring page (collector/templates/collector/round_write.html).
 *
 * Drafts go to the websocket ws(s)://host/ws/author/<round_id>/ and the live model's
 * probabilities come back; the protocol is documented in collector/consumers.py.
 * Plain JavaScript without a build step. User text is only ever written with textContent.
 */
import { connectSocket } from "./lib/socket.js";

function main() {
  const form = document.getElementById("author-form");
  if (!form || !("WebSocket" in window)) {
    return; // the plain form POST still works
  }

  const DEBOUNCE_MS = 250;
  const MESSAGES = {
    incomplete: "Fill in all four completions to see the model's guess",
    waiting: "Asking the model…",
    noGuess: "No guess from the model right now — you can still submit",
    noAnswer: "Mark the right answer to see whether the model is fooled",
    fooled: "The model is fooled",
    notFooled: "The model is not fooled — it picks the right answer",
  };

  const storageKey = "stumper:draft:" + form.dataset.roundId;
  const promptEl = form.elements.prompt;
  const choiceEls = [0, 1, 2, 3].map(function (i) { return form.elements["choice_" + i]; });
  const answerEls = Array.prototype.slice.call(form.querySelectorAll('input[name="answer"]'));
  const categoryEls = Array.prototype.slice.call(form.querySelectorAll('input[name="categories"]'));
  const rows = Array.prototype.slice.call(form.querySelectorAll(".choice-row"));
  const timeInput = form.elements.time_spent_seconds;
  const tokenInput = form.elements.client_token;
  const verdictEl = document.getElementById("verdict");
  const updatingEl = document.getElementById("updating");
  const noticeEl = document.getElementById("notice");
  const coachEl = document.getElementById("coach");
  const connectionEl = document.getElementById("connection");
  const timeEl = document.getElementById("time-spent");
  const modelNameEl = document.getElementById("model-name");
  const submitButton = document.getElementById("submit-question");

  let socket = null; // the socket client (lib/socket.js), made by connect()
  let leaving = false; // set on submit so the closing socket doesn't announce a reconnect
  let stopped = false; // the server refused this round: don't reconnect
  let debounceTimer = null;
  let seq = 0;
  let sent = {}; // seq -> {key, answer}: the draft text and marked answer it was sent for
  let inFlight = null; // {seq, key, answer} of the draft sent last, until its answer (or a status) arrives
  let lastPrediction = null; // {probs, predicted, key, answer}
  let modelSilent = false; // the last draft got an error or status instead of a prediction
  let elapsed = 0; // seconds on this question while the page was visible

  // ---- draft -----------------------------------------------------------------------------

  function checkedAnswer() {
    for (let i = 0; i < answerEls.length; i += 1) {
      if (answerEls[i].checked) { return i; }
    }
    return null;
  }

  function currentDraft() {
    return {
      prompt: promptEl.value.trim(),
      choices: choiceEls.map(function (el) { return el.value.trim(); }),
      answer: checkedAnswer(),
    };
  }

  function isComplete(draft) {
    return draft.prompt !== "" && draft.choices.every(function (c) { return c !== ""; });
  }

  function draftKey(draft) {
    return JSON.stringify([draft.prompt, draft.choices]);
  }

  // ---- sessionStorage: a reload must not lose what the author typed ------------------------

  function saveDraft() {
    try {
      sessionStorage.setItem(storageKey, JSON.stringify({
        prompt: promptEl.value,
        choices: choiceEls.map(function (el) { return el.value; }),
        answer: checkedAnswer(),
        categories: categoryEls.filter(function (el) { return el.checked; }).map(function (el) { return el.value; }),
        elapsed: elapsed,
        // Kept so that re-sending after a lost response is still recognised as the same question.
        token: tokenInput ? tokenInput.value : "",
      }));
    } catch (e) { /* storage full or disabled: live feedback still works */ }
  }

  function clearDraft() {
    try { sessionStorage.removeItem(storageKey); } catch (e) { /* ignore */ }
  }

  function restoreDraft() {
    let saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(storageKey) || "null"); } catch (e) { saved = null; }
    if (!saved || typeof saved !== "object") { return; }
    if (typeof saved.prompt === "string") { promptEl.value = saved.prompt; }
    if (Array.isArray(saved.choices)) {
      choiceEls.forEach(function (el, i) { if (typeof saved.choices[i] === "string") { el.value = saved.choices[i]; } });
    }
    answerEls.forEach(function (el, i) { el.checked = saved.answer === i; });
    if (Array.isArray(saved.categories)) {
      categoryEls.forEach(function (el) { el.checked = saved.categories.indexOf(el.value) !== -1; });
    }
    if (typeof saved.elapsed === "number" && saved.elapsed >= 0) { elapsed = Math.floor(saved.elapsed); }
    if (tokenInput && typeof saved.token === "string" && /^[0-9a-f-]{36}$/i.test(saved.token)) {
      tokenInput.value = saved.token;
    }
  }

  // ---- display ---------------------------------------------------------------------------

  function setVerdict(state, text) {
    verdictEl.className = "verdict verdict-" + state;
    verdictEl.textContent = text;
  }

  function showNotice(kind, text) {
    noticeEl.className = "notice notice-" + kind;
    noticeEl.textContent = text;
    noticeEl.hidden = false;
  }

  function hideNotice() {
    noticeEl.hidden = true;
    noticeEl.textContent = "";
  }

  // While the shown guess belongs to an older draft: bars dimmed and an "updating…" cue by the verdict.
  function setStale(stale) {
    form.classList.toggle("is-stale", stale);
    if (updatingEl) { updatingEl.hidden = !stale; }
  }

  // The artifact coach's warnings arrive with each prediction (collector/selectors/coach.py).
  function renderCoach(warnings) {
    if (!coachEl) { return; }
    coachEl.textContent = "";
    (Array.isArray(warnings) ? warnings : []).forEach(function (warning) {
      if (!warning || typeof warning.message !== "string") { return; }
      const item = document.createElement("li");
      item.className = "coach-" + String(warning.kind || "note");
      item.textContent = warning.message;
      coachEl.appendChild(item);
    });
  }

  function renderBars(prediction) {
    rows.forEach(function (row, i) {
      const bar = row.querySelector(".prob-bar");
      const value = row.querySelector(".prob-value");
      const tag = row.querySelector(".tag-pick");
      const isPick = prediction !== null && prediction.predicted === i;
      if (prediction === null) {
        bar.style.width = "0";
        value.textContent = "—";
      } else {
        const pct = Math.max(0, Math.min(1, Number(prediction.probs[i]) || 0)) * 100;
        bar.style.width = pct.toFixed(1) + "%";
        value.textContent = Math.round(pct) + "%";
      }
      row.classList.toggle("is-pick", isPick);
      tag.hidden = !isPick;
    });
  }

  function renderVerdict() {
    const draft = currentDraft();
    if (!isComplete(draft)) {
      setVerdict("idle", MESSAGES.incomplete);
    } else if (lastPrediction === null) {
      setVerdict("idle", modelSilent || stopped ? MESSAGES.noGuess : MESSAGES.waiting);
    } else if (draft.answer === null) {
      setVerdict("unknown", MESSAGES.noAnswer);
    } else if (lastPrediction.predicted !== draft.answer) {
      setVerdict("fooled", MESSAGES.fooled);
    } else {
      setVerdict("not-fooled", MESSAGES.notFooled);
    }
  }

  function formatDuration(seconds) {
    const minutes = Math.floor(seconds / 60);
    const rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function renderTime() {
    timeEl.textContent = formatDuration(elapsed);
    if (timeInput) { timeInput.value = String(elapsed); }
  }

  // ---- websocket -------------------------------------------------------------------------

  function sendDraft() {
    const draft = currentDraft();
    if (!isComplete(draft)) {
      lastPrediction = null;
      renderBars(null);
      renderCoach([]);
      setStale(false);
      renderVerdict();
      return;
    }
    const key = draftKey(draft);
    if (lastPrediction !== null && lastPrediction.key === key && lastPrediction.answer === draft.answer) {
      renderVerdict(); // nothing the model or the coach reads has changed (e.g. only a category)
      setStale(false);
      return;
    }
    if (inFlight !== null && inFlight.key === key && inFlight.answer === draft.answer) {
      // The same draft is on its way (e.g. a field lost focus and fired "change"): sending it again
      // would only make the server drop the answer to the first copy.
      return;
    }
    if (socket === null || !socket.open) {
      setStale(lastPrediction !== null);
      renderVerdict();
      return; // sent again as soon as the socket (re)opens
    }
    seq += 1;
    modelSilent = false;
    sent = {}; // the server answers only the newest draft, so older ones need no entry
    if (inFlight !== null) { sent[inFlight.seq] = { key: inFlight.key, answer: inFlight.answer }; }
    sent[seq] = { key: key, answer: draft.answer };
    inFlight = { seq: seq, key: key, answer: draft.answer };
    const message = { type: "draft", prompt: draft.prompt, choices: draft.choices, answer: draft.answer, seq: seq };
    // The question's token lets the server match the coach's warnings with the submitted question.
    if (tokenInput && tokenInput.value) { message.token = tokenInput.value; }
    socket.send(message);
    setStale(lastPrediction !== null);
    renderVerdict();
  }

  function scheduleSend() {
    window.clearTimeout(debounceTimer);
    debounceTimer = window.setTimeout(sendDraft, DEBOUNCE_MS);
  }

  function onPrediction(message) {
    if (!Array.isArray(message.probs) || typeof message.predicted !== "number") { return; }
    const current = draftKey(currentDraft());
    const draft = sent[message.seq] || { key: null, answer: null };
    const key = draft.key;
    if (inFlight !== null && message.seq === inFlight.seq) { inFlight = null; }
    lastPrediction = { probs: message.probs, predicted: message.predicted, key: key, answer: draft.answer };
    renderCoach(message.coach && message.coach.warnings);
    renderBars(lastPrediction);
    // An answer to an older draft still shows, dimmed, until the newest one arrives.
    setStale(key !== current);
    if (typeof message.model_version === "string" && message.model_version) {
      modelNameEl.textContent = message.model_version;
    }
    modelSilent = false;
    hideNotice();
    renderVerdict();
  }

  function onMessage(message) {
    if (!message || typeof message !== "object") { return; }
    if (message.type === "prediction") {
      onPrediction(message);
    } else if (message.type === "error") {
      inFlight = null;
      showNotice("error", String(message.message || "The server could not read this draft."));
      modelSilent = true;
      setStale(lastPrediction !== null);
      renderVerdict();
    } else if (message.type === "status" && message.state === "loading") {
      // The server is still loading the model (a fresh process): the draft stays in flight and is
      // answered once the model is there.
      showNotice("busy", String(message.message || "The model is loading…"));
      setStale(lastPrediction !== null);
    } else if (message.type === "status") {
      // No prediction is coming for that draft: the next edit (or "change") may send it again.
      if (inFlight !== null && (message.seq === inFlight.seq || message.seq === undefined)) { inFlight = null; }
      showNotice(message.state === "busy" ? "busy" : "warning", String(message.message || "The model is not available."));
      modelSilent = true;
      setStale(lastPrediction !== null);
      renderVerdict();
    }
  }

  function connect() {
    if (socket !== null) {
      socket.connect(); // reopens a socket closed while leaving (no-op when open)
      return;
    }
    socket = connectSocket(form.dataset.wsPath, {
      jitter: true, // a restarted server isn't hit by everyone at once
      onOpen: function () {
        connectionEl.textContent = "";
        lastPrediction = lastPrediction && { probs: lastPrediction.probs, predicted: lastPrediction.predicted, key: null };
        sendDraft(); // whatever changed while we were offline
      },
      onMessage: onMessage,
      onClose: function () {
        inFlight = null; // its answer would have come on the closed socket
      },
      onForbidden: function () { // the consumer's "you may not write here"
        stopped = true;
        connectionEl.textContent = "Live feedback is off for this round.";
        renderVerdict();
      },
      shouldReconnect: function () { return !stopped && !leaving; },
      onRetry: function () {
        connectionEl.textContent = "Live feedback lost — reconnecting…";
        setStale(lastPrediction !== null);
      },
    });
  }

  // ---- events ----------------------------------------------------------------------------

  function onEdit() {
    saveDraft();
    // The guess is out of date from the first keystroke, not only once the new draft is sent.
    if (lastPrediction !== null) {
      const draft = currentDraft();
      setStale(draftKey(draft) !== lastPrediction.key || draft.answer !== lastPrediction.answer);
    }
    scheduleSend();
  }

  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);

  form.addEventListener("submit", function () {
    renderTime();
    saveDraft(); // kept until the page confirms the question was stored
    leaving = true;
    // Disabled after the submit event has fired, so this submission still goes through.
    window.setTimeout(function () { submitButton.disabled = true; }, 0);
  });

  window.addEventListener("pageshow", function () {
    // Coming back with the back button: the form is usable again.
    submitButton.disabled = false;
    if (leaving) {
      leaving = false;
      if (!stopped) { connect(); }
    }
  });

  document.addEventListener("keydown", function (event) {
    const digit = /^(Digit|Numpad)([1-4])$/.exec(event.code || "");
    if (event.altKey && !event.ctrlKey && !event.metaKey && digit) {
      event.preventDefault();
      const radio = answerEls[Number(digit[2]) - 1];
      if (radio) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      }
    } else if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      if (typeof form.requestSubmit === "function") { form.requestSubmit(); } else { form.submit(); }
    }
  });

  window.setInterval(function () {
    if (document.visibilityState === "visible" && !leaving) {
      elapsed += 1;
      renderTime();
      if (elapsed % 5 === 0) { saveDraft(); }
    }
  }, 1000);

  // ---- start -----------------------------------------------------------------------------

  if (document.querySelector(".question-saved")) {
    clearDraft(); // the server confirmed the last question: start afresh
  } else if (form.dataset.bound === "1") {
    // The server sent the form back with errors and the author's input: it wins over storage.
    // (The error summary's script focuses the first field in error: error_summary.js.)
    elapsed = parseInt(timeInput && timeInput.value, 10) || 0;
  } else {
    restoreDraft();
  }
  renderTime();
  renderBars(null);
  renderVerdict();
  connect();
}

main();
