// The paragraph's keyboard selection (static/js/paragraph/keys.js) and its display pieces
// (static/js/paragraph/pieces.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { graphemeBoundaries, wordRanges } from "../../static/js/paragraph/offsets.js";
import { applyIntent, keyIntent, selectedRange } from "../../static/js/paragraph/keys.js";
import { pieces } from "../../static/js/paragraph/pieces.js";

function textOf(context) {
  return { length: context.length, chars: graphemeBoundaries(context), words: wordRanges(context) };
}

function press(state, context, key, mods = {}, rtl = false) {
  return applyIntent(state, keyIntent({ key, ...mods }, rtl), textOf(context));
}

test("arrows are visual: → goes forward in left-to-right text and backward in right-to-left text", () => {
  assert.equal(keyIntent({ key: "ArrowRight" }, false).forward, true);
  assert.equal(keyIntent({ key: "ArrowRight" }, true).forward, false);
  assert.equal(keyIntent({ key: "ArrowLeft" }, true).forward, true);
  assert.equal(keyIntent({ key: "a" }, false), null);
});

test("Ctrl+Shift+→ selects one more whole word at each press (English)", () => {
  const context = "The cat sat on the mat.";
  let state = { anchor: null, focus: 0 };
  const selected = [];
  for (let i = 0; i < 3; i += 1) {
    state = press(state, context, "ArrowRight", { ctrlKey: true, shiftKey: true });
    const range = selectedRange(state);
    selected.push(context.slice(range.start16, range.end16));
  }
  assert.deepEqual(selected, ["The", "The cat", "The cat sat"]);
  state = press(state, context, "ArrowLeft", { ctrlKey: true, shiftKey: true });
  const back = selectedRange(state);
  assert.equal(context.slice(back.start16, back.end16), "The cat ");
});

test("Ctrl+Shift+← in a right-to-left Persian paragraph selects whole words forward", () => {
  const context = "من می\u200cخواهم بروم";
  let state = { anchor: null, focus: 0 };
  state = press(state, context, "ArrowLeft", { ctrlKey: true, shiftKey: true }, true);
  state = press(state, context, "ArrowLeft", { ctrlKey: true, shiftKey: true }, true);
  const range = selectedRange(state);
  assert.equal(context.slice(range.start16, range.end16), "من می\u200cخواهم");
  state = press(state, context, "ArrowRight", { ctrlKey: true, shiftKey: true }, true);
  const back = selectedRange(state);
  assert.equal(context.slice(back.start16, back.end16), "من ");
});

test("Shift+arrows extend by whole characters; a plain arrow or Escape drops the selection", () => {
  const context = "a👍🏽b";
  let state = { anchor: null, focus: 1 };
  state = press(state, context, "ArrowRight", { shiftKey: true });
  assert.deepEqual(selectedRange(state), { start16: 1, end16: 5 });
  assert.equal(selectedRange(press(state, context, "ArrowRight")), null);
  assert.equal(selectedRange(press(state, context, "Escape")), null);
});

test("Shift+Home and Shift+End select to the paragraph's edges", () => {
  const context = "hello world";
  const state = { anchor: null, focus: 6 };
  assert.deepEqual(selectedRange(press(state, context, "End", { shiftKey: true })), { start16: 6, end16: 11 });
  assert.deepEqual(selectedRange(press(state, context, "Home", { shiftKey: true })), { start16: 0, end16: 6 });
  assert.deepEqual(press(state, context, "Home"), { anchor: null, focus: 0 });
});

test("pieces cut the text where highlights change; the shortest answer owns an overlap", () => {
  const marks = [{ id: 1, start16: 0, end16: 10, colour: 0 }, { id: 2, start16: 4, end16: 6, colour: 3 }];
  const out = pieces(12, [{ name: "sel", s: 8, e: 12 }], marks, null, 2);
  assert.deepEqual(out.map((p) => [p.start, p.end, p.markId]), [[0, 4, 1], [4, 6, 2], [6, 8, 1], [8, 10, 1], [10, 12, null]]);
  assert.deepEqual(out[1].classes, ["hl-q", "hl-c3", "hl-active"]);
  assert.deepEqual(out[3].classes, ["hl-sel", "hl-q", "hl-c0"]);
  assert.deepEqual(out[4].classes, ["hl-sel"]);
});

test("the caret comes before its piece, or last at the very end", () => {
  assert.deepEqual(pieces(5, [], [], 2).map((p) => [p.start, p.end, p.caretBefore]), [[0, 2, false], [2, 5, true]]);
  const atEnd = pieces(5, [], [], 5);
  assert.deepEqual(atEnd[atEnd.length - 1], { start: 5, end: 5, classes: [], markId: null, caretBefore: true });
});
