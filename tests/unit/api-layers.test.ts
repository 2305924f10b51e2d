import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The api's layers (docs/architecture.md, "The api's layers"; eslint.config.js) checked on the real tree by
 * resolving every import of api/ to its file, which the linter cannot (it reads the import string, and not
 * `import()`): each import goes to a layer its own layer may use, no import cycle exists inside api/, and each
 * file's imports pass the linter's rules. tests/unit/import-boundaries.test.ts proves the linter refuses a
 * planted violation of each rule.
 */
const root = path.resolve(__dirname, "../..");

type Layer =
  | "wiring"
  | "router"
  | "routes"
  | "simulators"
  | "mail"
  | "seed"
  | "domain"
  | "lib"
  | "db"
  | "migrations"
  | "migration"
  | "shared"
  | "outside";

/** The layer of a repository-relative path (forward slashes). */
export function layerOf(file: string): Layer {
  if (file.startsWith("shared/")) return "shared";
  if (!file.startsWith("api/")) return "outside";
  if (/^api\/routes\/index\.ts$/.test(file)) return "router";
  if (file.startsWith("api/routes/")) return "routes";
  if (file.startsWith("api/simulators/")) return "simulators";
  if (file.startsWith("api/mail/")) return "mail";
  if (file.startsWith("api/db/seed/")) return "seed";
  if (/^api\/db\/migrations\/index\.ts$/.test(file)) return "migrations";
  if (file.startsWith("api/db/migrations/")) return "migration";
  if (file.startsWith("api/db/")) return "db";
  if (file.startsWith("api/domain/")) return "domain";
  if (file.startsWith("api/lib/")) return "lib";
  return "wiring";
}

/** What each layer may import (itself included where listed). Anything else is a violation. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  wiring: ["wiring", "router", "simulators", "mail", "seed", "domain", "lib", "db", "migrations", "shared"],
  router: ["routes", "mail", "seed", "domain", "lib", "db", "shared"],
  // not "routes": a route module never imports another one
  routes: ["mail", "seed", "domain", "lib", "db", "shared"],
  simulators: ["simulators", "domain", "lib", "db", "shared"],
  mail: ["mail", "domain", "lib", "db", "shared"],
  seed: ["seed", "domain", "lib", "db", "shared"],
  domain: ["domain", "lib", "db", "shared"],
  lib: ["lib", "db", "shared"],
  db: ["db", "migrations"],
  migrations: ["migration"],
  migration: [],
  shared: ["shared"],
  outside: [],
};

/** The edges that break the table, as `from -> to`. */
export function layerViolations(edges: [string, string][]): string[] {
  return edges
    .filter(([from, to]) => !MAY_IMPORT[layerOf(from)].includes(layerOf(to)))
    .map(([from, to]) => `${from} (${layerOf(from)}) -> ${to} (${layerOf(to)})`);
}

/** Every cycle of the import graph, one per strongly connected component of more than one file (or a self-import). */
export function importCycles(edges: [string, string][]): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!order.has(v)) visit(v);
  return cycles;
}

function walk(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return walk(rel);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [rel] : [];
  });
}

/** Every import specifier of a source file: static, type-only, `export … from` and `import()`. */
const specifiersOf = (source: string) =>
  ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);

/** The file a relative specifier names (as TypeScript and esbuild resolve it), or null for a package. */
function resolveRelative(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.posix.join(path.posix.dirname(from), spec);
  const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
    (candidate) => existsSync(path.join(root, candidate)) && !readdirSafe(candidate),
  );
  if (!found) throw new Error(`${from}: "${spec}" resolves to no file`);
  return found;
}
const readdirSafe = (rel: string) => {
  try {
    readdirSync(path.join(root, rel));
    return true;
  } catch {
    return false;
  }
};

const files = [...walk("api"), ...walk("shared")];
const imports = files.map((file) => ({
  file,
  specs: specifiersOf(readFileSync(path.join(root, file), "utf8")),
}));
const edges: [string, string][] = imports.flatMap(({ file, specs }) =>
  specs.flatMap((spec) => {
    const to = resolveRelative(file, spec);
    return to ? [[file, to] as [string, string]] : [];
  }),
);

