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
    ["fix_answer", "The answer should be the span I select"],
    ["mark_unanswerable", "The paragraph does not answer the question"],
    ["remove_question", "The question should be removed (unclear or broken)"],
  ];

  function post(path, body) { return apiCall(api + path, body); }
  function showErrors(payload) { showErrorsIn(errorsEl, payload); }

  const paragraph = mount(document.getElementById("paragraph"), data.paragraph.context, {
    onChange: function (selection) { selectionText.textContent = selection ? selection.text : "nothing yet"; },
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
      p.appendChild(el("em", "", "unanswerable"));
    } else {
      const mark = el("mark", sampleClass, answerLike.text);
      mark.dir = "auto";
      p.appendChild(mark);
    }
    return p;
  }

  function originalLine(q) {
    // One line: whether the worker's answer matches, then the original answer itself.
    const p = spanLine(" Original answer: ", q.original, "orig-sample");
    p.className = "match-line";
    p.insertBefore(el("span", "badge " + (q.original.matches ? "badge-match" : "badge-differs"),
                      q.original.matches ? "Matches the original" : "Differs from the original"), p.firstChild);
    return p;
  }

  function flagForm(q) {
    const box = el("details", "flag-box");
    box.open = openFlag === q.id;
    box.addEventListener("toggle", function () { openFlag = box.open ? q.id : (openFlag === q.id ? null : openFlag); });
    box.appendChild(el("summary", "", "Flag the original answer"));
    const select = el("select");
    select.setAttribute("aria-label", "What is wrong with the original answer");
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
        ? "Select the right span in the paragraph first."
        : "Select the right span in the paragraph first; with nothing selected, your answer is proposed.";
    }
    select.addEventListener("change", updateHint);
    updateHint();
    const reason = el("input");
    reason.type = "text";
    reason.maxLength = 2000;
    reason.placeholder = "Why? (optional)";
    reason.setAttribute("aria-label", "Why the original answer is wrong");
    const form = el("div", "flag-form");
    box.appendChild(form);
    form.appendChild(select);
    form.appendChild(hint);
    form.appendChild(reason);
    form.appendChild(button("Send the flag", function () {
      const body = {proposal: select.value, reason: reason.value};
      const selection = paragraph.selection();
      if (select.value === "fix_answer" && selection) { body.selection = {start16: selection.start16, end16: selection.end16}; }
      flag(q, body);
    }));
    form.appendChild(el("p", "help", "The project owner decides on the flag. It does not change your answer."));
    return box;
  }

  function answeredPart(item, q) {
    item.appendChild(spanLine("Your answer (final): ", q.my_answer, "ans-sample"));
    if (!q.original) { return; }
    item.appendChild(originalLine(q));
    if (q.flag) {
      const proposed = q.flag.proposed_text ? " “" + q.flag.proposed_text + "”" : "";
      item.appendChild(el("p", "small", "You flagged the original answer: " + q.flag.proposal_label.toLowerCase() +
                                        proposed + " (" + q.flag.status_label.toLowerCase() + ")."));
    } else {
      item.appendChild(flagForm(q));
    }
  }

  function unansweredPart(item, q) {
    const actions = el("div", "q-actions");
    actions.appendChild(button("Use the selected text as the answer", function () {
      const selection = paragraph.selection();
      if (!selection) { showErrors({answer: "Select the answer in the paragraph first."}); return; }
      answer(q, {is_impossible: false, selection: {start16: selection.start16, end16: selection.end16}});
    }, q.id === active));
    actions.appendChild(button("Unanswerable", function () { answer(q, {is_impossible: true}); }));
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
    countEl.textContent = "(" + answered + " of " + questions.length + " answered)";
    submitButton.disabled = answered < questions.length;
    submitHint.textContent = answered < questions.length ? (questions.length - answered) + " left to answer." : "All answered.";
  }

  submitButton.addEventListener("click", function () {
    post("sessions/" + data.id + "/submit/", {}).then(function (result) {
      if (!result.ok) { showErrors(result.data); return; }
      root.hidden = true;
      document.getElementById("done-panel").hidden = false;
    });
  });

  const started = Date.now() - data.elapsed_seconds * 1000;
  const elapsedEl = document.getElementById("elapsed");
  window.setInterval(function () {
    const seconds = Math.floor((Date.now() - started) / 1000);
    elapsedEl.textContent = Math.floor(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") + seconds % 60;
  }, 1000);
  render();
}

main();
