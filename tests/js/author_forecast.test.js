// The survival forecast line of the authoring page (static/js/author/forecast.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { forecastLine } from "../../static/js/author/forecast.js";

test("a shown forecast says likely or unlikely with the server's words", () => {
  assert.deepEqual(forecastLine({ state: "forecast", likely: true, percent: 70, message: "Likely (about 70%)." }),
    ["likely", "Likely (about 70%)."]);
  assert.deepEqual(forecastLine({ state: "forecast", likely: false, percent: 20, message: "Unlikely." }),
    ["unlikely", "Unlikely."]);
});

test("no forecast yet is said as the server words it", () => {
  assert.deepEqual(forecastLine({ state: "none", message: "not enough scored questions yet" }),
    ["none", "not enough scored questions yet"]);
});

test("a message without a survival part hides the line", () => {
  for (const value of [undefined, null, "text", {}, { state: "forecast" }, { state: "none", message: "" }]) {
    assert.equal(forecastLine(value), null);
  }
});
