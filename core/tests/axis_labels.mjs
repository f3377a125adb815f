// Renders a Vega-Lite spec (stdin, JSON) headless with the vendored vega and prints each axis's tick
// labels as JSON (a list per axis), so tests check what a reader sees, not just the spec's keys.
import { readFileSync } from "node:fs";
import * as vega from "vega";
import * as vegaLite from "vega-lite";

const spec = JSON.parse(readFileSync(0, "utf8"));
const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
const svg = await view.toSVG();
const axes = [...svg.matchAll(/<g class="mark-text role-axis-label"[^>]*>([\s\S]*?)<\/g>/g)];
console.log(JSON.stringify(axes.map((axis) => [...axis[1].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]))));
