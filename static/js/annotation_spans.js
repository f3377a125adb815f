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
 *        p.setMarks([{id, start16, end16, colour}]): the answers already added, each in its colour
 *        (hl-c0 … hl-c7, like Label Studio's and doccano's labels); a click on one calls onMarkClick.
 */


const segmenters = {};

function boundaries(text, granularity) {
  // Grapheme or word boundaries (UTF-16 offsets), so a caret never lands inside a character.
  const key = granularity;
  if (segmenters[key] === undefined) {
    segmenters[key] = ("Intl" in window && Intl.Segmenter) ? new Intl.Segmenter(undefined, {granularity: granularity}) : null;
  }
  const out = [0];
  if (segmenters[key]) {
    const it = segmenters[key].segment(text)[Symbol.iterator]();
    for (let step = it.next(); !step.done; step = it.next()) {
      const seg = step.value;
      if (granularity === "word" && !seg.isWordLike) { continue; }
      out.push(seg.index, seg.index + seg.segment.length);
    }
  } else {
    for (let i = 1; i <= text.length; i += 1) {
      const c = text.charCodeAt(i - 1);
      if (c < 0xd800 || c > 0xdbff) { out.push(i); }
    }
  }
  out.push(text.length);
  return Array.from(new Set(out)).sort(function (a, b) { return a - b; });
}

function mount(el, context, options) {
  options = options || {};
  const chars = boundaries(context, "grapheme");
  const words = boundaries(context, "word");
  const rtl = (el.getAttribute("dir") || "ltr") === "rtl";
  const state = {anchor: null, focus: null, keyboard: false};
  const highlights = {}; // name -> {start16, end16}
  let marks = [];        // [{id, start16, end16, colour}]
  let activeMark = null;

  function current() {
    if (state.anchor === null || state.focus === null || state.anchor === state.focus) { return null; }
    const s = Math.min(state.anchor, state.focus);
    const e = Math.max(state.anchor, state.focus);
    return {start16: s, end16: e, text: context.slice(s, e)};
  }

  function render() {
    const sel = current();
    const ranges = [];
    Object.keys(highlights).forEach(function (name) {
      if (highlights[name]) { ranges.push({name: name, s: highlights[name].start16, e: highlights[name].end16}); }
    });
    if (sel) { ranges.push({name: "sel", s: sel.start16, e: sel.end16}); }
    let cuts = [0, context.length];
    ranges.forEach(function (r) { cuts.push(r.s, r.e); });
    // The caret is drawn only while the keyboard is used: re-rendering under a mouse drag
    // would detach the nodes the browser's selection is anchored in.
    const caret = (state.keyboard && state.focus !== null && !sel && document.activeElement === el) ? state.focus : null;
    if (caret !== null) { cuts.push(caret); }
    marks.forEach(function (m) { cuts.push(m.start16, m.end16); });
    cuts = Array.from(new Set(cuts)).filter(function (c) { return c >= 0 && c <= context.length; })
      .sort(function (a, b) { return a - b; });
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < cuts.length; i += 1) {
      if (caret !== null && cuts[i] === caret) {
        const mark = document.createElement("span");
        mark.className = "caret";
        mark.setAttribute("aria-hidden", "true");
        fragment.appendChild(mark);
      }
      if (i === cuts.length - 1) { break; }
      const s = cuts[i], e = cuts[i + 1];
      if (s === e) { continue; }
      const names = ranges.filter(function (r) { return r.s <= s && e <= r.e; }).map(function (r) { return "hl-" + r.name; });
      // Overlapping answers: the shortest one covering this piece shows (and takes the click).
      const owner = marks.filter(function (m) { return m.start16 <= s && e <= m.end16; })
        .sort(function (a, b) { return (a.end16 - a.start16) - (b.end16 - b.start16); })[0];
      const piece = context.slice(s, e);
      if (names.length || owner) {
        const span = document.createElement("span");
        if (owner) {
          names.push("hl-q", "hl-c" + owner.colour);
          if (owner.id === activeMark) { names.push("hl-active"); }
          span.dataset.markId = owner.id;
        }
        span.className = names.join(" ");
        span.textContent = piece;
        fragment.appendChild(span);
      } else {
        fragment.appendChild(document.createTextNode(piece));
      }
    }
    el.textContent = "";
    el.appendChild(fragment);
  }

  function changed() {
    render();
    if (options.onChange) { options.onChange(current()); }
  }

  function offsetOf(node, offset) {
    // UTF-16 offset of a DOM position inside el: the length of the text before it.
    const range = document.createRange();
    range.selectNodeContents(el);
    range.setEnd(node, offset);
    return range.toString().length;
  }

  function fromDomSelection() {
    const sel = window.getSelection();
    if (!sel || sel.rangeCount === 0) { return false; }
    const range = sel.getRangeAt(0);
    if (!el.contains(range.startContainer) || !el.contains(range.endContainer)) { return false; }
    const start = offsetOf(range.startContainer, range.startOffset);
    const end = offsetOf(range.endContainer, range.endOffset);
    // A plain click moves the caret (and clears the selection); a drag selects.
    state.anchor = sel.isCollapsed ? null : start;
    state.focus = end;
    sel.removeAllRanges(); // our own highlight shows it from now on
    changed();
    return true;
  }

  function step(list, from, forward) {
    if (forward) {
      for (let i = 0; i < list.length; i += 1) { if (list[i] > from) { return list[i]; } }
      return context.length;
    }
    for (let j = list.length - 1; j >= 0; j -= 1) { if (list[j] < from) { return list[j]; } }
    return 0;
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
  el.addEventListener("keydown", function (event) {
    const key = event.key;
    if (event.key.indexOf("Arrow") === 0 || key === "Home" || key === "End") { state.keyboard = true; }
    let forward = null;
    if (key === "ArrowRight") { forward = !rtl; }
    if (key === "ArrowLeft") { forward = rtl; }
    if (key === "Escape") { state.anchor = null; changed(); return; }
    if (key === "Home" || key === "End") {
      const target = key === "Home" ? 0 : context.length;
      if (event.shiftKey && state.anchor === null) { state.anchor = state.focus || 0; }
      if (!event.shiftKey) { state.anchor = null; }
      state.focus = target;
      event.preventDefault();
      changed();
      return;
    }
    if (forward === null) { return; }
    event.preventDefault();
    const from = state.focus === null ? 0 : state.focus;
    if (event.shiftKey) {
      if (state.anchor === null || state.anchor === state.focus) { state.anchor = from; }
    } else {
      state.anchor = null;
    }
    state.focus = step((event.ctrlKey || event.altKey || event.metaKey) ? words : chars, from, forward);
    changed();
  });

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
