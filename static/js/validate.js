/*
 * Keyboard shortcuts of the validation page (collector/templates/collector/validate.html):
 * 1-4 pick a completion (unless typing in the comment), Ctrl/Cmd+Enter saves. Plain JavaScript.
 */

function main() {
  const form = document.getElementById("validate-form");
  if (!form) { return; }
  const radios = Array.prototype.slice.call(form.querySelectorAll('input[name="choice"]'));
  const submitButton = document.getElementById("submit-validation");

  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type === "text"));
  }

  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      if (typeof form.requestSubmit === "function") { form.requestSubmit(); } else { form.submit(); }
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return; }
    const digit = /^(Digit|Numpad)([1-4])$/.exec(event.code || "");
    if (digit && radios[Number(digit[2]) - 1]) {
      event.preventDefault();
      radios[Number(digit[2]) - 1].checked = true;
      radios[Number(digit[2]) - 1].focus();
    }
  });

  form.addEventListener("submit", function () {
    window.setTimeout(function () { submitButton.disabled = true; }, 0);
  });
  window.addEventListener("pageshow", function () { submitButton.disabled = false; });
}

main();
