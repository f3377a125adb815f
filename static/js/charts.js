/*
 * Draws every chart of a page with the vendored vega-embed (static/vendor/, loaded before this
 * module as classic scripts, so `window.vegaEmbed` is set). The specs are Vega-Lite documents built
 * on the server (core/charts.py) and placed in the page by templates/includes/chart.html as
 * <script type="application/json">; each .vl-chart names its spec in data-vl-spec. The table beside
 * each chart holds the same numbers, so a page without JavaScript loses nothing.
 */
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

/** Embed one chart; a failure leaves the table and a short note instead of a broken page. */
export async function embedChart(element) {
  const source = document.getElementById(element.dataset.vlSpec);
  if (!source || typeof window.vegaEmbed !== "function") {
    return null;
  }
  try {
    const result = await window.vegaEmbed(element, JSON.parse(source.textContent), OPTIONS);
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
