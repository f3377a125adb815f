/*
 * What the authoring page shows (author.js): the verdict line, the notice, the probability bars,
 * the artifact coach's warnings, the "updating…" cue and the time spent. User text and server
 * messages are only written with textContent. None of these is a live region: what a screen
 * reader hears goes through `announce` (the page's one polite region, lib/announce.js), once the
 * guess for the draft as it stands has come, not on each keystroke or bar update.
 *
 *   const view = authorView(form); view.verdict(state, text); view.bars(prediction | null); ...
 */
import { pageAnnouncer } from "../lib/announce.js";
import { digits, gettext, percent } from "../lib/i18n.js";
import { formatDuration } from "./draft.js";

function renderBar(row, prediction, i) {
  const bar = row.querySelector(".prob-bar");
  const value = row.querySelector(".prob-value");
  const isPick = prediction !== null && prediction.predicted === i;
  if (prediction === null) {
    bar.style.width = "0";
    value.textContent = "—";
  } else {
    const share = Math.max(0, Math.min(1, Number(prediction.probs[i]) || 0));
    bar.style.width = (100 * share).toFixed(1) + "%";
    value.textContent = percent(share); // "62%", "۶۲٪" on a Persian page
  }
  row.classList.toggle("is-pick", isPick);
  row.querySelector(".tag-pick").hidden = !isPick;
}

export function authorView(form) {
  const byId = (id) => document.getElementById(id);
  const verdictEl = byId("verdict"), updatingEl = byId("updating"), noticeEl = byId("notice");
  const coachEl = byId("coach"), timeEl = byId("time-spent"), timeInput = form.elements.time_spent_seconds;
  const rows = Array.from(form.querySelectorAll(".choice-row"));
  const say = pageAnnouncer(); // shared with the survival forecast (forecast.js): one announcement a guess
  return {
    // The guess, with the coach's warnings drawn with it (the list itself is not a live region).
    announce: function (text) {
      const warnings = coachEl ? Array.from(coachEl.children, function (item) { return item.textContent; }) : [];
      say.part("guess", warnings.length ? [text, gettext("Coach's warnings:"), ...warnings].join(" ") : text);
    },
    quiet: function () { say.cancel(); }, // a keystroke: what is not said yet is out of date
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
      say.part("guess", text); // instead of a guess
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
      timeEl.textContent = digits(formatDuration(elapsed));
      if (timeInput) { timeInput.value = String(elapsed); }
    },
  };
}
