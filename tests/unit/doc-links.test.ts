import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_OUTPUTS, SERVER_BUNDLE_DIR } from "../../shared/build-output.mjs";

/**
 * The docs stay true to the tree: every relative link in README.md and docs/ resolves, every file path they
 * name in backticks exists, and nothing in the code or the docs points at a tracker that is not in the
 * repository (the word "issue" and a number): a reader must find the reason in the code, an ADR or docs/ instead. The same holds
 * for `shared/` and the root's config files (package.json, eslint.config.js, the vitest and playwright configs,
 * tsconfig.json, remix.config.js, server.ts, the Dockerfile…): every repository path they name exists, and
 * every file package.json's scripts run. A path inside a build output (`public/build/`) is checked against the
 * build's own configuration, not the disk: the suite must pass on a fresh clone, before any build.
 */
const root = path.resolve(__dirname, "../..");

function walk(dir: string, keep: (file: string) => boolean): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(rel, keep);
    return keep(rel) ? [rel] : [];
  });
}

const readDoc = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const docs = ["README.md", ...walk("docs", (f) => f.endsWith(".md"))];

/**
 * The files at the repository's root, but the lock file (npm writes it), a worktree's `.git` pointer and what
 * git ignores there (`.env`, logs): the configs, server.ts, the Dockerfile, README.md.
 */
const rootFiles = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => entry.name)
  .filter((name) => !["package-lock.json", ".git"].includes(name) && !/^\.env|\.log$/.test(name))
  .sort();
const sharedFiles = walk("shared", (f) => /\.(ts|tsx|mjs|js|md)$/.test(f));
/** The root's config files and server.ts, named as they are: `eslint.config.js`, `tsconfig.json`, `Dockerfile`. */
const ROOT_FILE_NAME =
  /^(server\.ts|Dockerfile|package\.json|tsconfig\.json|remix\.(config\.js|env\.d\.ts)|(eslint|vite|vitest|vitest\.suites|playwright)\.config\.[cm]?[jt]s|\.(gitignore|dockerignore|prettierignore|prettierrc\.json))$/;

/** `[text](target)` links whose target is in the repository (not a URL, not an anchor of the same page). */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of markdown.matchAll(/\]\(([^()\s]+)\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith("#")) continue;
    links.push(target.split("#")[0]);
  }
  return links;
}

/** Repository paths named in backticks: `app/server/forms.server.ts`, `tests/e2e/`, `shared/`, `server.ts`. */
export function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const text = match[1].replace(/:\d+$/, "");
    if (
      !/^(app|api|tests|docs|bench|scripts|public|shared)\/[\w./[\]$()-]*$/.test(text) &&
      !ROOT_FILE_NAME.test(text)
    )
      continue;
    if (text.includes("*")) continue;
    paths.push(text);
  }
  return paths;
}

/**
 * Repository files a source names in its comments or strings, backticks or not: `docs/architecture.md`,
 * tests/e2e/fixtures.ts (a path from a top folder of the repository, ending in a file's extension).
 */
export function sourcePaths(source: string): string[] {
  const found = source.matchAll(
    /(?<![\w./@-])(?:app|api|tests|docs|bench|scripts|public|shared)\/[\w./-]*\.(?:tsx?|m?js|md|css|json|sh)(?![\w/-])/g,
  );
  return [...new Set([...found].map((m) => m[0]))];
}

