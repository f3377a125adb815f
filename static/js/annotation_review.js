/*
 * The second pass (annotation/templates/annotation/second_pass.html): answer others' questions
 * blind, by a span or "unanswerable". The answer is final: once given, the page shows whether it
 * matches the original answer, with the original span highlighted in the paragraph, and offers
 * one link to flag the original (fix / unanswerable / remove) for the project owner. Nothing on
 * the page changes the worker's own answer (the server refuses a second one, 409).
 * Answers go to POST /api/annotation/sessions/<id>/answers/, flags to .../flags/.
 * One colour language, the legend's: the worker's answers in green (hl-ans), the original in
 * purple (hl-orig). The list items are built in review/parts.js.
 */
import { announcer } from "./lib/announce.js";
import { call, showErrors } from "./lib/api.js";
import { digits, fmt, gettext } from "./lib/i18n.js";
import { paragraphTimer } from "./lib/paragraph_timer.js";
import { mount } from "./annotation_spans.js";
import { answeredPart, el, unansweredPart } from "./review/parts.js";

function firstUnanswered(questions, exceptId) {
  const next = questions.filter(function (q) { return !q.my_answer && q.id !== exceptId; })[0];
  return next ? next.id : null;
}

function questionById(page, id) { return page.questions.filter(function (q) { return q.id === id; })[0] || null; }

function post(page, path, body) { return call(page.api + path, body); }

function span16(answerLike) {
  return answerLike && answerLike.end16 !== undefined ? {start16: answerLike.start16, end16: answerLike.end16} : null;
}

function highlight(page, q) {
  // The worker's other answers as marks in the legend's "your answer" colour (a click shows
  // their question); the shown one with the original answer.
  page.paragraph.setMarks(page.questions.map(function (other) {
    const span = other.my_answer && !other.my_answer.is_impossible && other !== q ? span16(other.my_answer) : null;
    return span ? {id: other.id, start16: span.start16, end16: span.end16, className: "hl-ans"} : null;
  }));
  const answered = q && q.my_answer;
  page.paragraph.setHighlight("ans", answered && !q.my_answer.is_impossible ? span16(q.my_answer) : null);
  page.paragraph.setHighlight("orig", answered && q.original ? span16(q.original) : null);
}

function show(page, q) {
  page.shown = q.id;
  Array.prototype.forEach.call(page.els.list.children, function (item) {
    item.classList.toggle("is-shown", item.dataset.questionId === String(q.id));
  });
  highlight(page, q);
}

function questionItem(page, q) {
  const item = el("li", "span-question" + (q.id === page.active ? " is-editing" : "") + (q.my_answer ? " is-answered" : "") +
                        (q.id === page.shown ? " is-shown" : ""));
  item.dataset.questionId = q.id;
  const text = el("p", "q-text", q.question);
  text.dir = "auto";
  item.appendChild(text);
  if (q.my_answer) {
    answeredPart(page, item, q);
    // Not a re-render: a click into the flag form must keep its focus and what is typed.
    item.addEventListener("click", function () { show(page, q); });
    item.addEventListener("mouseenter", function () { highlight(page, q); });
    item.addEventListener("mouseleave", function () { highlight(page, questionById(page, page.shown)); });
  } else {
    unansweredPart(page, item, q);
    item.addEventListener("focusin", function () { page.active = q.id; });
  }
  return item;
}

function render(page) {
  const {els, questions} = page;
  els.list.textContent = "";
  questions.forEach(function (q) { els.list.appendChild(questionItem(page, q)); });
  highlight(page, questionById(page, page.shown));
  const answered = questions.filter(function (q) { return q.my_answer; }).length;
  els.count.textContent = fmt(gettext("(%(n)s of %(total)s answered)"), {n: answered, total: questions.length});
  els.submitButton.disabled = answered < questions.length;
  els.submitHint.textContent = answered < questions.length
    ? fmt(gettext("%(n)s left to answer."), {n: questions.length - answered}) : gettext("All answered.");
}

function reload(page) {
  return post(page, "sessions/" + page.data.id + "/").then(function (result) {
    if (result.ok) { page.questions = result.data.questions; render(page); } else { showErrors(page.els.errors, result.data); }
  });
}

function actions(page) {
  return {
    showErrors: function (payload) { showErrors(page.els.errors, payload); },
    answer: function (q, body) {
      body.question_id = q.id;
      return post(page, "sessions/" + page.data.id + "/answers/", body).then(function (result) {
        // A refusal (e.g. 409: answered already, in another tab) leaves the page to show what is stored.
        showErrors(page.els.errors, result.ok ? null : result.data);
        if (result.ok) {
          page.paragraph.setSelection(null);
          page.shown = q.id;
          page.active = firstUnanswered(page.questions, q.id);
        }
        return reload(page);
      });
    },
    flag: function (q, body) {
      body.question_id = q.id;
      return post(page, "sessions/" + page.data.id + "/flags/", body).then(function (result) {
        if (!result.ok) { showErrors(page.els.errors, result.data); return; }
        showErrors(page.els.errors, null);
        page.openFlag = null;
        page.paragraph.setSelection(null);
        return reload(page);
      });
    },
  };
}

function mountParagraph(page) {
  const selectionText = document.getElementById("selection-text");
  const say = announcer(document.getElementById("announcer")); // the page's one live region: said once it settles
  return mount(document.getElementById("paragraph"), page.data.paragraph.context, {
    onChange: function (selection) {
      selectionText.textContent = selection ? selection.text : gettext("nothing yet");
      selectionText.classList.toggle("is-empty", !selection);
      say(selection ? fmt(gettext("Selected answer: %(text)s"), {text: selection.text}) : "");
    },
    onMarkClick: function (id) {
      const q = questionById(page, id);
      const item = page.els.list.querySelector('[data-question-id="' + id + '"]');
      if (q && item) { show(page, q); item.scrollIntoView({block: "nearest"}); }
    },
  });
}

function bindSubmit(page, root, timer) {
  page.els.submitButton.addEventListener("click", function () {
    timer.hold().then(function () { return post(page, "sessions/" + page.data.id + "/submit/", {}); }).then(function (result) {
      if (!result.ok) { timer.release(); showErrors(page.els.errors, result.data); return; }
      timer.stop();
      root.hidden = true;
      document.getElementById("done-panel").hidden = false;
    });
  });
}

function main() {
  const root = document.getElementById("annotate");
  const dataEl = document.getElementById("session-data");
  if (!root || !dataEl || !window.fetch) { return; }
  const data = JSON.parse(dataEl.textContent);
  const byId = (id) => document.getElementById(id);
  const page = {
    data: data, api: root.dataset.apiBase, questions: data.questions,
    active: firstUnanswered(data.questions), // the question the answer buttons act on first
    shown: null,    // the answered question whose answer and original are highlighted
    openFlag: null, // the question whose flag form is open
    els: {list: byId("review-list"), errors: byId("form-errors"), count: byId("answered-count"),
          submitButton: byId("submit-paragraph"), submitHint: byId("submit-hint")},
  };
  page.paragraph = mountParagraph(page);
  page.actions = actions(page);
  const elapsedEl = byId("elapsed");
  const timer = paragraphTimer(page.api, data.id, data.elapsed_seconds, function (seconds) {
    elapsedEl.textContent = digits(Math.floor(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") + seconds % 60);
  });
  bindSubmit(page, root, timer);
  render(page);
}

main();
