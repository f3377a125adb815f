// The main navigation's menu button on narrow screens (<= 760px wide; see stumper.css).
// Without this script the links simply show, wrapped; with it they fold behind one button that
// says whether it is open (aria-expanded) and closes on Escape or a click elsewhere.

const nav = document.querySelector(".nav");
const button = nav?.querySelector(".nav-toggle");
const menu = nav?.querySelector(".nav-menu");

function setOpen(open) {
  nav.classList.toggle("is-open", open);
  button.setAttribute("aria-expanded", String(open));
}

if (nav && button && menu) {
  nav.classList.add("nav-js");
  button.addEventListener("click", () => setOpen(!nav.classList.contains("is-open")));
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("is-open")) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (nav.classList.contains("is-open") && !nav.contains(event.target)) {
      setOpen(false);
    }
  });
}
