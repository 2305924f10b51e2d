import Database from "better-sqlite3";
import { migrations } from "./migrations";

export type DB = Database.Database;

/**
 * Opens (and creates) the database and applies every migration not yet applied, in id order. A buffer is a
 * serialized database (`db.serialize()`), opened as a private in-memory copy.
 */
export function openDb(file: string | Buffer): DB {
  const db = new Database(file);
  if (typeof file === "string" && file !== ":memory:") db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  cachePreparedStatements(db);
  return db;
}

/**
 * Handlers prepare their SQL inline; compiling the same statement on every request showed in the profile.
 * Statements are reused per SQL text (none of the api's code iterates or changes a statement's mode).
 */
function cachePreparedStatements(db: DB) {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  }) as DB["prepare"];
}

export function migrate(db: DB) {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (datetime('now')))",
  );
  const applied = new Set(
    (db.prepare("SELECT id FROM schema_migrations").all() as { id: string }[]).map((r) => r.id),
  );
  const pending = [...migrations].sort((a, b) => a.id.localeCompare(b.id)).filter((m) => !applied.has(m.id));
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (id) VALUES (?)").run(m.id);
    })();
  }
}

/** `?,?,…` for an SQL `IN (…)` of n values. */
export const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");
