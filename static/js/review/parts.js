/*
 * The items of the second pass's question list (annotation_review.js): the answer line, the
 * original answer with "matches"/"differs", the flag form, and the buttons of an unanswered
 * question. User text is only written with textContent.
 *
 *   answeredPart(page, item, q); unansweredPart(page, item, q)
 *   page = {paragraph, openFlag, active, actions: {answer(q, body), flag(q, body), showErrors(payload)}}
 */
import { fmt, gettext } from "../lib/i18n.js";

function proposals() {
  return [
    ["fix_answer", gettext("The answer should be the span I select")],
    ["mark_unanswerable", gettext("The paragraph does not answer the question")],
    ["remove_question", gettext("The question should be removed (unclear or broken)")],
  ];
}

function flagStatus(status) {
  const words = {open: gettext("waiting for the project owner"), accepted: gettext("accepted"), rejected: gettext("rejected")};
  return words[status] || status;
}

function flagLabel(proposal) {
  const pair = proposals().filter(function (p) { return p[0] === proposal; })[0];
  return pair ? pair[1].charAt(0).toLowerCase() + pair[1].slice(1) : proposal;
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text !== undefined) { node.textContent = text; }
  return node;
}

function button(label, onClick, primary) {
  const b = el("button", "button" + (primary ? " button-primary" : " button-quiet"), label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function spanLine(label, answerLike, sampleClass) {
  const p = el("p", "answer-line", label);
  if (answerLike.is_impossible) {
    p.appendChild(el("em", "", gettext("unanswerable")));
  } else {
    const mark = el("mark", sampleClass, answerLike.text);
    mark.dir = "auto";
    p.appendChild(mark);
  }
  return p;
}

function originalLine(q) {
  // One line: whether the worker's answer matches, then the original answer itself.
  const p = spanLine(" " + gettext("Original answer:") + " ", q.original, "orig-sample");
  p.className = "match-line";
  p.insertBefore(el("span", "badge " + (q.original.matches ? "badge-match" : "badge-differs"),
                    q.original.matches ? gettext("Matches the original") : gettext("Differs from the original")), p.firstChild);
  return p;
}

function proposalSelect(q) {
  const select = el("select");
  select.setAttribute("aria-label", gettext("What is wrong with the original answer"));
  proposals().forEach(function (pair) {
    if (pair[0] === "mark_unanswerable" && q.original.is_impossible) { return; }
    const option = el("option", "", pair[1]);
    option.value = pair[0];
    select.appendChild(option);
  });
  return select;
}

function proposalHint(q, select) {
  const hint = el("p", "help");
  function update() {
    hint.hidden = select.value !== "fix_answer";
    hint.textContent = q.my_answer.is_impossible
      ? gettext("Select the right span in the paragraph first.")
      : gettext("Select the right span in the paragraph first; with nothing selected, your answer is proposed.");
  }
  select.addEventListener("change", update);
  update();
  return hint;
}

function flagForm(page, q) {
  const box = el("details", "flag-box");
  box.open = page.openFlag === q.id;
  box.addEventListener("toggle", function () { page.openFlag = box.open ? q.id : (page.openFlag === q.id ? null : page.openFlag); });
  box.appendChild(el("summary", "", gettext("Flag the original answer")));
  const select = proposalSelect(q);
  const reason = el("input");
  reason.type = "text";
  reason.maxLength = 2000;
  reason.placeholder = gettext("Why? (optional)");
  reason.setAttribute("aria-label", gettext("Why the original answer is wrong"));
  const form = el("div", "flag-form");
  box.appendChild(form);
  form.append(select, proposalHint(q, select), reason);
  form.appendChild(button(gettext("Send the flag"), function () {
    const body = {proposal: select.value, reason: reason.value};
    const selection = page.paragraph.selection();
    if (select.value === "fix_answer" && selection) { body.selection = {start16: selection.start16, end16: selection.end16}; }
    page.actions.flag(q, body);
  }));
  form.appendChild(el("p", "help", gettext("The project owner decides on the flag. It does not change your answer.")));
  return box;
}

function flaggedLine(flag) {
  const proposed = flag.proposed_text ? " “" + flag.proposed_text + "”" : "";
  return el("p", "small", fmt(gettext("You flagged the original answer: %(proposal)s%(proposed)s (%(status)s)."),
                              {proposal: flagLabel(flag.proposal), proposed: proposed, status: flagStatus(flag.status)}));
}

export function answeredPart(page, item, q) {
  item.appendChild(spanLine(gettext("Your answer (final):") + " ", q.my_answer, "ans-sample"));
  if (!q.original) { return; }
  item.appendChild(originalLine(q));
  item.appendChild(q.flag ? flaggedLine(q.flag) : flagForm(page, q));
}

export function unansweredPart(page, item, q) {
  const actions = el("div", "q-actions");
  actions.appendChild(button(gettext("Use the selected text as the answer"), function () {
    const selection = page.paragraph.selection();
    if (!selection) { page.actions.showErrors({answer: gettext("Select the answer in the paragraph first.")}); return; }
    page.actions.answer(q, {is_impossible: false, selection: {start16: selection.start16, end16: selection.end16}});
  }, q.id === page.active));
  actions.appendChild(button(gettext("Unanswerable"), function () { page.actions.answer(q, {is_impossible: true}); }));
  item.appendChild(actions);
}
