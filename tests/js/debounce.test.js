// The one debounce of the pages (static/js/lib/debounce.js), on a fake clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { debounce } from "../../static/js/lib/debounce.js";

function fakeClock() {
  let now = 0;
  let nextId = 1;
  const due = new Map(); // id -> [time, fn]
  return {
    setTimeout(fn, ms) { const id = nextId++; due.set(id, [now + ms, fn]); return id; },
    clearTimeout(id) { due.delete(id); },
    advance(ms) {
      now += ms;
      for (const [id, [time, fn]] of [...due].sort((a, b) => a[1][0] - b[1][0])) {
        if (time <= now) { due.delete(id); fn(); }
      }
    },
    pending() { return due.size; },
  };
}

test("a burst of calls runs once, after the last one, with its arguments", () => {
  const clock = fakeClock();
  const calls = [];
  const later = debounce((x) => calls.push(x), 250, clock);
  later("a"); clock.advance(100);
  later("ab"); clock.advance(249);
  assert.deepEqual(calls, []);
  later("abc"); clock.advance(249);
  assert.deepEqual(calls, []);
  clock.advance(1);
  assert.deepEqual(calls, ["abc"]);
  assert.equal(clock.pending(), 0);
});

test("calls far enough apart each run", () => {
  const clock = fakeClock();
  const calls = [];
  const later = debounce((x) => calls.push(x), 100, clock);
  later(1); clock.advance(100);
  later(2); clock.advance(100);
  assert.deepEqual(calls, [1, 2]);
});

test("cancel drops the waiting call; flush runs it now, once", () => {
  const clock = fakeClock();
  const calls = [];
  const later = debounce((x) => calls.push(x), 100, clock);
  later(1); later.cancel(); clock.advance(500);
  assert.deepEqual(calls, []);
  later(2); later.flush();
  assert.deepEqual(calls, [2]);
  clock.advance(500); later.flush();
  assert.deepEqual(calls, [2]);
});

test("the default clock is the real one", async () => {
  const calls = [];
  const later = debounce(() => calls.push(Date.now()), 5);
  later(); later();
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(calls.length, 1);
});
