import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Keeps docs/rules.md honest: every file, export and test title it names exists, so a rule can always be
 * followed from its name to its code and its test.
 */

const ROOT = path.resolve(__dirname, "../..");
const RULES_DOC = "docs/rules.md";
const UNTESTED_HEADING = "Rules without a unit test yet";

type RuleRow = {
  line: number;
  section: string;
  untested: boolean;
  id: string;
  implementations: { file: string; name: string }[];
  tests: { file: string; titles: string[] }[];
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The rule rows of every table in the document (header and separator rows skipped). */
function parseRules(markdown: string): RuleRow[] {
  const rows: RuleRow[] = [];
  let section = "";
  markdown.split("\n").forEach((text, i) => {
    const heading = /^##\s+(.*)$/.exec(text);
    if (heading) section = heading[1].trim();
    if (!text.startsWith("|")) return;
    const cells = text
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length < 4 || cells[0] === "rule" || /^-+$/.test(cells[0])) return;
    const id = /^`([^`]+)`$/.exec(cells[0])?.[1] ?? cells[0];
    const implementations = [...cells[2].matchAll(/`([^`#\s]+)#([A-Za-z_$][\w$]*)`/g)].map((m) => ({
      file: m[1],
      name: m[2],
    }));
    // A test cell: `file` "title"; "title" … `another file` "title" …
    const tests: RuleRow["tests"] = [];
    for (const part of cells[3].split(/(?=`[^`]+\.(?:test|spec)\.tsx?`)/)) {
      const file = /^`([^`]+\.(?:test|spec)\.tsx?)`/.exec(part)?.[1];
      if (!file) continue;
      tests.push({ file, titles: [...part.matchAll(/"([^"]+)"/g)].map((m) => m[1]) });
    }
    rows.push({ line: i + 1, section, untested: section === UNTESTED_HEADING, id, implementations, tests });
  });
  return rows;
}

/** What is wrong with one row, against the files on disk (empty when nothing is). */
function problemsOf(row: RuleRow, read: (file: string) => string | null): string[] {
  const where = `${RULES_DOC}:${row.line} (${row.id})`;
  const problems: string[] = [];
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(row.id)) problems.push(`${where}: rule name is not kebab-case`);
  if (row.implementations.length === 0 && !row.untested) problems.push(`${where}: names no implementation`);
  for (const { file, name } of row.implementations) {
    const source = read(file);
    if (source === null) {
      problems.push(`${where}: ${file} does not exist`);
      continue;
    }
    const n = escape(name);
    const exported = new RegExp(
      `export\\s+(?:async\\s+)?function\\s+${n}\\b|export\\s+(?:const|let|class)\\s+${n}\\b|export\\s*\\{[^}]*\\b${n}\\b[^}]*\\}`,
    );
    if (!exported.test(source)) problems.push(`${where}: ${file} does not export ${name}`);
  }
  if (!row.untested) {
    if (!row.tests.some((t) => t.file.startsWith("tests/unit/")))
      problems.push(`${where}: names no test under tests/unit/ (move it to "${UNTESTED_HEADING}")`);
  }
  for (const { file, titles } of row.tests) {
    const source = read(file);
    if (source === null) {
      problems.push(`${where}: ${file} does not exist`);
      continue;
    }
    if (titles.length === 0) problems.push(`${where}: names ${file} without a test title`);
    for (const title of titles) {
      const quoted = ['"', "'", "`"].map((q) => `${q}${escape(title)}${q}`).join("|");
      const declared = new RegExp(`\\b(?:describe|it|test)(?:\\.\\w+)*\\(\\s*(?:${quoted})`);
      if (!declared.test(source)) problems.push(`${where}: no test titled "${title}" in ${file}`);
    }
  }
  return problems;
}

const readRepoFile = (file: string) => {
  const full = path.resolve(ROOT, file);
  if (!full.startsWith(ROOT + path.sep) || !existsSync(full)) return null;
  return readFileSync(full, "utf8");
};

describe("docs/rules.md", () => {
  const rows = parseRules(readFileSync(path.join(ROOT, RULES_DOC), "utf8"));

  it("lists rules, most of them with a unit test", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(rows.filter((r) => !r.untested).length).toBeGreaterThan(rows.filter((r) => r.untested).length);
  });

  it("names each rule once", () => {
    const seen = new Set<string>();
    const repeated = rows.map((r) => r.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(repeated).toEqual([]);
  });

  it("names only files, exports and test titles that exist", () => {
    expect(rows.flatMap((r) => problemsOf(r, readRepoFile))).toEqual([]);
  });

  it("the api contract and the demo data name only exports and rules that exist", () => {
    const ids = new Set(rows.map((r) => r.id));
    const problems: string[] = [];
    for (const doc of ["docs/api-contract.md", "docs/demo-data.md"]) {
      const text = readFileSync(path.join(ROOT, doc), "utf8");
      const refs = [...text.matchAll(/`([^`#\s]+\.tsx?)#([A-Za-z_$][\w$]*)`/g)];
      const row: RuleRow = {
        line: 0,
        section: doc,
        untested: true,
        id: "x",
        implementations: refs.map((m) => ({ file: m[1], name: m[2] })),
        tests: [],
      };
      problems.push(...problemsOf(row, readRepoFile).map((p) => p.replace(`${RULES_DOC}:0 (x)`, doc)));
      // Every backticked kebab-case name is a rule name, except the few literal values listed here.
      const notRules = new Set(["demo-pass-2024"]);
      for (const m of text.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g))
        if (!notRules.has(m[1]) && !ids.has(m[1]))
          problems.push(`${doc}: cites rule ${m[1]}, which docs/rules.md does not list`);
    }
    expect(problems).toEqual([]);
  });

  it("would catch a row naming something that does not exist", () => {
    const doc = [
      "## Thermostats",
      "| rule | what it says | implemented in | unit test |",
      "|---|---|---|---|",
      '| `ok-row` | fine | `app/features/thermostats/thermostats.ts#cardStatus` | `tests/unit/thermostats.test.ts` "card border colour" |',
      '| `bad-export` | x | `app/features/thermostats/thermostats.ts#cardDisplayStatus` | `tests/unit/thermostats.test.ts` "card border colour" |',
      '| `bad-file` | x | `app/features/nowhere.ts#cardStatus` | `tests/unit/thermostats.test.ts` "card border colour" |',
      '| `bad-title` | x | `app/features/thermostats/thermostats.ts#cardStatus` | `tests/unit/thermostats.test.ts` "card border color" |',
      '| `no-unit-test` | x | `app/features/thermostats/thermostats.ts#cardStatus` | `tests/e2e/auth.spec.ts` "privacy policy" |',
    ].join("\n");
    const problems = parseRules(doc).map((r) => problemsOf(r, readRepoFile));
    expect(problems[0]).toEqual([]);
    expect(problems[1]).toEqual([expect.stringContaining("does not export cardDisplayStatus")]);
    expect(problems[2]).toEqual([expect.stringContaining("app/features/nowhere.ts does not exist")]);
    expect(problems[3]).toEqual([expect.stringContaining('no test titled "card border color"')]);
    expect(problems[4]).toEqual([expect.stringContaining("names no test under tests/unit/")]);
  });
});
