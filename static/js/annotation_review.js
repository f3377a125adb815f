/*
 * The second pass (annotation/templates/annotation/second_pass.html): answer others' questions
 * blind, by a span or "unanswerable". The answer is final: once given, the page shows whether it
 * matches the original answer, with the original span highlighted in the paragraph, and offers
 * one link to flag the original (fix / unanswerable / remove) for the project owner. Nothing on
 * the page changes the worker's own answer (the server refuses a second one, 409).
 * Answers go to POST /api/annotation/sessions/<id>/answers/, flags to .../flags/.
 * User text is only written with textContent.
 */
import { call as apiCall, showErrors as showErrorsIn } from "./lib/api.js";
import { digits, fmt, gettext } from "./lib/i18n.js";
import { paragraphTimer } from "./lib/paragraph_timer.js";
import { mount } from "./annotation_spans.js";

function main() {
  const root = document.getElementById("annotate");
  const dataEl = document.getElementById("session-data");
  if (!root || !dataEl || !window.fetch) { return; }

  const data = JSON.parse(dataEl.textContent);
  const api = root.dataset.apiBase;
  let questions = data.questions;
  let active = firstUnanswered();
  let shown = null;      // the answered question whose answer and original are highlighted
  let openFlag = null;   // the question whose flag form is open
  const listEl = document.getElementById("review-list");
  const errorsEl = document.getElementById("form-errors");
  const countEl = document.getElementById("answered-count");
  const submitButton = document.getElementById("submit-paragraph");
  const submitHint = document.getElementById("submit-hint");
  const selectionText = document.getElementById("selection-text");
  const PROPOSALS = [
    ["fix_answer", gettext("The answer should be the span I select")],
    ["mark_unanswerable", gettext("The paragraph does not answer the question")],
    ["remove_question", gettext("The question should be removed (unclear or broken)")],
  ];

  const FLAG_STATUS = {open: gettext("waiting for the project owner"), accepted: gettext("accepted"), rejected: gettext("rejected")};

  function flagLabel(proposal) {
    const pair = PROPOSALS.filter(function (p) { return p[0] === proposal; })[0];
    return pair ? pair[1].charAt(0).toLowerCase() + pair[1].slice(1) : proposal;
  }

  function post(path, body) { return apiCall(api + path, body); }
  function showErrors(payload) { showErrorsIn(errorsEl, payload); }

  const paragraph = mount(document.getElementById("paragraph"), data.paragraph.context, {
    onChange: function (selection) {
      selectionText.textContent = selection ? selection.text : gettext("nothing yet");
      selectionText.classList.toggle("is-empty", !selection);
    },
    onMarkClick: function (id) {
      const q = byId(id);
      const item = listEl.querySelector('[data-question-id="' + id + '"]');
      if (q && item) { show(q); item.scrollIntoView({block: "nearest"}); }
    },
  });

  function firstUnanswered(exceptId) {
    const next = questions.filter(function (q) { return !q.my_answer && q.id !== exceptId; })[0];
    return next ? next.id : null;
  }

  function byId(id) { return questions.filter(function (q) { return q.id === id; })[0] || null; }

  function reload() {
    return apiCall(api + "sessions/" + data.id + "/").then(function (result) {
      if (result.ok) { questions = result.data.questions; render(); } else { showErrors(result.data); }
    });
  }

  function answer(q, body) {
    body.question_id = q.id;
    return post("sessions/" + data.id + "/answers/", body).then(function (result) {
      // A refusal (e.g. 409: answered already, in another tab) leaves the page to show what is stored.
      showErrors(result.ok ? null : result.data);
      if (result.ok) {
        paragraph.setSelection(null);
        shown = q.id;
        active = firstUnanswered(q.id);
      }
      return reload();
    });
  }

  function flag(q, body) {
    body.question_id = q.id;
    return post("sessions/" + data.id + "/flags/", body).then(function (result) {
      if (!result.ok) { showErrors(result.data); return; }
      showErrors(null);
      openFlag = null;
      paragraph.setSelection(null);
      return reload();
    });
  }

  function span16(answerLike) {
    return answerLike && answerLike.end16 !== undefined ? {start16: answerLike.start16, end16: answerLike.end16} : null;
  }

  function highlight(q) {
    // Your other answers in their questions' colours; the shown one with the original answer.
    paragraph.setMarks(questions.map(function (other, index) {
      const span = other.my_answer && !other.my_answer.is_impossible && other !== q ? span16(other.my_answer) : null;
      return span ? {id: other.id, start16: span.start16, end16: span.end16, colour: index % 8} : null;
    }));
    const answered = q && q.my_answer;
    paragraph.setHighlight("ans", answered && !q.my_answer.is_impossible ? span16(q.my_answer) : null);
    paragraph.setHighlight("orig", answered && q.original ? span16(q.original) : null);
  }

  function el(tag, className, text) {
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

  function flagForm(q) {
    const box = el("details", "flag-box");
    box.open = openFlag === q.id;
    box.addEventListener("toggle", function () { openFlag = box.open ? q.id : (openFlag === q.id ? null : openFlag); });
    box.appendChild(el("summary", "", gettext("Flag the original answer")));
    const select = el("select");
    select.setAttribute("aria-label", gettext("What is wrong with the original answer"));
    PROPOSALS.forEach(function (pair) {
      if (pair[0] === "mark_unanswerable" && q.original.is_impossible) { return; }
      const option = el("option", "", pair[1]);
      option.value = pair[0];
      select.appendChild(option);
    });
    const hint = el("p", "help");
    function updateHint() {
      hint.hidden = select.value !== "fix_answer";
      hint.textContent = q.my_answer.is_impossible
        ? gettext("Select the right span in the paragraph first.")
        : gettext("Select the right span in the paragraph first; with nothing selected, your answer is proposed.");
    }
    select.addEventListener("change", updateHint);
    updateHint();
    const reason = el("input");
    reason.type = "text";
    reason.maxLength = 2000;
    reason.placeholder = gettext("Why? (optional)");
    reason.setAttribute("aria-label", gettext("Why the original answer is wrong"));
    const form = el("div", "flag-form");
    box.appendChild(form);
    form.appendChild(select);
    form.appendChild(hint);
    form.appendChild(reason);
    form.appendChild(button(gettext("Send the flag"), function () {
      const body = {proposal: select.value, reason: reason.value};
      const selection = paragraph.selection();
      if (select.value === "fix_answer" && selection) { body.selection = {start16: selection.start16, end16: selection.end16}; }
      flag(q, body);
    }));
    form.appendChild(el("p", "help", gettext("The project owner decides on the flag. It does not change your answer.")));
    return box;
  }

  function answeredPart(item, q) {
    item.appendChild(spanLine(gettext("Your answer (final):") + " ", q.my_answer, "ans-sample"));
    if (!q.original) { return; }
    item.appendChild(originalLine(q));
    if (q.flag) {
      const proposed = q.flag.proposed_text ? " “" + q.flag.proposed_text + "”" : "";
      item.appendChild(el("p", "small", fmt(gettext("You flagged the original answer: %(proposal)s%(proposed)s (%(status)s)."),
                                            {proposal: flagLabel(q.flag.proposal), proposed: proposed, status: FLAG_STATUS[q.flag.status] || q.flag.status})));
    } else {
      item.appendChild(flagForm(q));
    }
  }

  function unansweredPart(item, q) {
    const actions = el("div", "q-actions");
    actions.appendChild(button(gettext("Use the selected text as the answer"), function () {
      const selection = paragraph.selection();
      if (!selection) { showErrors({answer: gettext("Select the answer in the paragraph first.")}); return; }
      answer(q, {is_impossible: false, selection: {start16: selection.start16, end16: selection.end16}});
    }, q.id === active));
    actions.appendChild(button(gettext("Unanswerable"), function () { answer(q, {is_impossible: true}); }));
    item.appendChild(actions);
  }

  function show(q) {
    shown = q.id;
    Array.prototype.forEach.call(listEl.children, function (item) {
      item.classList.toggle("is-shown", item.dataset.questionId === String(q.id));
    });
    highlight(q);
  }

  function render() {
    listEl.textContent = "";
    let answered = 0;
    questions.forEach(function (q) {
      const item = el("li", "span-question" + (q.id === active ? " is-editing" : "") + (q.my_answer ? " is-answered" : "") +
                          (q.id === shown ? " is-shown" : ""));
      item.dataset.questionId = q.id;
      const text = el("p", "q-text", q.question);
      text.dir = "auto";
      item.appendChild(text);
      if (q.my_answer) {
        answered += 1;
        answeredPart(item, q);
        // Not a re-render: a click into the flag form must keep its focus and what is typed.
        item.addEventListener("click", function () { show(q); });
        item.addEventListener("mouseenter", function () { highlight(q); });
        item.addEventListener("mouseleave", function () { highlight(byId(shown)); });
      } else {
        unansweredPart(item, q);
        item.addEventListener("focusin", function () { active = q.id; });
      }
      listEl.appendChild(item);
    });
    highlight(byId(shown));
    countEl.textContent = fmt(gettext("(%(n)s of %(total)s answered)"), {n: answered, total: questions.length});
    submitButton.disabled = answered < questions.length;
    submitHint.textContent = answered < questions.length
      ? fmt(gettext("%(n)s left to answer."), {n: questions.length - answered}) : gettext("All answered.");
  }

  submitButton.addEventListener("click", function () {
    timer.hold().then(function () { return post("sessions/" + data.id + "/submit/", {}); }).then(function (result) {
      if (!result.ok) { timer.release(); showErrors(result.data); return; }
      timer.stop();
      root.hidden = true;
      document.getElementById("done-panel").hidden = false;
    });
  });

  const elapsedEl = document.getElementById("elapsed");
  const timer = paragraphTimer(api, data.id, data.elapsed_seconds, function (seconds) {
    elapsedEl.textContent = digits(Math.floor(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") + seconds % 60);
  });
  render();
}

main();
