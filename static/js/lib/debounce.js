/*
 * One debounce for the pages: `fn` runs once, `ms` after the last call (the arguments of that last
 * call), so typing sends one draft, not one per keystroke.
 *
 *   const later = debounce(fn, 250); later(x); later.cancel(); later.flush()
 * `timers` ({setTimeout, clearTimeout}) is the global clock by default; the unit tests pass a fake one.
 */
export function debounce(fn, ms, timers = globalThis) {
  let handle = null;
  let pending = null; // the arguments of the call waiting to run
  function run() {
    handle = null;
    const args = pending;
    pending = null;
    fn(...args);
  }
  function later(...args) {
    if (handle !== null) { timers.clearTimeout(handle); }
    pending = args;
    handle = timers.setTimeout(run, ms);
  }
  later.cancel = function () {
    if (handle !== null) { timers.clearTimeout(handle); }
    handle = null;
    pending = null;
  };
  later.flush = function () {
    if (handle === null) { return; }
    timers.clearTimeout(handle);
    run();
  };
  return later;
}
