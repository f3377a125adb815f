/*
 * Draws every chart of a page with the vendored vega-embed (static/vendor/, loaded before this
 * module as classic scripts, so `window.vegaEmbed` is set). The specs are Vega-Lite documents built
 * on the server (core/charts.py) and placed in the page by templates/includes/chart.html as
 * <script type="application/json">; each .vl-chart names its spec in data-vl-spec. The table beside
 * each chart holds the same numbers, so a page without JavaScript loses nothing.
 */
import { gettext } from "./lib/i18n.js";

const OPTIONS = {
  renderer: "svg",
  // Export as PNG/SVG stays; nothing opens the online editor or shows the source.
  actions: { export: true, source: false, compiled: false, editor: false },
  tooltip: { theme: "light" },
  // Vega compiles its expressions to JavaScript with `new Function` by default, which the
  // Content-Security-Policy (no 'unsafe-eval') refuses. With `ast: true` vega-embed hands Vega the
  // parsed expressions and evaluates them with vega-interpreter, the CSP-safe interpreter that
  // the vendored vega-embed build includes (vega-embed 7 depends on it, package-lock.json).
  ast: true,
};

/**
 * The spec with its fixed plot width replaced by its container's: the whole chart (axis, legend and
 * title included, `contains: "padding"`) fits the box on a phone and grows on a wide screen.
 */
export function fitContainer(spec, boxWidth) {
  if (typeof spec.width !== "number") {
    return spec;
  }
  const fitted = { ...spec, width: "container", autosize: { type: "fit-x", contains: "padding" } };
  if (spec.title && typeof spec.title === "object" && boxWidth > 0) {
    // Vega never wraps a title and autosize does not shrink it: break it into lines that fit.
    const chars = Math.max(16, Math.floor((boxWidth - 40) / 9));  // 38 px: vega-embed's menu button
    fitted.title = { ...spec.title, text: wrapWords(spec.title.text, chars) };
    if (spec.title.subtitle) {
      fitted.title.subtitle = wrapWords(spec.title.subtitle, chars);
    }
  }
  return fitted;
}

/** `text` as lines of at most `chars` characters, broken between words (one line when it fits). */
export function wrapWords(text, chars) {
  if (typeof text !== "string" || text.length <= chars) {
    return text;
  }
  const lines = [];
  let line = "";
  // A word longer than a line (a URL, Persian without spaces) is cut into pieces that fit.
  const words = text.split(" ").flatMap((word) => word.match(new RegExp(`.{1,${chars}}`, "gu")) ?? [word]);
  for (const word of words) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines;
}

/** Embed one chart; a failure leaves the table and a short note instead of a broken page. */
export async function embedChart(element) {
  const source = document.getElementById(element.dataset.vlSpec);
  if (!source || typeof window.vegaEmbed !== "function") {
    return null;
  }
  try {
    const result = await window.vegaEmbed(element, fitContainer(JSON.parse(source.textContent), element.clientWidth), OPTIONS);
    // Screen readers read the table beside it: hide the drawing only, not vega-embed's export
    // menu, a keyboard control that must not sit inside aria-hidden (axe: aria-hidden-focus).
    element.querySelector("svg.marks, canvas.marks")?.setAttribute("aria-hidden", "true");
    // The menu's button is an icon only: give it a name (axe: summary-name).
    element.querySelector("details > summary")?.setAttribute("aria-label", gettext("Export the chart"));
    element.dataset.vlState = "drawn";
    return result;
  } catch (error) {
    element.dataset.vlState = "failed";
    element.textContent = `This chart could not be drawn (${error.message}); the table has its numbers.`;
    return null;
  }
}

/** Embed every chart under `root` that is not drawn yet. */
export function embedCharts(root = document) {
  const pending = [...root.querySelectorAll(".vl-chart:not([data-vl-state])")];
  return Promise.all(pending.map(embedChart));
}

embedCharts();
