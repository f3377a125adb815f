// ESLint (flat config) for the browser code in static/js (ES modules, no build step) and its unit tests in tests/js.
// Run by scripts/test.sh before pytest; `npm run lint` by hand. Vendored libraries are not ours.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/vendor/**", "staticfiles/**", "node_modules/**", "var/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-implicit-globals": "error",
      // The Python's limits (tests/test_architecture.py, STYLE.md): files under 400 lines, short
      // functions, simple branching. A page is an entry module wiring modules by concern.
      "max-lines": ["error", { max: 400 }],
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ["error", 10],
      "max-depth": ["error", 4],
      "max-params": ["error", 6],
    },
  },
  {
    // The unit tests of the pure modules, run with node's own test runner (`npm test`: node --test tests/js/*.test.js).
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: { "max-lines": ["error", { max: 400 }] },
  },
  {
    files: ["scripts/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
