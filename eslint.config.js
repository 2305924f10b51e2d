import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";
import regexp from "eslint-plugin-regexp";

/**
 * Regular expressions of the server and the app, checked statically: no pattern that can backtrack
 * super-linearly (a hostile string must not stall the process), and eslint-plugin-regexp's rules for patterns
 * that cannot mean what they say. Tests may keep old patterns as references (tests/unit/sentry-scrub.test.ts).
 */
const REGEXP_RULES = [
  "no-super-linear-backtracking",
  "no-super-linear-move",
  "confusing-quantifier",
  "no-contradiction-with-assertion",
  "no-dupe-characters-character-class",
  "no-dupe-disjunctions",
  "no-empty-alternative",
  "no-empty-capturing-group",
  "no-empty-character-class",
  "no-empty-group",
  "no-empty-lookarounds-assertion",
  "no-escape-backspace",
  "no-invalid-regexp",
  "no-lazy-ends",
  "no-misleading-capturing-group",
  "no-misleading-unicode-character",
  "no-missing-g-flag",
  "no-obscure-range",
  "no-optional-assertion",
  "no-potentially-useless-backreference",
  "no-useless-assertions",
  "no-useless-backreference",
  "no-useless-dollar-replacements",
  "no-useless-quantifier",
  "no-zero-quantifier",
  "optimal-lookaround-quantifier",
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "bench/floor-remix/build/**",
      "public/build/**",
      "dist/**",
      "data/**",
      ".cache/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "jsx-a11y/no-autofocus": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx,js,mjs}", "api/**/*.{ts,tsx,js,mjs}", "server.ts"],
    plugins: { regexp },
    rules: Object.fromEntries(REGEXP_RULES.map((rule) => [`regexp/${rule}`, "error"])),
  },
);
