/** snake_case ⇄ camelCase for the upstream wire format (docs/api-contract.md, Conventions). */
export const toSnake = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
// Each run of separators is tried from its first character only: from every character, a long run with no
// letter after it would be rescanned once per character.
export const toCamel = (key: string) =>
  key.replace(/(?<![_-])[_-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Key names repeat across every answer: each distinct name is converted once (bounded, so hostile keys cannot grow it). */
function memoized(fn: (key: string) => string) {
  const cache = new Map<string, string>();
  return (key: string) => {
    let out = cache.get(key);
    if (out === undefined) {
      out = fn(key);
      if (cache.size < 5000) cache.set(key, out);
    }
    return out;
  };
}
const toSnakeCached = memoized(toSnake);
const toCamelCached = memoized(toCamel);

/**
 * One place in an answer (the answer itself, a field of an object there, the rows of an array there) and the
 * shape last seen at it: the object's keys in order and their converted names, and the places of its fields
 * and rows. An answer's rows share their places, so a 300-row list converts its key names once for the first
 * row, and every later row (its nested objects too) only compares its keys with that shape.
 */
type Place = { keys?: string[]; names?: string[]; fields?: Place[]; rows?: Place };

function sameKeys(a: string[], b: string[]) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A copy of `value` with every object key renamed by `fn`, names taken from the shape of its place. */
function convertKeys(value: unknown, fn: (key: string) => string, place: Place): unknown {
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    const rows = (place.rows ??= {});
    for (let i = 0; i < value.length; i++) out[i] = convertKeys(value[i], fn, rows);
    return out;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (!place.keys || !sameKeys(place.keys, keys)) {
      place.keys = keys;
      place.names = keys.map(fn);
      place.fields = keys.map(() => ({}));
    }
    const names = place.names!;
    const fields = place.fields!;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = names[i];
      const v = convertKeys(value[keys[i]], fn, fields[i]);
      // An own "__proto__" key (JSON.parse makes one) must stay data, never become the prototype.
      if (key === "__proto__")
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
    }
    return out;
  }
  return value;
}

export const keysToSnake = <T = unknown>(value: unknown) => convertKeys(value, toSnakeCached, {}) as T;
export const keysToCamel = <T = unknown>(value: unknown) => convertKeys(value, toCamelCached, {}) as T;

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