describe("the api's layers, on the real tree", () => {
  it("finds the imports a reader would, import() included", () => {
    expect(
      specifiersOf(
        'import a from "./a";\nimport type { B } from "../b";\nexport { c } from "./c";\nconst d = await import("./d");\n',
      ),
    ).toEqual(["./a", "../b", "./c", "./d"]);
    expect(edges.length).toBeGreaterThan(200);
    // the embedded launcher starts the api through import() (api/embedded.ts)
    expect(edges).toContainEqual(["api/embedded.ts", "api/server.ts"]);
  });

  it("puts every api/ folder in a layer", () => {
    const layers = new Set(files.filter((f) => f.startsWith("api/")).map(layerOf));
    expect([...layers].sort()).toEqual(
      [
        "db",
        "domain",
        "lib",
        "mail",
        "migration",
        "migrations",
        "router",
        "routes",
        "seed",
        "simulators",
        "wiring",
      ].sort(),
    );
  });

  it("has every import going to a layer below (or beside) its own", () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it("reports an import against the table, planted", () => {
    expect(
      layerViolations([
        ["api/mail/jobs.ts", "api/routes/bills.ts"],
        ["api/routes/auth.ts", "api/simulators/mailer.ts"],
        ["api/db/migrations/041_history_daily.ts", "api/domain/schedule-compliance.ts"],
        ["api/routes/locations.ts", "api/routes/auth.ts"],
        ["api/lib/buildings.ts", "api/domain/energy-advisor.ts"],
        ["api/domain/energy-advisor.ts", "api/mail/layout.tsx"],
        ["api/simulators/thermostats.ts", "api/routes/thermostats.ts"],
        ["api/db/index.ts", "api/lib/clock.ts"],
        ["api/lib/http.ts", "api/config.ts"],
        ["api/mail/jobs.ts", "api/db/seed/index.ts"],
        ["shared/csv.ts", "api/lib/ids.ts"],
      ]),
    ).toHaveLength(11);
    expect(
      layerViolations([
        ["api/server.ts", "api/simulators/index.ts"],
        ["api/routes/index.ts", "api/routes/bills.ts"],
        ["api/routes/bills.ts", "api/mail/jobs.ts"],
        ["api/routes/dev.ts", "api/db/seed/index.ts"],
        ["api/mail/jobs.ts", "api/domain/override-report.ts"],
        ["api/db/seed/compliance.ts", "api/domain/schedule-compliance.ts"],
        ["api/simulators/thermostats.ts", "api/db/rows.ts"],
        ["api/db/index.ts", "api/db/migrations/index.ts"],
        ["api/db/migrations/index.ts", "api/db/migrations/041_history_daily.ts"],
        ["api/lib/auth.ts", "shared/sign-in-access.ts"],
      ]),
    ).toEqual([]);
  });

  it("has no import cycle inside api/ (or shared/)", () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it("finds a cycle, planted", () => {
    expect(
      importCycles([
        ["api/routes/bills.ts", "api/mail/jobs.ts"],
        ["api/mail/jobs.ts", "api/routes/bills.ts"],
        ["api/mail/jobs.ts", "api/lib/clock.ts"],
        ["api/lib/a.ts", "api/lib/b.ts"],
        ["api/lib/b.ts", "api/lib/c.ts"],
        ["api/lib/c.ts", "api/lib/a.ts"],
        ["api/lib/d.ts", "api/lib/d.ts"],
      ]),
    ).toEqual([
      ["api/mail/jobs.ts", "api/routes/bills.ts"],
      ["api/lib/a.ts", "api/lib/b.ts", "api/lib/c.ts"],
      ["api/lib/d.ts"],
    ]);
  });

  it("passes the linter's import rules, file by file", async () => {
    const eslint = new ESLint({ cwd: root });
    const refused: string[] = [];
    for (const { file, specs } of imports) {
      if (specs.length === 0) continue;
      const code = specs.map((spec, i) => `import * as m${i} from "${spec}";\nexport { m${i} };\n`).join("");
      const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
      for (const m of result.messages)
        if (m.ruleId === "no-restricted-imports") refused.push(`${file}: ${m.message}`);
    }
    expect(refused).toEqual([]);
  }, 60_000);
});
