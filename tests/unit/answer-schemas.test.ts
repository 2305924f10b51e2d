import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * An upstream answer's zod schema is built once, at module level: the api client shares a validated answer
 * between one request's loaders by schema object (a schema built per call never matches), and building a zod
 * schema costs its construction on every call (0.7 % of the settings page in the profile).
 */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("upstream answer schemas", () => {
  it("are never built inside an api call", () => {
    const inline = sources("app").flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/\bschema:\s*z\./.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(inline).toEqual([]);
  });
});
