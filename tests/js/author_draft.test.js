// The authoring page's draft as data (static/js/author/draft.js): the draft diff that decides
// whether a draft is sent, the verdict line, and the saved draft read back from sessionStorage.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ENGLISH, MESSAGES, announcementFor, cleanDraft, differs, draftAction, draftKey, formatDuration, isComplete, parseSaved,
  verdictFor, verdictTexts,
} from "../../static/js/author/draft.js";

const full = cleanDraft(" The cat ", ["sat.", "ran.", "flew.", " slept. "], 2);

test("a draft is read trimmed, and complete only with a prompt and four completions", () => {
  assert.deepEqual(full, { prompt: "The cat", choices: ["sat.", "ran.", "flew.", "slept."], answer: 2 });
  assert.equal(isComplete(full), true);
  assert.equal(isComplete(cleanDraft("The cat", ["sat.", "  ", "flew.", "slept."], 2)), false);
  assert.equal(isComplete(cleanDraft("   ", ["a", "b", "c", "d"], null)), false);
});

test("the draft diff: what the model reads, and the marked answer", () => {
  const seen = { key: draftKey(full), answer: 2 };
  assert.equal(differs(full, seen), false);
  assert.equal(differs({ ...full, answer: 1 }, seen), true);                         // another answer marked
  assert.equal(differs({ ...full, prompt: "The dog" }, seen), true);                 // the text changed
  assert.equal(differs(cleanDraft("The cat  ", ["sat.", "ran.", "flew.", "slept."], 2), seen), false); // only spaces
  assert.equal(differs(full, null), true);
  // The key keeps the fields apart: moving text between prompt and completion is a change.
  assert.notEqual(draftKey({ prompt: "a b", choices: ["c", "d", "e", "f"] }), draftKey({ prompt: "a", choices: ["b c", "d", "e", "f"] }));
});

test("what sendDraft does with a draft", () => {
  const key = draftKey(full);
  const idle = { lastPrediction: null, inFlight: null, socketOpen: true };
  assert.equal(draftAction(cleanDraft("", ["", "", "", ""], null), idle), "incomplete");
  assert.equal(draftAction(full, idle), "send");
  assert.equal(draftAction(full, { ...idle, socketOpen: false }), "offline");
  // The guess shown is for this very draft (e.g. only a category changed): nothing to send.
  assert.equal(draftAction(full, { ...idle, lastPrediction: { key, answer: 2, predicted: 0, probs: [] } }), "unchanged");
  // The same draft is on its way: sending it again would make the server drop the first answer.
  assert.equal(draftAction(full, { ...idle, inFlight: { seq: 3, key, answer: 2 } }), "in-flight");
  // A new answer marked while the old draft is on its way: sent again.
  assert.equal(draftAction({ ...full, answer: 0 }, { ...idle, inFlight: { seq: 3, key, answer: 2 } }), "send");
});

test("the verdict line", () => {
  const guess = { predicted: 1, key: draftKey(full), answer: 2, probs: [0.1, 0.6, 0.2, 0.1] };
  assert.deepEqual(verdictFor(cleanDraft("", ["a", "b", "c", "d"], 0), guess, false), ["idle", MESSAGES.incomplete]);
  assert.deepEqual(verdictFor(full, null, false), ["idle", MESSAGES.waiting]);
  assert.deepEqual(verdictFor(full, null, true), ["idle", MESSAGES.noGuess]);
  assert.deepEqual(verdictFor({ ...full, answer: null }, guess, false), ["unknown", MESSAGES.noAnswer]);
  assert.deepEqual(verdictFor(full, guess, false), ["fooled", MESSAGES.fooled]);
  assert.deepEqual(verdictFor({ ...full, answer: 1 }, guess, false), ["not-fooled", MESSAGES.notFooled]);
});

test("a saved draft keeps only fields of the expected types", () => {
  const token = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const saved = parseSaved(JSON.stringify({ prompt: "P", choices: ["a", 3, "c"], answer: 1, categories: ["x", 2],
                                            elapsed: 12.7, token }));
  assert.deepEqual(saved, { prompt: "P", choices: ["a", null, "c"], answer: 1, categories: ["x"], elapsed: 12, token });
  const junk = parseSaved(JSON.stringify({ prompt: 5, choices: "abc", answer: "1", elapsed: -3, token: "<script>" }));
  assert.deepEqual(junk, { prompt: null, choices: [], answer: null, categories: null, elapsed: null, token: null });
  assert.equal(parseSaved("{not json"), null);
  assert.equal(parseSaved(null), null);
  assert.equal(parseSaved("42"), null);
});

test("the time spent reads m:ss", () => {
  assert.equal(formatDuration(0), "0:00");
  assert.equal(formatDuration(65), "1:05");
  assert.equal(formatDuration(600), "10:00");
});

test("the live region's text: only a guess for the draft as it stands, with its pick, share and verdict", () => {
  const guess = { key: draftKey(full), answer: 2, predicted: 2, probs: [0.1, 0.2, 0.615, 0.085] };
  assert.equal(announcementFor(full, guess, false), "The model picks C with 62%. " + MESSAGES.notFooled + ".");
  assert.equal(announcementFor({ ...full, answer: 0 }, { ...guess, answer: 0 }, false),
    "The model picks C with 62%. " + MESSAGES.fooled + ".");
  assert.equal(announcementFor({ ...full, prompt: "The dog" }, guess, false), ""); // typed since: not settled
  assert.equal(announcementFor({ ...full, answer: 1 }, guess, false), "");        // another answer, not asked yet
  assert.equal(announcementFor(full, null, false), "");
  assert.equal(announcementFor(full, guess, true), "");                           // an error is shown instead
});

test("the verdict and the live region's text are in the page's language when given its texts", () => {
  const persian = {
    "The model is fooled": "مدل فریب خورد",
    "The model picks %(letter)s with %(percent)s. %(verdict)s.": "مدل %(letter)s را با %(percent)s برمی‌گزیند. %(verdict)s.",
  };
  const i18n = {
    gettext: (text) => persian[text] || text,
    fmt: (text, params) => text.replace(/%\((\w+)\)s/g, (whole, name) => params[name]),
    percent: (share) => "٪" + Math.round(100 * share),
  };
  const guess = { key: draftKey(full), answer: 0, predicted: 2, probs: [0.1, 0.2, 0.615, 0.085] };
  const draft = { ...full, answer: 0 };
  assert.deepEqual(verdictFor(draft, guess, false, verdictTexts(i18n.gettext)), ["fooled", "مدل فریب خورد"]);
  assert.equal(announcementFor(draft, guess, false, i18n), "مدل C را با ٪62 برمی‌گزیند. مدل فریب خورد.");
  assert.deepEqual(verdictTexts(), MESSAGES); // English without a catalogue
  assert.equal(MESSAGES.fooled, "The model is fooled");
  assert.equal(ENGLISH.percent(0.615), "62%");
});
