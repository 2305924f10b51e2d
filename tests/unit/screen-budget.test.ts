import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A screen in a few files (docs/architecture.md "Route modules"): every route module, with the files
 * of app/ it reaches through its own imports, stays within a budget of own files and own lines, so that a
 * reader follows a screen in a few files.
 *
 * A route's own files: the route module, then every module of app/ it imports (statically or by `import()`),
 * and theirs, transitively. The walk stops at the layers every screen shares (app/ui, app/lib, app/server) and
 * at anything outside app/ (shared/, packages): their size is nobody's screen. A type-only import is not
 * followed (no code of it runs for the screen). Stylesheets and other assets are not counted.
 */

const APP = path.resolve(__dirname, "../../app");
const SHARED_LAYERS = ["ui", "lib", "server"];
const DEFAULT_BUDGET = { files: 8, lines: 1200 };

/**
 * The routes held to another budget, and why. Each is today's size: a screen may shrink, never grow, and a new
 * route gets the default. Lines are rounded up to the next 100.
 */
const BUDGETS: Record<string, { files: number; lines: number; why: string }> = {
  "_app.tsx": {
    files: 17,
    lines: 2800,
    why: "the shell: its location select, and the utility connect dialog any signed-in page opens (the whole connect flow of features/accounts, its Success saying what happens next: rule connect-what-next); since the location's own today (rule location-today) the locations module carries the time-zone helpers; the dialog keeps the location it was opened for (rule connect-keeps-location)",
  },
  "_app.accounts.tsx": {
    files: 14,
    lines: 2000,
    why: "the accounts page: accounts by location, their status and missing bills, the credential banners, and Choose location for accounts not yet assigned (rule account-choose-location), whose choices are the person's locations as every page lists them (locations.server.ts and what it brings)",
  },
  "_app.authorize-arcadia.tsx": {
    files: 21,
    lines: 3450,
    why: "the utility connect flow: accounts, their status, onboarding steps, the ConEd account list and the provider's Connect (its package's loader and the global that package needs: two .client modules, ADR 0024); how Connect ended (verified and pending to Success, rejected and timed out stay on the step: rule connect-close-outcome); the MFA warning before Connect and the hosted page's way back taken once (rules mfa-checkbox, connect-url-session); Success saying what happens next (rule connect-what-next)",
  },
  "_app.locations._index.tsx": {
    files: 10,
    lines: 1600,
    why: "the dashboard: one view model over locations, bills and account status, its table, summary cards and vendor alert; the locations module's time-zone helpers (rule location-today); an account's old bill on its row and what to do about it in the expanded account (rule old-bill-45-days)",
  },
  "_app.locations.$locationId.control.tsx": {
    files: 14,
    lines: 2000,
    why: "the control room: the thermostat rules (limits, schedules, issues; 461 lines with their unit tests), the card and its settings form (the closed form, and the live one with its schema, loaded when it opens: two files; what was typed into the closed form is handed to the live one), the control-room view model (control-room.server.ts: its reads, its times, its idempotent change); the location check and heading are the locations feature's",
  },
  "_app.locations.$locationId.spending.tsx": {
    files: 15,
    lines: 2400,
    why: "spending: the bills table and flag answers, with the energy chart the usage pages draw and the connect link of accounts; the form's schemas in a file of their own (spending-form.ts: no zod in the page's JavaScript)",
  },
  "_app.locations.$locationId.spending.csv.tsx": {
    files: 9,
    lines: 1420,
    why: "the spending CSV writes the same series as the page (bills and the usage chart data), so it reaches the same rules (the page's wait for a first statement, rule connect-what-next, included); the locations module's time-zone helpers (rule location-today); the form schemas in a file of their own (spending-form.ts)",
  },
  "_app.locations.$locationId.usage.$usageType.tsx": {
    files: 19,
    lines: 3050,
    why: "usage: periods and their pickers, the chart and its data, with the bills that mark the billing periods; the location's own today bounds the pickers (rule location-today) and an unknown usage type goes to the index (shell's page-not-found); the pickers loaded when one opens (picker-dialogs.tsx); the location named as every page and export names it (rule location-name)",
  },
  "_app.locations.$locationId.usage.$usageType.csv.tsx": {
    files: 14,
    lines: 2400,
    why: "the usage CSV reads the same periods and series as the page; the location's own today bounds its periods (rule location-today) and an unknown usage type goes to the index (shell's page-not-found); the pickers loaded when one opens (picker-dialogs.tsx)",
  },
  "_app.grid-services.tsx": {
    files: 8,
    lines: 1800,
    why: "grid services: each event measured against its baseline (rules grid-cbl, grid-event-reduction, grid-event-earnings), the season's head, the period filter of the findings and the opt-out button",
  },
  "_app.grid-services_.csv.tsx": {
    files: 8,
    lines: 1400,
    why: "the grid services CSV writes the page's rows and figures with the same period filter",
  },
  "_app.override-report.($thermostatId).tsx": {
    files: 11,
    lines: 2300,
    why: "the schedule-compliance report: its rules, history chart, month picker and the report's parts; the client's today in its home time zone picks the default month (rule location-today), from the locations list",
  },
  "free-bill-health-check.tsx": {
    files: 18,
    lines: 2650,
    why: "the public health check: its own steps plus the utility picker and connect widget of accounts, signed out, and the provider's Connect opener (its own lazy .client chunk, as on the connect page), whose step carries the MFA warning of a utility that is not exempt (rule mfa-checkbox)",
  },
};

