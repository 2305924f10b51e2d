import { notFound } from "./http";

/**
 * A record id in a path: 1 to 12 digits (or a number already read), a positive safe integer. Anything else
 * names no record: 404, like an id that is not in the database. (The web app applies the same rule before it
 * calls: app/lib/ids.ts; the two share nothing but the contract.)
 */
export function pathId(value: string | number | undefined): number {
  const id = typeof value === "number" ? value : /^\d{1,12}$/.test(value ?? "") ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  return id;
}
