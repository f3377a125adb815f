/*
 * The authoring page's draft as data (author.js): what the model reads of it, whether it changed
 * since the model's last guess (the draft diff), what to do with it, and what the verdict says.
 * Pure: no DOM, unit-tested in tests/js/.
 *
 *   draft = {prompt, choices: [4 strings], answer: index | null}
 *   prediction = {probs, predicted, key, answer}; inFlight = {seq, key, answer} | null
 */

const same = (text) => text;

/**
 * The page's texts and numbers (lib/i18n.js's gettext, fmt and percent on the page, where they are
 * in the page's language); English by default, so these functions stay pure.
 */
export const ENGLISH = {
  gettext: same,
  fmt: (text, params) => text.replace(/%\((\w+)\)s/g, (whole, name) => String(params[name])),
  percent: (share) => Math.round(100 * share) + "%",
};

/** The verdict line's texts, through `gettext`. */
export function verdictTexts(gettext = same) {
  return {
    incomplete: gettext("Fill in all four completions to see the model's guess"),
    waiting: gettext("Asking the model…"),
    noGuess: gettext("No guess from the model right now — you can still submit"),
    noAnswer: gettext("Mark the right answer to see whether the model is fooled"),
    fooled: gettext("The model is fooled"),
    notFooled: gettext("The model is not fooled — it picks the right answer"),
  };
}

export const MESSAGES = verdictTexts();

/** The draft as the model reads it: trimmed texts. */
export function cleanDraft(prompt, choices, answer) {
  return { prompt: prompt.trim(), choices: choices.map((c) => c.trim()), answer: answer };
}

export function isComplete(draft) {
  return draft.prompt !== "" && draft.choices.every((c) => c !== "");
}

/** What the model reads of a draft (not the marked answer, which only the verdict compares). */
export function draftKey(draft) {
  return JSON.stringify([draft.prompt, draft.choices]);
}

/** Whether `draft` differs from what `seen` ({key, answer}, a prediction or a draft on its way) was for. */
export function differs(draft, seen) {
  return seen === null || draftKey(draft) !== seen.key || draft.answer !== seen.answer;
}

/**
 * What sendDraft does with the current draft:
 * "incomplete" (nothing to ask), "unchanged" (the shown guess is for it), "in-flight" (the same
 * draft is on its way: sending it again would only make the server drop the answer to the first),
 * "offline" (sent when the socket reopens) or "send".
 */
export function draftAction(draft, { lastPrediction, inFlight, socketOpen }) {
  if (!isComplete(draft)) { return "incomplete"; }
  if (lastPrediction !== null && !differs(draft, lastPrediction)) { return "unchanged"; }
  if (inFlight !== null && !differs(draft, inFlight)) { return "in-flight"; }
  return socketOpen ? "send" : "offline";
}

/** [state, message] of the verdict line for the current draft and the last guess (`texts`: verdictTexts()). */
export function verdictFor(draft, lastPrediction, silent, texts = MESSAGES) {
  if (!isComplete(draft)) { return ["idle", texts.incomplete]; }
  if (lastPrediction === null) { return ["idle", silent ? texts.noGuess : texts.waiting]; }
  if (draft.answer === null) { return ["unknown", texts.noAnswer]; }
  if (lastPrediction.predicted !== draft.answer) { return ["fooled", texts.fooled]; }
  return ["not-fooled", texts.notFooled];
}

const LETTERS = "ABCD";

/**
 * What the page's live region says once the model's guess is for the draft as it stands: the pick,
 * its probability and the verdict ("" while the guess is missing or belongs to an older draft).
 */
export function announcementFor(draft, lastPrediction, silent, i18n = ENGLISH) {
  if (silent || !isComplete(draft) || lastPrediction === null || differs(draft, lastPrediction)) { return ""; }
  const pick = lastPrediction.predicted;
  const share = Math.max(0, Math.min(1, Number(lastPrediction.probs[pick]) || 0));
  const [, verdict] = verdictFor(draft, lastPrediction, false, verdictTexts(i18n.gettext));
  return i18n.fmt(i18n.gettext("The model picks %(letter)s with %(percent)s. %(verdict)s."),
    { letter: LETTERS[pick] || "?", percent: i18n.percent(share), verdict: verdict });
}

/** "m:ss" */
export function formatDuration(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes + ":" + (rest < 10 ? "0" : "") + rest;
}

const TOKEN = /^[0-9a-f-]{36}$/i;
const isString = (value) => typeof value === "string";

// Each saved field kept only when it has the expected type (the storage may hold anything).
const SAVED_FIELDS = {
  prompt: (v) => (isString(v) ? v : null),
  choices: (v) => (Array.isArray(v) ? v.map((c) => (isString(c) ? c : null)) : []),
  answer: (v) => (Number.isInteger(v) ? v : null),
  categories: (v) => (Array.isArray(v) ? v.filter(isString) : null),
  elapsed: (v) => (typeof v === "number" && v >= 0 ? Math.floor(v) : null),
  token: (v) => (isString(v) && TOKEN.test(v) ? v : null),
};

/** The saved draft (sessionStorage's JSON) with only the fields of the expected types, or null. */
export function parseSaved(json) {
  let saved;
  try { saved = JSON.parse(json || "null"); } catch { return null; }
  if (!saved || typeof saved !== "object") { return null; }
  return Object.fromEntries(Object.entries(SAVED_FIELDS).map(([name, keep]) => [name, keep(saved[name])]));
}
