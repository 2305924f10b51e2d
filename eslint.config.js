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
 *
 * The api (`api/`) has the same kind of layers, each importing only from the ones below it (and `shared/`):
 *
 *   wiring (api/*.ts: app, server, config, embedded, worker; api/cli/) → routes → mail → domain → lib → db
 *
 * - the wiring may import anything of api/, and it alone starts the simulators (`api/simulators/`, stand-ins for
 *   third parties: they use domain, lib and db, never a route or mail) and mounts the router
 *   (`api/routes/index.ts`, the only module that imports route modules);
 * - the demo data (`api/db/seed/`) sits beside mail: domain, lib and db; the wiring and the dev routes run it;
 * - `api/db/*.ts` (the connection, row types) imports only db; a migration (`api/db/migrations/`) imports nothing
 *   of ours: it is frozen history, and keeps a copy of what it needs (its index lists them).
 * A relative path in api/ names its layer's folder (`../lib/…`, `../../domain/…`), so a regex can judge it; a
 * bare `api/…`, `app/…` or `shared/…` resolves nowhere (there is no `baseUrl`) and is refused too.
 * The checks read the specifier, so the layout makes it readable: across folders, app/ imports through `~/`; a
 * relative path goes up at most one level, inside its own feature (or to `shared/`). Every layer, in app/ as in
 * api/ and shared/, refuses a specifier that is not written as it resolves (a `.` or `..` segment after its
 * start, e.g. `~/ui/../features/x`, `~/../api/server`, `../lib/../routes/x`): the rules judge the written path.
 * `tests/unit/import-boundaries.test.ts` proves each rule reports what it forbids and lets through what it allows.
 */
const restrict = (regex, message) => ({ regex, message });
// (a climb to api/ gets only the api message below)
const UP_TO_SHARED = "(?!(\\.\\./)*(shared|api)/)";
const R = {
  // A `.` or `..` segment anywhere but in the leading climb (`../../x`): `~/ui/../features/x` is
  // `~/features/x` and `~/../api/server` is api/server, which the rules below would not recognise as written.
  normalised: restrict(
    "^(?:\\.\\./)*(?:\\.?|\\.*[^./][^/]*)/(?:[^/]*/)*\\.\\.?(?:/|$)",
    "Write the path as it resolves (no `.` or `..` after its start): `~/ui/../features/x` is `~/features/x`, and the layer rules judge what is written.",
  ),
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
  apiBare: restrict(
    "^(api|shared)/",
    "A bare path from the repository's root resolves nowhere (tsconfig has no `baseUrl`): import by a relative path (`../lib/…`, `../../shared/…`).",
  ),
  apiNoEdge: restrict(
    "^(\\.\\./)+(app|server|config|embedded|worker)(\\.[jt]s)?$",
    "The api's wiring (api/app.ts, server.ts, config.ts, embedded.ts, worker.ts) sits above every layer: take what you need from ApiDeps (api/lib/http.ts) as an argument.",
  ),
  apiNoRoutes: restrict(
    "^(\\.\\./)+routes(/|$)",
    "Nothing in api/ imports a route module but the router (api/routes/index.ts): move what both need down into api/domain or api/lib.",
  ),
  apiRouteSibling: restrict(
    "^\\./",
    "An api route module never imports another (only api/routes/index.ts mounts them): move what both need down into api/domain or api/lib.",
  ),
  apiNoSimulators: restrict(
    "^(\\.\\./)+simulators(/|$)",
    "Simulators stand in for third parties and only the api's wiring (api/server.ts) starts them: what a route, a job or a rule needs from them goes in api/domain or api/lib.",
  ),
  apiNoMail: restrict(
    "^(\\.\\./)+mail(/|$)",
    "api/mail sits above domain, lib, the seed and the simulators: have the route or the job that sends call it, or move the shared piece down into api/domain or api/lib.",
  ),
  apiNoDomain: restrict(
    "^(\\.\\./)+domain(/|$)",
    "api/lib sits below api/domain: take the value as an argument, or move the code into api/domain.",
  ),
  apiNoSeed: restrict(
    "^(\\.\\./)+(db/)?seed(/|$)|^\\./seed(/|$)",
    "The demo data (api/db/seed) is run by the api's wiring and the dev routes only: move what it shares with the api into api/domain or api/lib.",
  ),
  apiDbBottom: restrict(
    "^\\.\\./(?!(\\.\\./)*app/)",
    "api/db is the bottom layer (the connection, migrations, row types): it imports nothing of api/ above it; take the value as an argument.",
  ),
  apiMigrationNothing: restrict(
    "^\\.|^~/|^(app|api|shared)/",
    "A migration is frozen history: it imports nothing of ours (node and packages only). Copy what it needs into it, frozen, with a comment why.",
  ),
  apiMigrationIndex: restrict(
    "^\\.\\./|^~/|^(app|api|shared)/",
    "The migrations' index lists the migrations and imports nothing else of ours.",
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
      {
        patterns: [
          ...[R.normalised, ...restrictions].map(({ regex, message }) => ({ regex, message })),
          REMIX_PUBLIC_ONLY,
        ],
      },
    ],
  },
});
const FEATURES = readdirSync(new URL("./app/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const TS = "{ts,tsx,js,mjs}";
/** What every api/ module below the wiring refuses: app/, bare paths, the wiring, route modules, simulators. */
const API_BELOW_WIRING = [R.apiNoApp, R.apiBare, R.apiNoEdge, R.apiNoRoutes, R.apiNoSimulators];
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
  // api/: the wiring first (any api/ file in no layer below), then each layer's block replaces it.
  layer([`api/**/*.${TS}`], [R.apiNoApp, R.apiBare]),
  layer([`api/routes/**/*.${TS}`], [...API_BELOW_WIRING, R.apiRouteSibling]),
  layer([`api/routes/index.${TS}`], API_BELOW_WIRING),
  layer([`api/simulators/**/*.${TS}`], [...API_BELOW_WIRING, R.apiNoMail, R.apiNoSeed]),
  layer([`api/mail/**/*.${TS}`], [...API_BELOW_WIRING, R.apiNoSeed]),
  layer([`api/db/seed/**/*.${TS}`], [...API_BELOW_WIRING, R.apiNoMail]),
  layer([`api/domain/**/*.${TS}`], [...API_BELOW_WIRING, R.apiNoMail, R.apiNoSeed]),
  layer([`api/lib/**/*.${TS}`], [...API_BELOW_WIRING, R.apiNoMail, R.apiNoSeed, R.apiNoDomain]),
  layer([`api/db/*.${TS}`], [R.apiNoApp, R.apiBare, R.apiDbBottom, R.apiNoSeed]),
  layer([`api/db/migrations/*.${TS}`], [R.apiMigrationNothing]),
  layer([`api/db/migrations/index.${TS}`], [R.apiMigrationIndex]),
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
    // A Playwright worker's event loop must keep running: while a synchronous child process blocks it, the
    // servers close the worker's idle keep-alive connections and the next request on one fails with "other
    // side closed" (provoked: a 6 s execFileSync between two POST /dev/reset fails the second, the same wait
    // through execFile does not). Await the asynchronous forms instead.
    files: ["tests/e2e/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:child_process",
              importNames: ["execFileSync", "execSync", "spawnSync"],
              message:
                "A synchronous child process blocks the worker while the servers close its idle connections: await execFile (node:util promisify) instead.",
            },
          ],
        },
      ],
    },
  },
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
