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

  // The radio a plain 1-4 picks (Alt, Ctrl and Cmd combinations and typing are left alone), or null.
  function pickedRadio(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return null; }
    const digit = /^(Digit|Numpad)([1-4])$/.exec(event.code || "");
    return digit ? radios[Number(digit[2]) - 1] || null : null;
  }

  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    const radio = pickedRadio(event);
    if (radio) {
      event.preventDefault();
      radio.checked = true;
      radio.focus();
    }
  });

  form.addEventListener("submit", function () {
    window.setTimeout(function () { submitButton.disabled = true; }, 0);
  });
  window.addEventListener("pageshow", function () { submitButton.disabled = false; });
}

main();
