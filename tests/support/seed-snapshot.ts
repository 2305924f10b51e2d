import type { DB } from "../../api/db";

type Column = { name: string; type: string; notnull: number; dflt_value: unknown; pk: number };

/**
 * The tables whose rows differ between `db` and the database in the file `other` (attached for the comparison
 * and detached after), as readable lines; an empty list when both have the same tables, columns and rows. Every
 * table's columns are compared (name, type, constraints, key) and then its rows, by SQLite itself: the same count
 * on both sides and no row of `db` missing from `other` (`EXCEPT`, which tells a number from a string and NULL
 * from both). A row is compared whole, with its rowid when the table has no primary key, so every row is
 * distinct and "same count, none missing" means the same rows. `ignore` leaves out columns whose values differ
 * between processes by design (e.g. a password hash's random salt).
 */
export function rowDifferences(db: DB, other: string, ignore: Record<string, string[]> = {}): string[] {
  db.prepare("ATTACH DATABASE ? AS other").run(other);
  try {
    const names = (schema: string) =>
      (
        db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
          name: string;
        }[]
      ).map((t) => t.name);
    const tables = names("main");
    const theirs = names("other");
    if (JSON.stringify(tables) !== JSON.stringify(theirs))
      return [`tables: ${tables.join(", ")} against ${theirs.join(", ")}`];
    const differences: string[] = [];
    for (const name of tables) {
      const columns = (schema: string) =>
        db.prepare(`PRAGMA ${schema}.table_info("${name}")`).all() as Column[];
      const ours = columns("main");
      if (JSON.stringify(ours) !== JSON.stringify(columns("other"))) {
        differences.push(`${name}: columns differ`);
        continue;
      }
      const kept = ours.filter((c) => !ignore[name]?.includes(c.name)).map((c) => `"${c.name}"`);
      const selected = (ours.some((c) => c.pk > 0) ? kept : ["rowid", ...kept]).join(", ");
      const count = (schema: string) =>
        (db.prepare(`SELECT count(*) AS n FROM ${schema}."${name}"`).get() as { n: number }).n;
      const [n, m] = [count("main"), count("other")];
      const missing = (
        db
          .prepare(
            `SELECT count(*) AS n FROM (SELECT ${selected} FROM main."${name}" EXCEPT SELECT ${selected} FROM other."${name}")`,
          )
          .get() as { n: number }
      ).n;
      if (n !== m || missing > 0)
        differences.push(`${name}: ${n} rows against ${m}, ${missing} not in the other`);
    }
    return differences;
  } finally {
    db.prepare("DETACH DATABASE other").run();
  }
}

/** A table's row count. */
export const rowCount = (db: DB, table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;

/**
 * What two processes seeding the same demo write differently: when the migrations ran (the wall clock, to the
 * second) and the demo password's hash (scrypt with a random salt, made once per process, api/db/seed/core.ts).
 */
export const ACROSS_PROCESSES: Record<string, string[]> = {
  schema_migrations: ["applied_at"],
  users: ["password_hash"],
};
