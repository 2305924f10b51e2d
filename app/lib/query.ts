/** A change to one query parameter: a value sets it, `null`, `undefined` or `""` removes it. */
export type QueryChanges = Record<string, string | number | null | undefined>;

/**
 * A query string with some parameters changed: `"?a=1&b=2"`, or `""` when nothing is left, so that
 * `pathname + withQuery(search, changes)` is always a clean link. `search` is a location's search (with or
 * without "?") or parameters already parsed. Changed parameters keep their place; new ones go last.
 */
export function withQuery(search: string | URLSearchParams, changes: QueryChanges = {}): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}
