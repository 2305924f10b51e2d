/** snake_case ⇄ camelCase for the upstream wire format (spec part 1 §7, part 2 §7). */
export const toSnake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
export const toCamel = (key: string) => key.replace(/[_-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function convertKeys(value: unknown, fn: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convertKeys(v, fn));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), convertKeys(v, fn)]));
  }
  return value;
}

export const keysToSnake = <T = unknown>(value: unknown) => convertKeys(value, toSnake) as T;
export const keysToCamel = <T = unknown>(value: unknown) => convertKeys(value, toCamel) as T;

export type QueryValue = string | number | boolean | null | undefined | (string | number)[];

/** Query string for a GET: only non-empty values, names in snake_case, arrays as repeated parameters. */
export function toQueryString(query: Record<string, QueryValue> | undefined) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null || v === "") continue;
      params.append(toSnake(key), String(v));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}
