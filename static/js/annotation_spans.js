/*
 * The paragraph of the annotation pages: showing it exactly, selecting an answer span with the
 * mouse or the keyboard, and highlighting spans (the worker's selection, the model's answer,
 * a stored answer).
 *
 * Offsets here are UTF-16 code units, what the DOM counts in; the server converts them to
 * code points (mlcore/spans.py). The paragraph's text is set from the JSON payload with
 * textContent, so the DOM text is exactly the stored context (zero-width non-joiners, Arabic
 * and Persian letter variants, combining marks and emoji included).
 *
 * Usage: const p = mount(element, context, {onChange: fn({start16, end16, text} | null),
 *                                          onMarkClick: fn(id)});
 *        p.setHighlight("pred", {start16, end16} | null); p.setSelection(range | null); p.selection();
 *        p.setMarks([{id, start16, end16, colour | className}]): the answers already added, each in
 *        its question's colour (hl-c0 … hl-c7, like Label Studio's and doccano's labels) or in the
 *        class it names (the second pass: hl-ans); a click on one calls onMarkClick.
 * The pure parts are in paragraph/: caret stops and word moves (offsets.js), the keyboard
 * selection (keys.js) and how the text is cut into highlighted pieces (pieces.js).
 */
import { graphemeBoundaries, wordRanges } from "./paragraph/offsets.js";
import { applyIntent, isCaretKey, keyIntent, selectedRange } from "./paragraph/keys.js";
import { pieces } from "./paragraph/pieces.js";

function pieceNode(context, piece) {
  const text = context.slice(piece.start, piece.end);
  if (!piece.classes.length) { return document.createTextNode(text); }
  const span = document.createElement("span");
  span.className = piece.classes.join(" ");
  if (piece.markId !== null) { span.dataset.markId = piece.markId; }
  span.textContent = text;
  return span;
}

function caretNode() {
  const mark = document.createElement("span");
  mark.className = "caret";
  mark.setAttribute("aria-hidden", "true");
  return mark;
}

function offsetOf(el, node, offset) {
  // UTF-16 offset of a DOM position inside el: the length of the text before it.
  const range = document.createRange();
  range.selectNodeContents(el);
  range.setEnd(node, offset);
  return range.toString().length;
}

function mount(el, context, options) {
  options = options || {};
  const text = {length: context.length, chars: graphemeBoundaries(context), words: wordRanges(context)};
  const rtl = (el.getAttribute("dir") || "ltr") === "rtl";
  const state = {anchor: null, focus: null, keyboard: false};
  const highlights = {}; // name -> {start16, end16}
  let marks = [];        // [{id, start16, end16, colour}]
  let activeMark = null;

  function current() {
    const range = selectedRange(state);
    return range && {start16: range.start16, end16: range.end16, text: context.slice(range.start16, range.end16)};
  }

  function render() {
    const sel = current();
    const ranges = Object.keys(highlights).filter(function (name) { return highlights[name]; })
      .map(function (name) { return {name: name, s: highlights[name].start16, e: highlights[name].end16}; });
    if (sel) { ranges.push({name: "sel", s: sel.start16, e: sel.end16}); }
    // The caret is drawn only while the keyboard is used: re-rendering under a mouse drag
    // would detach the nodes the browser's selection is anchored in.
    const caret = (state.keyboard && state.focus !== null && !sel && document.activeElement === el) ? state.focus : null;
    const fragment = document.createDocumentFragment();
    pieces(context.length, ranges, marks, caret, activeMark).forEach(function (piece) {
      if (piece.caretBefore) { fragment.appendChild(caretNode()); }
      if (piece.end > piece.start) { fragment.appendChild(pieceNode(context, piece)); }
    });
    el.textContent = "";
    el.appendChild(fragment);
  }

  function changed() {
    render();
    if (options.onChange) { options.onChange(current()); }
  }

  function fromDomSelection() {
    const sel = window.getSelection();
    if (!sel || sel.rangeCount === 0) { return false; }
    const range = sel.getRangeAt(0);
    if (!el.contains(range.startContainer) || !el.contains(range.endContainer)) { return false; }
    const start = offsetOf(el, range.startContainer, range.startOffset);
    const end = offsetOf(el, range.endContainer, range.endOffset);
    // A plain click moves the caret (and clears the selection); a drag selects.
    state.anchor = sel.isCollapsed ? null : start;
    state.focus = end;
    sel.removeAllRanges(); // our own highlight shows it from now on
    changed();
    return true;
  }

  function onKey(event) {
    if (isCaretKey(event.key)) { state.keyboard = true; }
    const intent = keyIntent(event, rtl);
    if (intent === null) { return; }
    if (intent.kind !== "clear") { event.preventDefault(); }
    Object.assign(state, applyIntent(state, intent, text));
    changed();
  }

  el.textContent = context;
  el.addEventListener("mousedown", function () { state.keyboard = false; });
  el.addEventListener("mouseup", function () { window.setTimeout(fromDomSelection, 0); });
  el.addEventListener("click", function (event) {
    // A plain click (no text dragged) on an added answer selects its question.
    const target = event.target.closest ? event.target.closest("[data-mark-id]") : null;
    const sel = window.getSelection();
    if (target && options.onMarkClick && (!sel || sel.isCollapsed)) { options.onMarkClick(Number(target.dataset.markId)); }
  });
  el.addEventListener("blur", function () { if (state.keyboard) { render(); } });
  el.addEventListener("keydown", onKey);

  return {
    selection: current,
    setSelection: function (range) {
      state.anchor = range ? range.start16 : null;
      state.focus = range ? range.end16 : state.focus;
      changed();
    },
    setMarks: function (list, active) {
      marks = list.filter(function (m) { return m && m.end16 > m.start16; });
      activeMark = active === undefined ? null : active;
      render();
    },
    setHighlight: function (name, range) {
      highlights[name] = range && range.end16 > range.start16 ? range : null;
      render();
    },
    element: el,
  };
}

export { mount };