type Own = { files: Map<string, number>; lines: number };

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

function resolveImport(appDir: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = path.join(appDir, spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.resolve(path.dirname(from), spec);
  else return null; // a package
  base = base.replace(/\?.*$/, "");
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** The modules a file imports for their code: static imports (not `import type`) and `import()`. */
function importsOf(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return specs;
}

/** Whether the walk goes into this file: app/'s own code, not its shared layers, not outside app/. */
function isOwn(appDir: string, file: string) {
  const rel = path.relative(appDir, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return false;
  if (!/\.tsx?$/.test(rel)) return false;
  return !SHARED_LAYERS.includes(rel.split(path.sep)[0]);
}

/** A route module's own files (path relative to app/ → lines) and their lines. */
function ownFiles(appDir: string, route: string): Own {
  const files = new Map<string, number>();
  const queue = [route];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const key = path.relative(appDir, file);
    if (files.has(key)) continue;
    const source = readFileSync(file, "utf8");
    files.set(key, lineCount(source));
    for (const spec of importsOf(file, source)) {
      const target = resolveImport(appDir, file, spec);
      if (target && isOwn(appDir, target) && !files.has(path.relative(appDir, target))) queue.push(target);
    }
  }
  return { files, lines: [...files.values()].reduce((a, b) => a + b, 0) };
}

/** What is over budget for one route (empty when it fits). */
function overBudget(name: string, own: Own, budget: { files: number; lines: number }) {
  const problems: string[] = [];
  if (own.files.size > budget.files)
    problems.push(
      `${name}: ${own.files.size} own files > ${budget.files} (${[...own.files.keys()].join(", ")})`,
    );
  if (own.lines > budget.lines) problems.push(`${name}: ${own.lines} own lines > ${budget.lines}`);
  return problems;
}

const routes = readdirSync(path.join(APP, "routes"))
  .filter((f) => /\.tsx?$/.test(f))
  .sort();

describe("screen budget", () => {
  it("finds the route modules", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it("holds every route to its budget of own files and lines", () => {
    const problems = routes.flatMap((route) =>
      overBudget(route, ownFiles(APP, path.join(APP, "routes", route)), BUDGETS[route] ?? DEFAULT_BUDGET),
    );
    expect(problems).toEqual([]);
  });

  it("lists only routes that exist, each with a reason, below the default where it can be", () => {
    for (const [route, budget] of Object.entries(BUDGETS)) {
      expect(routes).toContain(route);
      expect(budget.why.length).toBeGreaterThan(40);
      expect(budget.files > DEFAULT_BUDGET.files || budget.lines > DEFAULT_BUDGET.lines).toBe(true);
    }
  });

  it("catches a planted violation: a ninth file, and lines beyond the budget, through a feature's imports", () => {
    const app = mkdtempSync(path.join(tmpdir(), "screen-budget-"));
    for (const dir of ["routes", "features/a/components", "features/b", "ui", "lib"])
      mkdirSync(path.join(app, dir), { recursive: true });
    const write = (rel: string, text: string) => writeFileSync(path.join(app, rel), text);
    const filler = (n: number) => "export const x = 1;\n".repeat(n);
    // The route reaches 8 files of its own, one of them by import(); ui, lib and packages are not counted.
    write(
      "routes/page.tsx",
      [
        'import { one } from "~/features/a/one";',
        'import { Card } from "~/features/a/components/card";',
        'import { Button } from "~/ui/button";',
        'import { z } from "zod";',
        'import type { T } from "~/features/b/types";',
        'export const lazy = () => import("~/features/a/lazy");',
        "",
      ].join("\n"),
    );
    write(
      "features/a/one.ts",
      'import { two } from "./two";\nimport { three } from "./three";\n' + filler(10),
    );
    write("features/a/two.ts", 'import { b } from "~/features/b/b.server";\n' + filler(10));
    write("features/a/three.ts", 'import { pad } from "~/lib/pad";\n' + filler(10));
    write("features/a/lazy.ts", filler(10));
    write("features/a/components/card.tsx", 'import { one } from "../one";\n' + filler(10));
    write("features/b/b.server.ts", 'import { c } from "./c";\n' + filler(10));
    write("features/b/c.ts", filler(10));
    write("features/b/types.ts", filler(2000));
    write("ui/button.tsx", filler(2000));
    write("lib/pad.ts", filler(2000));
    const route = path.join(app, "routes/page.tsx");

    const fits = ownFiles(app, route);
    expect(fits.files.size).toBe(8);
    expect(overBudget("page.tsx", fits, DEFAULT_BUDGET)).toEqual([]);

    // A ninth own file, reached three imports down, breaks the budget.
    write("features/b/c.ts", 'import { d } from "./d";\n' + filler(10));
    write("features/b/d.ts", filler(10));
    expect(overBudget("page.tsx", ownFiles(app, route), DEFAULT_BUDGET)).toEqual([
      expect.stringMatching(/^page\.tsx: 9 own files > 8 \(.*features\/b\/d\.ts/),
    ]);

    // So do lines beyond the budget in a file the route owns.
    write("features/b/d.ts", filler(1200));
    expect(overBudget("page.tsx", ownFiles(app, route), DEFAULT_BUDGET)).toContainEqual(
      expect.stringMatching(/^page\.tsx: \d+ own lines > 1200$/),
    );
  });
});
