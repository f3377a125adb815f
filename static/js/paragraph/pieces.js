/*
 * How the paragraph's text is cut for display: one piece per stretch covered by the same
 * highlights, so each piece is one <span> (or a plain text node). Pure, unit-tested in tests/js/.
 *
 *   pieces(length, ranges [{name, s, e}], marks [{id, start16, end16, colour | className}], caret | null, activeMark)
 *   (a mark shows in its question's colour hl-c<colour>, or in the class it names, e.g. hl-ans)
 *     -> [{start, end, classes: [..], markId | null, caretBefore: bool}]; a caret at the very end
 *        comes as a last piece with start === end.
 */

function cutsOf(length, ranges, marks, caret) {
  const cuts = [0, length];
  ranges.forEach((r) => cuts.push(r.s, r.e));
  marks.forEach((m) => cuts.push(m.start16, m.end16));
  if (caret !== null) { cuts.push(caret); }
  return Array.from(new Set(cuts)).filter((c) => c >= 0 && c <= length).sort((a, b) => a - b);
}

// Overlapping answers: the shortest one covering this piece shows (and takes the click).
function ownerOf(marks, s, e) {
  return marks.filter((m) => m.start16 <= s && e <= m.end16)
    .sort((a, b) => (a.end16 - a.start16) - (b.end16 - b.start16))[0] || null;
}

function classesOf(ranges, owner, activeMark, s, e) {
  const classes = ranges.filter((r) => r.s <= s && e <= r.e).map((r) => "hl-" + r.name);
  if (owner) {
    classes.push("hl-q", owner.className || "hl-c" + owner.colour);
    if (owner.id === activeMark) { classes.push("hl-active"); }
  }
  return classes;
}

export function pieces(length, ranges, marks, caret, activeMark = null) {
  const cuts = cutsOf(length, ranges, marks, caret);
  const out = [];
  for (let i = 0; i < cuts.length - 1; i += 1) {
    const s = cuts[i], e = cuts[i + 1];
    const owner = ownerOf(marks, s, e);
    out.push({ start: s, end: e, classes: classesOf(ranges, owner, activeMark, s, e),
               markId: owner ? owner.id : null, caretBefore: caret === s });
  }
  if (caret === length) { out.push({ start: length, end: length, classes: [], markId: null, caretBefore: true }); }
  return out;
}
