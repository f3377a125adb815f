// Copy the minified builds of the chart libraries (and their licences) from node_modules into
// static/vendor/, so the app serves them itself (no CDN). Run after `npm ci`: `npm run vendor`.
// static/vendor/VERSIONS.json records what was copied; a test checks it against package-lock.json.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "static", "vendor");

// Load order matters for the pages: vega, then vega-lite, then vega-embed (UMD globals).
const PACKAGES = [
  { name: "vega", files: ["build/vega.min.js", "LICENSE"] },
  { name: "vega-lite", files: ["build/vega-lite.min.js", "LICENSE"] },
  { name: "vega-embed", files: ["build/vega-embed.min.js", "LICENSE"] },
];

const versions = {};
for (const { name, files } of PACKAGES) {
  const source = join(root, "node_modules", name);
  const version = JSON.parse(readFileSync(join(source, "package.json"), "utf8")).version;
  const dest = join(target, name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const file of files) {
    const base = file.split("/").pop();
    // Drop the source-map comment: the .map files are not vendored.
    if (base.endsWith(".js")) {
      const text = readFileSync(join(source, file), "utf8").replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n");
      writeFileSync(join(dest, base), text);
    } else {
      copyFileSync(join(source, file), join(dest, base));
    }
  }
  versions[name] = version;
}
writeFileSync(join(target, "VERSIONS.json"), JSON.stringify(versions, null, 2) + "\n");
console.log(`vendored into static/vendor: ${Object.entries(versions).map(([n, v]) => `${n}@${v}`).join(", ")}`);
