/*
 * The second pass (annotation/templates/annotation/second_pass.html): answer others' questions
 * blind, by a span or "unanswerable"; once answered, the original answer is shown and can be
 * flagged (fix / unanswerable / remove) for the project owner. Each answer is stored at once
 * through POST /api/annotation/sessions/<id>/answers/. User text is only written with textContent.
 */
(function () {
  "use strict";

  var root = document.getElementById("annotate");
  var dataEl = document.getElementById("session-data");
  if (!root || !dataEl || !window.StumperSpans || !window.StumperApi || !window.fetch) { return; }

  var data = JSON.parse(dataEl.textContent);
  var api = root.dataset.apiBase;
  var questions = data.questions;
  var active = questions.length ? questions[0].id : null;
  var listEl = document.getElementById("review-list");
  var errorsEl = document.getElementById("form-errors");
  var countEl = document.getElementById("answered-count");
  var submitButton = document.getElementById("submit-paragraph");
  var submitHint = document.getElementById("submit-hint");
  var selectionText = document.getElementById("selection-text");
  var PROPOSALS = [["fix_answer", "Replace it with my answer"], ["mark_unanswerable", "The question is unanswerable"],
                   ["remove_question", "Remove the question"]];

  function post(path, body) { return window.StumperApi.call(api + path, body); }
  function showErrors(payload) { window.StumperApi.showErrors(errorsEl, payload); }

  var paragraph = window.StumperSpans.mount(document.getElementById("paragraph"), data.paragraph.context, {
    onChange: function (selection) { selectionText.textContent = selection ? selection.text : "nothing yet"; },
  });

  function reload() {
    return window.StumperApi.call(api + "sessions/" + data.id + "/").then(function (result) {
      if (result.ok) { questions = result.data.questions; render(); } else { showErrors(result.data); }
    });
  }

  function save(q, body) {
    body.question_id = q.id;
    return post("sessions/" + data.id + "/answers/", body).then(function (result) {
      if (!result.ok) { showErrors(result.data); return; }
      showErrors(null);
      paragraph.setSelection(null);
      var next = questions.filter(function (other) { return !other.my_answer && other.id !== q.id; })[0];
      if (next) { active = next.id; }
      return reload();
    });
  }

  function mine(q) {
    return q.my_answer.is_impossible ? null : {start16: q.my_answer.start16, end16: q.my_answer.end16};
  }

  function button(label, onClick, primary) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button" + (primary ? " button-primary" : " button-quiet");
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function flagControls(q) {
    var box = document.createElement("div");
    box.className = "flag-box";
    if (q.flag) {
      var p = document.createElement("p");
      p.className = "small";
      p.textContent = "You flagged this question (" + q.flag.status + ").";
      box.appendChild(p);
      return box;
    }
    var select = document.createElement("select");
    select.setAttribute("aria-label", "What should happen to the question");
    PROPOSALS.forEach(function (pair) {
      var option = document.createElement("option");
      option.value = pair[0];
      option.textContent = pair[1];
      if (pair[0] === "fix_answer" && q.my_answer.is_impossible) { option.disabled = true; }
      select.appendChild(option);
    });
    var reason = document.createElement("input");
    reason.type = "text";
    reason.placeholder = "Why is the original answer wrong?";
    reason.setAttribute("aria-label", "Reason");
    box.appendChild(select);
    box.appendChild(reason);
    box.appendChild(button("Flag the original answer", function () {
      var body = {is_impossible: q.my_answer.is_impossible, flag: {proposal: select.value, reason: reason.value}};
      if (!q.my_answer.is_impossible) { body.answer = {text: q.my_answer.text, answer_start: q.my_answer.answer_start}; }
      save(q, body);
    }));
    return box;
  }

  function render() {
    listEl.textContent = "";
    var answered = 0;
    questions.forEach(function (q) {
      var item = document.createElement("li");
      item.className = "span-question" + (q.id === active ? " is-editing" : "");
      var text = document.createElement("p");
      text.className = "q-text";
      text.dir = "auto";
      text.textContent = q.question;
      item.appendChild(text);
      if (q.my_answer) {
        answered += 1;
        var own = document.createElement("p");
        own.textContent = "Your answer: " + (q.my_answer.is_impossible ? "unanswerable" : q.my_answer.text);
        item.appendChild(own);
        if (q.original) {
          var original = document.createElement("p");
          original.className = "muted";
          original.textContent = "Original answer: " + (q.original.is_impossible ? "unanswerable" : q.original.text);
          item.appendChild(original);
        }
        item.appendChild(flagControls(q));
        item.addEventListener("mouseenter", function () { paragraph.setHighlight("ans", mine(q)); });
        item.addEventListener("mouseleave", function () { paragraph.setHighlight("ans", null); });
      }
      var actions = document.createElement("div");
      actions.className = "q-actions";
      actions.appendChild(button(q.my_answer ? "Answer again with the selection" : "Use the selected text as the answer", function () {
        var selection = paragraph.selection();
        if (!selection) { showErrors({answer: "Select the answer in the paragraph first."}); return; }
        save(q, {is_impossible: false, selection: {start16: selection.start16, end16: selection.end16}});
      }, !q.my_answer));
      actions.appendChild(button("Unanswerable", function () { save(q, {is_impossible: true}); }));
      item.addEventListener("focusin", function () { active = q.id; });
      item.appendChild(actions);
      listEl.appendChild(item);
    });
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

  var started = Date.now() - data.elapsed_seconds * 1000;
  var elapsedEl = document.getElementById("elapsed");
  window.setInterval(function () {
    var seconds = Math.floor((Date.now() - started) / 1000);
    elapsedEl.textContent = Math.floor(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") + seconds % 60;
  }, 1000);
  render();
})();
