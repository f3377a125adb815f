/*
 * The writing page's list of added questions (annotation.js): one item per question in its
 * colour, with its answer, the model's verdict and Edit / Delete buttons; the answers shown in the
 * paragraph as marks; the count and the submit hint. User text is only written with textContent.
 *
 *   renderList(page) where page = {project, questions, editingId, selectedId, paragraph, els, actions}
 */
import { decimal, fmt, gettext, ngettext } from "../lib/i18n.js";

export const COLOURS = 8; // hl-c0 … hl-c7 in annotation.css

export function verdictBadge(project, prediction) {
  if (!project.has_model) { return null; }
  const badge = document.createElement("span");
  badge.className = "badge";
  if (!prediction) {
    badge.classList.add("badge-pending");
    badge.textContent = gettext("model pending");
  } else if (prediction.fooled) {
    badge.classList.add("badge-fooled");
    badge.textContent = gettext("fooled the model");
  } else {
    badge.classList.add("badge-not-fooled");
    badge.textContent = gettext("model found it");
  }
  badge.title = prediction ? fmt(gettext("Model's answer: %(text)s (F1 %(f1)s)"),
                                 {text: prediction.text || gettext("no answer"), f1: decimal(prediction.f1, 2)}) : "";
  return badge;
}

function answerSpan(q) {
  return q.answers.length && q.answers[0].end16 !== undefined ? {start16: q.answers[0].start16, end16: q.answers[0].end16} : null;
}

function showMarks(page) {
  // Every added answer in its question's colour; the one being edited shows as the selection instead.
  page.paragraph.setMarks(page.questions.map(function (q, index) {
    const span = answerSpan(q);
    return span && q.id !== page.editingId ? {id: q.id, start16: span.start16, end16: span.end16, colour: index % COLOURS} : null;
  }), page.selectedId);
}

function answerLine(page, q, index) {
  const answer = document.createElement("p");
  answer.className = "q-answer";
  if (q.is_impossible) {
    answer.textContent = gettext("Unanswerable");
    answer.classList.add("muted");
  } else {
    const mark = document.createElement("mark");
    mark.className = "ans-sample hl-c" + (index % COLOURS);
    mark.dir = "auto";
    mark.textContent = q.answers[0].text;
    answer.appendChild(document.createTextNode(gettext("Answer:") + " "));
    answer.appendChild(mark);
  }
  const badge = verdictBadge(page.project, q.prediction);
  if (badge) { answer.appendChild(document.createTextNode(" ")); answer.appendChild(badge); }
  return answer;
}

function actionButton(label, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button button-quiet";
  button.textContent = label;
  button.addEventListener("click", onClick);
  return button;
}

function questionItem(page, q, index) {
  const item = document.createElement("li");
  item.className = "span-question q-c" + (index % COLOURS) + (q.id === page.editingId ? " is-editing" : "") +
                   (q.id === page.selectedId ? " is-selected" : "");
  item.dataset.questionId = q.id;
  item.tabIndex = 0;
  const text = document.createElement("p");
  text.className = "q-text";
  text.dir = "auto";
  text.textContent = q.question;
  const actions = document.createElement("div");
  actions.className = "q-actions";
  actions.appendChild(actionButton(gettext("Edit"), function () { page.actions.startEdit(q); }));
  actions.appendChild(actionButton(gettext("Delete"), function () { page.actions.remove(q); }));
  item.append(text, answerLine(page, q, index), actions);
  item.addEventListener("click", function (event) {
    if (!event.target.closest("button") && page.selectedId !== q.id) { selectQuestion(page, q.id, false); }
  });
  return item;
}

export function updateCounts(page) {
  const {project, els} = page;
  const n = page.questions.length;
  els.count.textContent = fmt(gettext("(%(n)s of %(min)s–%(max)s)"), {n: n, min: project.questions_min, max: project.questions_max});
  const full = n >= project.questions_max && page.editingId === null;
  els.addButton.disabled = full;
  if (n < project.questions_min) {
    const missing = project.questions_min - n;
    els.submitHint.textContent = fmt(ngettext("Write %(n)s more question to submit.", "Write %(n)s more questions to submit.", missing), {n: missing});
  } else if (full) {
    els.submitHint.textContent = gettext("That is the most questions for one paragraph: submit when you are happy with them.");
  } else {
    els.submitHint.textContent = fmt(gettext("Ready to submit (you may add up to %(n)s more)."), {n: project.questions_max - n});
  }
  els.submitButton.disabled = n < project.questions_min || n > project.questions_max;
}

export function renderList(page) {
  const els = page.els;
  els.list.textContent = "";
  page.questions.forEach(function (q, index) { els.list.appendChild(questionItem(page, q, index)); });
  showMarks(page);
  els.empty.hidden = page.questions.length > 0;
  updateCounts(page);
}

export function selectQuestion(page, id, focus) {
  page.selectedId = id;
  renderList(page);
  const item = page.els.list.querySelector('[data-question-id="' + id + '"]');
  if (item && focus) {
    item.scrollIntoView({block: "nearest"});
    item.focus();
  }
}