/** The repository files package.json's scripts run or read: `node scripts/start.mjs`, `-c vitest.suites.config.ts`. */
export function scriptPaths(scripts: Record<string, string>): string[] {
  const paths = Object.values(scripts).flatMap((script) =>
    script
      .split(/\s+/)
      .map((token) => token.replace(/^["']|["']$/g, ""))
      .filter(
        (token) =>
          !token.startsWith("-") &&
          (/^(app|api|tests|docs|bench|scripts|public|shared)\/[\w./-]*$/.test(token) ||
            /^[\w.-]+\.(ts|mjs|js|sh|json)$/.test(token)),
      ),
  );
  return [...new Set(paths)];
}

/**
 * The folders `npm run build` writes (git ignores them; a fresh clone has none): Remix's browser assets and
 * server build, as its config says, and the server bundle's `outdir` (scripts/build-server.mjs).
 */
async function buildOutputs(): Promise<string[]> {
  const { readConfig } = await import("@remix-run/dev/dist/config.js");
  const config = await readConfig(root);
  return [
    config.assetsBuildDirectory,
    path.dirname(config.serverBuildPath),
    path.join(root, SERVER_BUNDLE_DIR),
  ].map((dir) => `${path.relative(root, dir)}/`);
}

/** Whether `named` exists, or lies in (or is) a folder the build writes: it exists once the build has run. */
const existsOrIsBuilt = (named: string, outputs: string[]) =>
  fs.existsSync(path.join(root, named)) ||
  outputs.some((dir) => `${named.replace(/\/$/, "")}/`.startsWith(dir));

/** A reference to an issue of a tracker: "issue 17", "issues 13 and 16", "Issue #4". */
export const TRACKER_REFERENCE = /\bissues? #?\d+/i;

describe("the docs", () => {
  it("finds links and paths the way a reader would", () => {
    expect(relativeLinks("see [a](docs/a.md#x), [b](https://x.test/b) and [c](#here)")).toEqual([
      "docs/a.md",
    ]);
    expect(namedPaths("`app/ui/field.tsx`, `server.ts`, `npm test`, `tests/**/*.ts`")).toEqual([
      "app/ui/field.tsx",
      "server.ts",
    ]);
    expect(
      namedPaths("`shared/csv.ts`, `eslint.config.js`, `vite.config.ts`, `csv.ts`, `x/tsconfig.json`"),
    ).toEqual(["shared/csv.ts", "eslint.config.js", "vite.config.ts"]);
    expect(
      sourcePaths(
        '// see docs/rules.md, `app/lib/ids.ts` and tests/e2e/; not node_modules/x/app/y.ts or "tests/**/*.test.ts"\n',
      ),
    ).toEqual(["docs/rules.md", "app/lib/ids.ts"]);
    expect(
      scriptPaths({
        a: "tsx api/cli/db-reset.ts",
        b: 'remix dev -c "tsx server.ts"',
        c: "vitest run tests/unit --outputFile.json=test-results/unit.json && node scripts/summary.mjs unit",
        d: "vitest run -c vitest.suites.config.ts tests/ops",
        e: "prettier --write .",
      }),
    ).toEqual([
      "api/cli/db-reset.ts",
      "server.ts",
      "tests/unit",
      "scripts/summary.mjs",
      "vitest.suites.config.ts",
      "tests/ops",
    ]);
    expect(TRACKER_REFERENCE.test("as issue 17 asked")).toBe(true);
    expect(TRACKER_REFERENCE.test("the thermostat issue 3 days old")).toBe(true);
    expect(TRACKER_REFERENCE.test("bill issues flagged")).toBe(false);
  });

  it.each(docs)("%s: every relative link resolves", (file) => {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const broken = relativeLinks(text).filter(
      (target) => !fs.existsSync(path.resolve(path.dirname(path.join(root, file)), target)),
    );
    expect(broken).toEqual([]);
  });

  // A superseded decision record is history: the files it names may have gone with it.
  const current = docs.filter((file) => !/^\s*-?\s*(Status:.*)?superseded/im.test(readDoc(file)));
  it.each(current)("%s: every file path it names exists", async (file) => {
    const text = readDoc(file);
    const outputs = await buildOutputs();
    const missing = namedPaths(text).filter((p) => !existsOrIsBuilt(p, outputs));
    expect(missing).toEqual([]);
  });

  it("knows the build's output folders from its config, and git ignores them", async () => {
    const outputs = await buildOutputs();
    expect(outputs).toEqual(["public/build/", "build/", "dist/"]);
    expect(outputs, "shared/build-output.mjs and the config agree").toEqual(BUILD_OUTPUTS);
    const ignored = readDoc(".gitignore").split("\n");
    for (const dir of outputs) expect(ignored).toContain(dir);
    expect(existsOrIsBuilt("public/build/", outputs)).toBe(true);
    expect(existsOrIsBuilt("dist/server.js", outputs)).toBe(true);
    expect(existsOrIsBuilt("public/no-such-file.png", outputs)).toBe(false);
    expect(existsOrIsBuilt("public/buildings.svg", outputs)).toBe(false);
  });
});

describe("shared/ and the root's config files", () => {
  it("checks every file at the root", () => {
    expect(rootFiles).toEqual(
      expect.arrayContaining(["eslint.config.js", "package.json", "server.ts", "tsconfig.json"]),
    );
    // each one is a doc (README.md) or a config the file-name pattern knows, so docs naming it are checked too
    expect(rootFiles.filter((name) => name !== "README.md" && !ROOT_FILE_NAME.test(name))).toEqual([]);
  });

  it.each([...rootFiles, ...sharedFiles])("%s: every repository path it names exists", (file) => {
    const text = readDoc(file);
    const named = new Set([...namedPaths(text), ...sourcePaths(text)]);
    expect([...named].filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });

  it("package.json: every file its scripts run exists", () => {
    const { scripts } = JSON.parse(readDoc("package.json")) as { scripts: Record<string, string> };
    const paths = scriptPaths(scripts);
    expect(paths).toEqual(expect.arrayContaining(["scripts/start.mjs", "api/cli/db-reset.ts", "tests/unit"]));
    expect(paths.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });
});

describe("no tracker references", () => {
  const sources = [
    ...rootFiles,
    ...["app", "api", "shared", "docs", "tests", "bench", "scripts"].flatMap((dir) =>
      walk(dir, (f) => /\.(ts|tsx|mjs|js|md|css|json|sh)$/.test(f)),
    ),
  ].filter((file) => file !== path.join("tests", "unit", "doc-links.test.ts"));
  it("reads shared/ and the root's files too", () => {
    expect(sources).toEqual(
      expect.arrayContaining(["package.json", "eslint.config.js", "Dockerfile", "shared/csv.ts"]),
    );
  });
  it("names no issue of a tracker in code, tests or docs", () => {
    const found = sources.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (TRACKER_REFERENCE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
