/*
 * What the authoring page shows (author.js): the verdict line, the notice, the probability bars,
 * the artifact coach's warnings, the "updating…" cue and the time spent. User text and server
 * messages are only written with textContent.
 *
 *   const view = authorView(form); view.verdict(state, text); view.bars(prediction | null); ...
 */
import { formatDuration } from "./draft.js";

function renderBar(row, prediction, i) {
  const bar = row.querySelector(".prob-bar");
  const value = row.querySelector(".prob-value");
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
  row.querySelector(".tag-pick").hidden = !isPick;
}

export function authorView(form) {
  const byId = (id) => document.getElementById(id);
  const verdictEl = byId("verdict"), updatingEl = byId("updating"), noticeEl = byId("notice");
  const coachEl = byId("coach"), timeEl = byId("time-spent"), timeInput = form.elements.time_spent_seconds;
  const rows = Array.from(form.querySelectorAll(".choice-row"));
  return {
    connection: byId("connection"),
    modelName: byId("model-name"),
    verdict: function (state, text) {
      verdictEl.className = "verdict verdict-" + state;
      verdictEl.textContent = text;
    },
    notice: function (kind, text) {
      noticeEl.className = "notice notice-" + kind;
      noticeEl.textContent = text;
      noticeEl.hidden = false;
    },
    hideNotice: function () {
      noticeEl.hidden = true;
      noticeEl.textContent = "";
    },
    // While the shown guess belongs to an older draft: bars dimmed and an "updating…" cue by the verdict.
    stale: function (stale) {
      form.classList.toggle("is-stale", stale);
      if (updatingEl) { updatingEl.hidden = !stale; }
    },
    // The artifact coach's warnings arrive with each prediction (collector/selectors/coach.py).
    coach: function (warnings) {
      if (!coachEl) { return; }
      coachEl.textContent = "";
      (Array.isArray(warnings) ? warnings : []).forEach(function (warning) {
        if (!warning || typeof warning.message !== "string") { return; }
        const item = document.createElement("li");
        item.className = "coach-" + String(warning.kind || "note");
        item.textContent = warning.message;
        coachEl.appendChild(item);
      });
    },
    bars: function (prediction) { rows.forEach(function (row, i) { renderBar(row, prediction, i); }); },
    time: function (elapsed) {
      timeEl.textContent = formatDuration(elapsed);
      if (timeInput) { timeInput.value = String(elapsed); }
    },
  };
}
