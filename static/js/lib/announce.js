/*
 * The page's one polite live region (templates/includes/announcer.html): what a screen reader
 * says when something has settled — the model's guess for the draft as it stands, the answer span
 * once the selection stops moving — never on each keystroke. Visual status lines (probability
 * bars, "asking the model…", the selection as it grows) are not live regions; they tell this.
 *
 *   const say = announcer(document.getElementById("announcer")); say(text); say.part(name, text)
 * `say(text)` writes `text` into the region `ms` after the last call (the last text wins), and
 * only when it differs from what the region said last; an empty text says nothing. `say.part`
 * keeps several things that settle close together (the selected span, then the model's answer to
 * it) in one announcement, each part once: the parts are forgotten when the region speaks, and an
 * empty part withdraws that part. `say.cancel()` drops what is pending. `timers` is the global
 * clock by default; the unit tests pass a fake one (tests/js/announce.test.js).
 * `pageAnnouncer()` is the announcer of the page's #announcer, one for all the page's modules.
 */
import { debounce } from "./debounce.js";

export const SETTLE_MS = 700;

export function announcer(region, ms = SETTLE_MS, timers = globalThis) {
  let said = "";
  let parts = new Map(); // name -> text, not said yet
  const say = debounce(function (text) {
    parts = new Map();
    const clean = String(text || "").replace(/\s+/g, " ").trim();
    if (!region || clean === "" || clean === said) { return; }
    said = clean;
    region.textContent = clean;
  }, ms, timers);
  say.part = function (name, text) {
    parts.set(name, String(text || ""));
    say(Array.from(parts.values()).filter(Boolean).join(" "));
  };
  const cancel = say.cancel;
  say.cancel = function () { parts = new Map(); cancel(); };
  return say;
}

const pageAnnouncers = new Map(); // element id -> its announcer

/** The one announcer of the page's live region (templates/includes/announcer.html), shared by its modules. */
export function pageAnnouncer(id = "announcer") {
  if (!pageAnnouncers.has(id)) { pageAnnouncers.set(id, announcer(document.getElementById(id))); }
  return pageAnnouncers.get(id);
}
