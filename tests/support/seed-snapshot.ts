import crypto from "node:crypto";
import type { DB } from "../../api/db";

/** A cell as text that tells its type: null, a number, a string and a blob never read alike. */
const cell = (v: unknown) =>
  v === null
    ? "N"
    : Buffer.isBuffer(v)
      ? `b${v.toString("hex")}`
      : `${typeof v === "string" ? "s" : "n"}${String(v)}`;

/**
 * A digest of every table of `db`: its name, columns and each row in primary-key order (rowid for a table with
 * none), so two databases with the same digests hold exactly the same rows. `ignore` leaves out columns whose
 * values differ between processes by design (e.g. a password hash's random salt).
 */
export function tableDigests(db: DB, ignore: Record<string, string[]> = {}): Record<string, string> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
  }[];
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; pk: number }[];
    const key = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => `"${c.name}"`);
    const kept = columns.filter((c) => !ignore[name]?.includes(c.name)).map((c) => `"${c.name}"`);
    const hash = crypto.createHash("sha256").update(JSON.stringify(columns));
    const order = key.length > 0 ? key.join(", ") : "rowid";
    let rows = 0;
    for (const row of db
      .prepare(`SELECT ${kept.join(", ")} FROM "${name}" ORDER BY ${order}`)
      .raw()
      .iterate()) {
      hash.update(`${(row as unknown[]).map(cell).join("\x1f")}\n`);
      rows++;
    }
    digests[name] = `${rows}:${hash.digest("hex").slice(0, 16)}`;
  }
  return digests;
}

/**
 * What two processes seeding the same demo write differently: when the migrations ran (the wall clock, to the
 * second) and the demo password's hash (scrypt with a random salt, made once per process, api/db/seed/core.ts).
 */
export const ACROSS_PROCESSES: Record<string, string[]> = {
  schema_migrations: ["applied_at"],
  users: ["password_hash"],
};
