// Caret stops and word moves in the paragraph (static/js/paragraph/offsets.js): UTF-16 offsets that
// never split a character, with Persian zero-width non-joiners and astral characters.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  codePointBoundaries, graphemeBoundaries, step, wordRanges, wordStep,
} from "../../static/js/paragraph/offsets.js";

const ZWNJ = "\u200c";
const persian = "من می" + ZWNJ + "خواهم بروم";   // "I want to go": می‌خواهم is one word
const astral = "a𝒳b 👍🏽 c";                      // a math letter (surrogate pair), an emoji with a skin tone

function isSurrogateMiddle(text, offset) {
  const before = text.charCodeAt(offset - 1);
  return offset > 0 && offset < text.length && before >= 0xd800 && before <= 0xdbff;
}

test("grapheme stops never fall inside a surrogate pair or an emoji sequence", () => {
  const stops = graphemeBoundaries(astral);
  assert.equal(stops[0], 0);
  assert.equal(stops[stops.length - 1], astral.length);
  for (const offset of stops) { assert.ok(!isSurrogateMiddle(astral, offset), `stop ${offset} splits a pair`); }
  // a, 𝒳 (2 units), b, space, 👍🏽 (4 units, one grapheme), space, c
  assert.deepEqual(stops, [0, 1, 3, 4, 5, 9, 10, 11]);
});

test("the fallback without Intl.Segmenter stops between code points", () => {
  assert.deepEqual(codePointBoundaries("a𝒳b"), [0, 1, 3, 4]);
  assert.deepEqual(graphemeBoundaries("a𝒳b", null), [0, 1, 3, 4]);
});

test("a zero-width non-joiner does not end a Persian word", () => {
  const words = wordRanges(persian).map((w) => persian.slice(w.start, w.end));
  assert.deepEqual(words, ["من", "می" + ZWNJ + "خواهم", "بروم"]);
  const fallback = wordRanges(persian, null).map((w) => persian.slice(w.start, w.end));
  assert.deepEqual(fallback, words);
});

test("a ZWNJ stays with the letter before it: one caret stop after the pair", () => {
  const at = persian.indexOf(ZWNJ);
  const stops = graphemeBoundaries(persian);
  assert.ok(!stops.includes(at), "a caret between a letter and its joiner would split the grapheme");
  assert.ok(stops.includes(at - 1) && stops.includes(at + 1));
  assert.equal(step(stops, at - 1, true, persian.length), at + 1);
  assert.equal(step(stops, at + 1, false, persian.length), at - 1);
});

test("step moves to the next or previous stop and clamps at the ends", () => {
  const stops = [0, 2, 5, 9];
  assert.equal(step(stops, 2, true, 9), 5);
  assert.equal(step(stops, 3, true, 9), 5);
  assert.equal(step(stops, 9, true, 9), 9);
  assert.equal(step(stops, 5, false, 9), 2);
  assert.equal(step(stops, 0, false, 9), 0);
});

test("word moves go by whole words, as text editors do", () => {
  const text = "one two, three";
  const words = wordRanges(text);
  const forward = [];
  for (let at = 0; at < text.length;) { at = wordStep(words, at, true, text.length); forward.push(at); }
  assert.deepEqual(forward, [3, 7, 14]);             // the end of each word: no stop at a word's start
  const backward = [];
  for (let at = text.length; at > 0;) { at = wordStep(words, at, false, text.length); backward.push(at); }
  assert.deepEqual(backward, [9, 4, 0]);             // the start of each word
  assert.equal(wordStep(words, 1, true, text.length), 3);   // from inside a word: its end
  assert.equal(wordStep(words, 5, false, text.length), 4);  // from inside a word: its start
});

test("word moves in Persian keep the ZWNJ word whole", () => {
  const words = wordRanges(persian);
  const end = wordStep(words, 2, true, persian.length);
  assert.equal(persian.slice(3, end), "می" + ZWNJ + "خواهم");
  assert.equal(wordStep(words, end, false, persian.length), 3);
});
