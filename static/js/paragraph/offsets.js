/*
 * Caret positions in a paragraph's text, in UTF-16 code units (what the DOM counts in; the server
 * converts them to code points, mlcore/spans.py). A caret stops only between whole characters
 * (graphemes: a surrogate pair, a letter with its combining marks, an emoji with its modifier) and
 * moves by whole words, where a zero-width non-joiner inside a Persian word does not end the word.
 * Pure: no DOM, unit-tested in tests/js/.
 */

const segmenters = {};

function segmenterFor(granularity) {
  if (segmenters[granularity] === undefined) {
    segmenters[granularity] = typeof Intl !== "undefined" && Intl.Segmenter
      ? new Intl.Segmenter(undefined, { granularity: granularity }) : null;
  }
  return segmenters[granularity];
}

/** Offsets between code points: the fallback without Intl.Segmenter (never inside a surrogate pair). */
export function codePointBoundaries(text) {
  const out = [0];
  for (let i = 1; i <= text.length; i += 1) {
    const c = text.charCodeAt(i - 1);
    if (c < 0xd800 || c > 0xdbff) { out.push(i); }
  }
  return out;
}

/** The sorted offsets a caret may stop at between whole characters (0 and text.length included). */
export function graphemeBoundaries(text, segmenter = segmenterFor("grapheme")) {
  if (!segmenter) { return unique([...codePointBoundaries(text), text.length]); }
  const out = [0, text.length];
  for (const seg of segmenter.segment(text)) { out.push(seg.index); }
  return unique(out);
}

/** The words of `text` as [{start, end}] (UTF-16 offsets), in order; punctuation and spaces are not words. */
export function wordRanges(text, segmenter = segmenterFor("word")) {
  if (!segmenter) { return fallbackWords(text); }
  const out = [];
  for (const seg of segmenter.segment(text)) {
    if (seg.isWordLike) { out.push({ start: seg.index, end: seg.index + seg.segment.length }); }
  }
  return out;
}

// Without Intl.Segmenter: runs of letters, marks, digits and joiners (ZWNJ/ZWJ) are words.
function fallbackWords(text) {
  const out = [];
  for (const match of text.matchAll(/[\p{L}\p{M}\p{N}\u200c\u200d]+/gu)) {
    out.push({ start: match.index, end: match.index + match[0].length });
  }
  return out;
}

/** The next (forward) or previous stop in the sorted `stops` from `from`, clamped to 0..length. */
export function step(stops, from, forward, length) {
  if (forward) {
    const next = stops.find((stop) => stop > from);
    return next === undefined ? length : next;
  }
  for (let i = stops.length - 1; i >= 0; i -= 1) {
    if (stops[i] < from) { return stops[i]; }
  }
  return 0;
}

/**
 * Where a word move from `from` lands, as text editors do: forward to the end of the word the
 * caret is in or the next one, backward to the start of the word the caret is in or the previous
 * one, so every press moves by one whole word.
 */
export function wordStep(words, from, forward, length) {
  if (forward) {
    const word = words.find((w) => w.end > from);
    return word ? word.end : length;
  }
  for (let i = words.length - 1; i >= 0; i -= 1) {
    if (words[i].start < from) { return words[i].start; }
  }
  return 0;
}

function unique(offsets) {
  return Array.from(new Set(offsets)).sort((a, b) => a - b);
}
