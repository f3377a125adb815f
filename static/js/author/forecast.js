/*
 * The survival forecast on the authoring page (issue 29 §1): each prediction of a draft with its
 * answer marked carries "survival" (collector/consumers.py), worded on the server: "Likely /
 * Unlikely to survive cross-validation (about N%)" when the course's forecast beats the base rate,
 * else "not enough scored questions yet". It is advice only, never used for credit.
 *
 * The line (#survival-forecast) is shown at once; a screen reader hears it through the page's one
 * polite region (lib/announce.js), after the guess it came with, once it has settled and only when
 * it changed.
 *
 *   showForecast(message.survival)   // or null to hide it (an incomplete draft)
 */
import { pageAnnouncer } from "../lib/announce.js";

/** [state, text] to show for a message's "survival" part, or null to hide the line (pure). */
export function forecastLine(survival) {
  if (!survival || typeof survival !== "object" || typeof survival.message !== "string" || !survival.message) {
    return null;
  }
  if (survival.state !== "forecast") { return ["none", survival.message]; }
  return [survival.likely ? "likely" : "unlikely", survival.message];
}

let bound = null;

function elements() {
  if (bound === null) {
    const line = document.getElementById("survival-forecast");
    bound = { line: line, say: pageAnnouncer() };
  }
  return bound;
}

export function showForecast(survival) {
  const { line, say } = elements();
  if (!line) { return; }
  const shown = forecastLine(survival);
  line.hidden = shown === null;
  line.textContent = shown === null ? "" : shown[1];
  line.className = "survival-forecast small" + (shown === null ? "" : " survival-" + shown[0]);
  say.part("forecast", shown === null ? "" : shown[1]);
}
