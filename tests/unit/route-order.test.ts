import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every route module reads the same short way (docs/architecture.md, "Route modules"):
 * imports → schema → links → loader → action → default component → meta → ErrorBoundary,
 * and none is longer than MAX_LINES.
 */

const ROUTES = path.resolve(__dirname, "../../app/routes");
const MAX_LINES = 200;
const ORDER = ["links", "loader", "action", "default", "meta", "ErrorBoundary"] as const;
type Member = (typeof ORDER)[number];

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/** The ordered members a module exports and the top-level Zod schemas it declares, in source order. */
function routeOutline(source: string) {
  const file = ts.createSourceFile("route.tsx", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const members: Member[] = [];
  const schemas: { name: string; index: number }[] = [];
  for (const statement of file.statements) {
    const names: string[] = [];
    if (ts.isExportAssignment(statement)) names.push("default");
    else if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      if (isExported(statement)) names.push(isDefault(statement) ? "default" : (statement.name?.text ?? ""));
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        if (isExported(statement)) names.push(d.name.text);
        else if (/schema$/i.test(d.name.text)) schemas.push({ name: d.name.text, index: members.length });
      }
    }
    for (const name of names) if ((ORDER as readonly string[]).includes(name)) members.push(name as Member);
  }
  return { members, schemas };
}

/** What is out of place in one module (empty when it reads in the agreed order). */
function orderProblems(source: string): string[] {
  const { members, schemas } = routeOutline(source);
  const problems: string[] = [];
  for (let i = 1; i < members.length; i++) {
    if (ORDER.indexOf(members[i]) < ORDER.indexOf(members[i - 1]))
      problems.push(`${members[i]} comes after ${members[i - 1]}`);
  }
  for (const s of schemas) {
    if (s.index > 0) problems.push(`schema ${s.name} comes after ${members[s.index - 1]}`);
  }
  return problems;
}

const routeFiles = readdirSync(ROUTES)
  .filter((f) => f.endsWith(".tsx"))
  .sort();

describe("route module layout", () => {
  it("finds the route modules", () => {
    expect(routeFiles.length).toBeGreaterThan(20);
  });

  it("tells an out-of-order module from an ordered one", () => {
    const ordered = [
      'import { z } from "zod";',
      "const schema = z.object({});",
      "export const links = () => [];",
      "export async function loader() { return null; }",
      "export async function action() { return null; }",
      "export default function Page() { return null; }",
      "export const meta = () => [];",
      "export function ErrorBoundary() { return null; }",
    ];
    expect(orderProblems(ordered.join("\n"))).toEqual([]);
    const metaFirst = [ordered[0], ordered[3], ordered[6], ordered[5]].join("\n");
    expect(orderProblems(metaFirst)).toEqual(["default comes after meta"]);
    const lateSchema = [ordered[0], ordered[3], ordered[1]].join("\n");
    expect(orderProblems(lateSchema)).toEqual(["schema schema comes after loader"]);
    const actionFirst = [ordered[4], ordered[3]].join("\n");
    expect(orderProblems(actionFirst)).toEqual(["loader comes after action"]);
  });

  it.each(routeFiles)("%s reads links → loader → action → component → meta → ErrorBoundary", (file) => {
    expect(orderProblems(readFileSync(path.join(ROUTES, file), "utf8"))).toEqual([]);
  });

  it.each(routeFiles)(`%s has at most ${MAX_LINES} lines`, (file) => {
    const lines = readFileSync(path.join(ROUTES, file), "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });
});
