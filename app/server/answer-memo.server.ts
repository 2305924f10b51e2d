/**
 * Upstream answers already parsed, by what was asked and what came back (ADR 0018).
 *
 * Every page view asks the api again (nothing here is ever served without that call, so nothing is stale), but
 * most answers are the bytes of the previous page view: the shell's location list on every page, the dashboard's
 * lists on every sort, search and page of the table. For a 300-location client, parsing, renaming keys and
 * validating those answers was most of a page's CPU. When an answer's text is exactly the text this memo holds
 * for the same question (the same upstream session, URL and conversion), the api client reuses the value it made
 * from it last time instead of making it again: same text in, same value out.
 *
 * Values are shared by every request that gets them, so they are deeply frozen (`deepFreeze`): code that
 * changed one would throw, not leak one request's change into another's. Bounded by the characters of the texts
 * it holds (least recently used first out); an answer larger than an eighth of the budget is not kept.
 */
export type AnswerMemo = {
  /** The value made from `text` under `key`, if `text` is exactly what it was made from; else undefined. */
  get(key: string, text: string): unknown;
  /** Keeps `value` (deeply frozen) as what `text` under `key` comes to. */
  set(key: string, text: string, value: unknown): void;
  readonly size: number;
  readonly chars: number;
};

export function createAnswerMemo(maxChars: number): AnswerMemo {
  const entries = new Map<string, { text: string; value: unknown }>();
  let chars = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    chars -= entry.text.length;
    entries.delete(key);
  };
  return {
    get(key, text) {
      const entry = entries.get(key);
      if (!entry || entry.text !== text) return undefined;
      // Most recently used last: the first entry is the one to drop.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, text, value) {
      drop(key);
      if (text.length > maxChars / 8) return;
      entries.set(key, { text, value: deepFreeze(value) });
      chars += text.length;
      while (chars > maxChars) drop(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
    get chars() {
      return chars;
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
