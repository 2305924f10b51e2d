import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";
import regexp from "eslint-plugin-regexp";
import { readdirSync } from "node:fs";

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

/**
 * Import layering (docs/architecture.md, ADR 0020), with ESLint's core `no-restricted-imports` (regex patterns on
 * the import string; it sees `import`, `import type` and `export … from`, not `import()`):
 *
 *   routes (and root/entry) → features → ui, lib, server;   lib → nothing of app but lib;   shared → nothing
 *
 * - a route may import any feature, ui, lib or server module, never another route;
 * - a feature imports its own files; from another feature only that feature's top-level modules (its rules and
 *   strings `<area>.ts`, its server steps `*.server.ts`), never its `components/` or stylesheets;
 * - ui, lib and server never import a feature or a route; ui never imports a `.server` module;
 * - `api/` never imports `app/`, `app/` never imports `api/` (server.ts, outside app/, launches the embedded
 *   api); `shared/` (pure code both must run identically) imports neither.
 * The checks read the specifier, so the layout makes it readable: across folders, app/ imports through `~/`; a
 * relative path goes up at most one level, inside its own feature (or to `shared/`).
 * `tests/unit/import-boundaries.test.ts` proves each rule reports what it forbids and lets through what it allows.
 */
const restrict = (regex, message) => ({ regex, message });
// (a climb to api/ gets only the api message below)
const UP_TO_SHARED = "(?!(\\.\\./)*(shared|api)/)";
const R = {
  noApi: restrict(
    "^(\\.\\./)+api/|^api/",
    "app/ never imports api/: the web talks to the api over HTTP (app/server/upstream/api-client.server.ts); code both need goes in shared/.",
  ),
  noClimbTwo: restrict(
    `^\\.\\./\\.\\./${UP_TO_SHARED}`,
    "Import another folder of app/ through `~/…` (a relative path goes up at most one level, inside its own feature).",
  ),
  noClimbOne: restrict(
    `^\\.\\./${UP_TO_SHARED}`,
    "Import another folder of app/ through `~/…`; a relative path stays in this folder.",
  ),
  noRoutes: restrict(
    "^~/routes/|^(\\.\\.?/)+routes/",
    "Nothing imports a route module: move what both need into the area's feature (app/features/<area>/) or into app/ui, app/lib, app/server.",
  ),
  routeSibling: restrict(
    "^\\./",
    "A route module never imports another route module: move what both need into the area's feature (app/features/<area>/).",
  ),
  bottomNoFeatures: restrict(
    "^~/(features|routes)/",
    "app/ui, app/lib and app/server sit below the features and routes: take what you need as an argument or a prop, or move the shared piece down into app/ui, app/lib or app/server.",
  ),
  uiNoServerOnly: restrict(
    "\\.server$",
    "A ui component runs in the browser: a `.server` module is empty there. Let the route's loader pass the data down.",
  ),
  libNothingOfApp: restrict(
    "^~/(?!lib/)|^\\.\\./",
    "app/lib is pure helpers and imports nothing of app/ but app/lib: take the value as an argument, or put the code where its dependency lives.",
  ),
  apiNoApp: restrict(
    "^~/|^(\\.\\./)+app/|^app/",
    "api/ never imports app/ (ADR 0003, ADR 0020): it shares only the contract with the web. Pure code both must run identically goes in shared/.",
  ),
  sharedNothing: restrict(
    "^~/|^\\.\\./|^(app|api)/",
    "shared/ imports nothing of app/ or api/: it holds pure code both run identically, and packages only.",
  ),
};
/** What a feature may not import from another feature (every other feature, by name). */
const otherFeatureInternals = (feature) =>
  restrict(
    `^~/features/(?!${feature}/)[^/]+/(components/|.*\\.css$)`,
    "A feature imports from another feature only its top-level modules (rules, strings, `.server` steps), never its components or stylesheet: move a shared component to app/ui, or have the route pass it down.",
  );
/** Everywhere: Remix's public API only (no `UNSAFE_` export: it changes without notice between versions). */
const REMIX_PUBLIC_ONLY = {
  regex: "^@remix-run/",
  importNamePattern: "^UNSAFE_",
  message:
    "Remix's UNSAFE_ exports are its internals: use its public API (a route's `handle` read through useMatches(), what a loader or action returns).",
};
const layer = (files, restrictions) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      { patterns: [...restrictions.map(({ regex, message }) => ({ regex, message })), REMIX_PUBLIC_ONLY] },
    ],
  },
});
const FEATURES = readdirSync(new URL("./app/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const TS = "{ts,tsx,js,mjs}";
const LAYERS = [
  layer([`app/*.${TS}`], [R.noApi, R.noClimbOne, R.noRoutes]),
  layer([`app/routes/**/*.${TS}`], [R.noApi, R.noClimbOne, R.noRoutes, R.routeSibling]),
  ...FEATURES.flatMap((f) => [
    layer([`app/features/${f}/*.${TS}`], [R.noApi, R.noClimbOne, R.noRoutes, otherFeatureInternals(f)]),
    layer([`app/features/${f}/*/**/*.${TS}`], [R.noApi, R.noClimbTwo, R.noRoutes, otherFeatureInternals(f)]),
  ]),
  layer([`app/ui/*.${TS}`], [R.noApi, R.noClimbOne, R.bottomNoFeatures, R.uiNoServerOnly]),
  layer([`app/ui/*/**/*.${TS}`], [R.noApi, R.noClimbTwo, R.bottomNoFeatures, R.uiNoServerOnly]),
  layer([`app/lib/**/*.${TS}`], [R.libNothingOfApp]),
  layer([`app/server/*.${TS}`], [R.noApi, R.noClimbOne, R.bottomNoFeatures]),
  layer([`app/server/*/**/*.${TS}`], [R.noApi, R.noClimbTwo, R.bottomNoFeatures]),
  layer([`api/**/*.${TS}`], [R.apiNoApp]),
  layer([`shared/**/*.${TS}`], [R.sharedNothing]),
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
    files: [
      "app/**/*.{ts,tsx,js,mjs}",
      "api/**/*.{ts,tsx,js,mjs}",
      "shared/**/*.{ts,tsx,js,mjs}",
      "server.ts",
    ],
    plugins: { regexp },
    rules: Object.fromEntries(REGEXP_RULES.map((rule) => [`regexp/${rule}`, "error"])),
  },
  ...LAYERS,
  {
    // No barrels (ADR 0020): a module exports what it defines, so every import names the defining file.
    files: ["app/**/*.{ts,tsx,js,mjs}", "api/**/*.{ts,tsx,js,mjs}", "shared/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ExportAllDeclaration, ExportNamedDeclaration[source]",
          message:
            "No re-exports (ADR 0020): importers import each name from the module that defines it. Export only what this file defines.",
        },
      ],
    },
  },
);
