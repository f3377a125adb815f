// The page's one polite live region (static/js/lib/announce.js), on a fake clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { announcer } from "../../static/js/lib/announce.js";

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
  };
}

function region() {
  const writes = [];
  return { writes, set textContent(text) { writes.push(text); } };
}

test("a burst of texts is said once, the last one, after the region settles", () => {
  const clock = fakeClock();
  const el = region();
  const say = announcer(el, 700, clock);
  say("Model picks A"); clock.advance(300);
  say("Model picks B"); clock.advance(699);
  assert.deepEqual(el.writes, []);
  clock.advance(1);
  assert.deepEqual(el.writes, ["Model picks B"]);
});

test("the same text is not said twice in a row; a different one is, and then the first again", () => {
  const clock = fakeClock();
  const el = region();
  const say = announcer(el, 10, clock);
  say("fooled"); clock.advance(10);
  say(" fooled \n"); clock.advance(10);
  say("not fooled"); clock.advance(10);
  say("fooled"); clock.advance(10);
  assert.deepEqual(el.writes, ["fooled", "not fooled", "fooled"]);
});

test("an empty text says nothing and a cancelled one is never said", () => {
  const clock = fakeClock();
  const el = region();
  const say = announcer(el, 10, clock);
  say(""); clock.advance(10);
  say(null); clock.advance(10);
  say("gone"); say.cancel(); clock.advance(10);
  assert.deepEqual(el.writes, []);
});

test("parts that settle close together are said in one announcement, each once", () => {
  const clock = fakeClock();
  const el = region();
  const say = announcer(el, 700, clock);
  say.part("selection", "Selected answer: Nile."); clock.advance(400);
  say.part("model", "Model's answer: Cairo."); clock.advance(700);
  assert.deepEqual(el.writes, ["Selected answer: Nile. Model's answer: Cairo."]);
  say.part("model", "Model's answer: Khartoum."); clock.advance(700); // the selection is not said again
  say.part("selection", "Selected answer: Sudan."); say.part("selection", ""); clock.advance(700); // withdrawn
  assert.deepEqual(el.writes, ["Selected answer: Nile. Model's answer: Cairo.", "Model's answer: Khartoum."]);
});
