import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The docs stay true to the tree: every relative link in README.md and docs/ resolves, every file path they
 * name in backticks exists, and nothing in the code or the docs points at a tracker that is not in the
 * repository ("issue 17"): a reader must find the reason in the code, an ADR or docs/ instead.
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

/** Repository paths named in backticks: `app/server/forms.server.ts`, `tests/e2e/`, `server.ts`. */
export function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const text = match[1].replace(/:\d+$/, "");
    if (!/^(app|api|tests|docs|bench|scripts|public)\/[\w./[\]$()-]*$/.test(text) && text !== "server.ts")
      continue;
    if (text.includes("*")) continue;
    paths.push(text);
  }
  return paths;
}

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
  it.each(current)("%s: every file path it names exists", (file) => {
    const text = readDoc(file);
    const missing = namedPaths(text).filter((p) => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });
});

describe("no tracker references", () => {
  const sources = [
    "README.md",
    "server.ts",
    ...["app", "api", "docs", "tests", "bench", "scripts"].flatMap((dir) =>
      walk(dir, (f) => /\.(ts|tsx|mjs|js|md|css)$/.test(f)),
    ),
  ].filter((file) => file !== path.join("tests", "unit", "doc-links.test.ts"));
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
