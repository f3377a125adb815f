// A read-only field marked data-select-on-focus (an API token, an invite link) selects its whole
// value when focused, ready to copy. In a module because the Content-Security-Policy allows no
// inline handlers (onfocus="…").

document.addEventListener("focusin", (event) => {
  const field = event.target;
  if (field instanceof HTMLInputElement && field.hasAttribute("data-select-on-focus")) {
    field.select();
  }
});
