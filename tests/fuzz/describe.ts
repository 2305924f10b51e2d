import type { FuzzCase } from "./arbitraries";

/** A string for a report: runs of one character abbreviated (`x…×60000`), the rest cut at `max`. */
export function abbreviate(s: string, max = 400): string {
  const short = s.replace(/(.)\1{39,}/gs, (run, c: string) => `${c}…×${run.length}`);
  return short.length > max ? `${short.slice(0, max)}…(${short.length} chars)` : short;
}

/** A generated case as a reader (and a replay) needs it: every field, long values abbreviated. */
export function describeCase(c: FuzzCase): string {
  const headers = Object.entries(c.headers).map(([k, v]) => `${k}: ${JSON.stringify(abbreviate(v, 120))}`);
  const lines = [
    `${c.method} ${JSON.stringify(abbreviate(c.path + c.query))} as ${c.user} (route ${c.route})`,
    ...(headers.length ? [`  headers: ${headers.join(", ")}`] : []),
  ];
  if (c.body)
    lines.push(
      `  body (${c.body.kind}, type ${JSON.stringify(c.body.contentType)}, gzip ${c.body.gzip}, length ${c.body.length}): ${JSON.stringify(abbreviate(c.body.text, 600))}`,
    );
  return lines.join("\n");
}
