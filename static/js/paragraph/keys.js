/*
 * The paragraph's keyboard selection, as a pure state change: a key press becomes an intent
 * (keyIntent), and the intent moves the caret and the selection's anchor (applyIntent).
 * Arrows are visual: in a right-to-left paragraph → moves backward in the text. Shift extends the
 * selection; Ctrl, Alt or Meta move by whole words (paragraph/offsets.js wordStep).
 *
 *   state: {anchor, focus} (UTF-16 offsets or null); text: {length, chars, words}
 */
import { step, wordStep } from "./offsets.js";

/** What a key press asks for, or null for a key the paragraph leaves alone. */
export function keyIntent(event, rtl) {
  const byWord = event.ctrlKey || event.altKey || event.metaKey;
  const extend = event.shiftKey;
  switch (event.key) {
    case "Escape": return { kind: "clear" };
    case "Home": return { kind: "edge", to: "start", extend: extend };
    case "End": return { kind: "edge", to: "end", extend: extend };
    case "ArrowRight": return { kind: "move", forward: !rtl, byWord: byWord, extend: extend };
    case "ArrowLeft": return { kind: "move", forward: rtl, byWord: byWord, extend: extend };
    default: return null;
  }
}

/** Keys after which the caret is drawn (the keyboard is in use). */
export function isCaretKey(key) {
  return key.indexOf("Arrow") === 0 || key === "Home" || key === "End";
}

// Where the selection's anchor is after a move from `from`: kept while extending, dropped otherwise.
function anchorAfter(state, extend, from) {
  if (!extend) { return null; }
  if (state.anchor === null || state.anchor === state.focus) { return from; }
  return state.anchor;
}

/** The new {anchor, focus} after `intent`. */
export function applyIntent(state, intent, text) {
  if (intent.kind === "clear") {
    return { anchor: null, focus: state.focus };
  }
  const from = state.focus === null ? 0 : state.focus;
  if (intent.kind === "edge") {
    return { anchor: anchorAfter(state, intent.extend, from), focus: intent.to === "start" ? 0 : text.length };
  }
  const focus = intent.byWord ? wordStep(text.words, from, intent.forward, text.length)
    : step(text.chars, from, intent.forward, text.length);
  return { anchor: anchorAfter(state, intent.extend, from), focus: focus };
}

/** The selected range {start16, end16} of a state, or null when nothing is selected. */
export function selectedRange(state) {
  if (state.anchor === null || state.focus === null || state.anchor === state.focus) { return null; }
  return { start16: Math.min(state.anchor, state.focus), end16: Math.max(state.anchor, state.focus) };
}
