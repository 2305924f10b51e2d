/**
 * Upstream answers already parsed, by what was asked and what came back (ADR 0018).
 *
 * Every page view asks the api again (nothing here is ever served without that call, so nothing is stale), but
 * most answers are the bytes of the previous page view: the shell's location list on every page, the dashboard's
 * lists on every sort, search and page of the table. For a 300-location client, parsing, renaming keys and
 * validating those answers was most of a page's CPU. When an answer's bytes are exactly the bytes this memo holds
 * for the same question (the same upstream session, URL and conversion), the api client reuses the value it made
 * from them last time instead of making it again: same bytes in, same value out. The bytes are compared as they
 * arrived, chunk by chunk, so a repeated answer is never joined into one buffer nor decoded into a string (a
 * 300-location client's answers are up to 300 KB: each such buffer and string was mapped afresh).
 *
 * Values are shared by every request that gets them, so they are deeply frozen (`deepFreeze`): code that
 * changed one would throw, not leak one request's change into another's. Bounded by the bytes of the answers it
 * holds (least recently used first out); an answer larger than an eighth of the budget is not kept.
 */
export type AnswerMemo = {
  /** The value made from an answer of exactly these bytes (its chunks, in order) under `key`; else undefined. */
  get(key: string, chunks: readonly Uint8Array[]): unknown;
  /** Keeps `value` (deeply frozen) as what an answer of `bytes` under `key` comes to. */
  set(key: string, bytes: Buffer, value: unknown): void;
  readonly size: number;
  readonly bytes: number;
};

/** Whether `chunks`, one after the other, are exactly `bytes` (no copy made). */
export function sameBytes(chunks: readonly Uint8Array[], bytes: Buffer) {
  let at = 0;
  for (const chunk of chunks) {
    const end = at + chunk.length;
    if (end > bytes.length || bytes.compare(chunk, 0, chunk.length, at, end) !== 0) return false;
    at = end;
  }
  return at === bytes.length;
}

export function createAnswerMemo(maxBytes: number): AnswerMemo {
  const entries = new Map<string, { bytes: Buffer; value: unknown }>();
  let total = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.bytes.length;
    entries.delete(key);
  };
  return {
    get(key, chunks) {
      const entry = entries.get(key);
      if (!entry || !sameBytes(chunks, entry.bytes)) return undefined;
      // Most recently used last: the first entry is the one to drop.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, bytes, value) {
      drop(key);
      if (bytes.length > maxBytes / 8) return;
      entries.set(key, { bytes, value: deepFreeze(value) });
      total += bytes.length;
      while (total > maxBytes) drop(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return total;
    },
  };
}

/** Freezes `value` and every object and array it holds (already frozen ones are taken as frozen through). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const v of value) deepFreeze(v);
  else for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
