// ESLint (flat config) for the browser code in static/js: ES modules, no build step.
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
    },
  },
  {
    files: ["scripts/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
