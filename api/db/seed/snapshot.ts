/**
 * Seeded databases made once and reused (SEED_CACHE_DIR, test runs only).
 *
 * Why: a demo seed writes about a million history rows (6 s of CPU), and the test suites start hundreds of
 * apis on empty databases, each seeding the same demo again. The seed is deterministic given its inputs (`now`,
 * the staff email domain, the extra locations and the schema the migrations made), so the first api to seed
 * with given inputs saves the result as a snapshot named by a hash of them, and the next one loads that copy
 * (tens of milliseconds) instead of seeding. Every api still gets its own private copy: tests that write stay
 * isolated. The directory must be fresh per test run (scripts/test-all.mjs and the vitest configs' global
 * set-up make one and remove it), since the key does not cover the seed's code.
 *
 * A snapshot is written to a temporary name and renamed into place, so apis racing for the same missing
 * snapshot each seed and each leave a whole file; a reader sees either no snapshot or a complete one.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openDb, type DB } from "..";
import { markHistoryWritten, seedIfEmpty, type SeedOptions } from ".";

export type SnapshotSeedOptions = SeedOptions & { now: Date; cacheDir: string };

/** How the database got its demo data: seeded here, loaded from a snapshot, or it had clients already. */
export type SeededFrom = "seed" | "snapshot" | "existing";

/** The snapshot's key: the seed's inputs and the schema (every table's SQL and the migrations applied). */
export function snapshotKey(opts: SeedOptions & { now: Date }): string {
  const probe = openDb(":memory:");
  try {
    const schema = probe
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
      .all();
    const migrations = probe.prepare("SELECT id FROM schema_migrations ORDER BY id").all();
    const inputs = {
      now: opts.now.toISOString(),
      staffEmailDomain: opts.staffEmailDomain,
      extraLocations: opts.extraLocations ?? 0,
      schema,
      migrations,
    };
    return crypto.createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 32);
  } finally {
    probe.close();
  }
}

/**
 * A serialized database as a rollback-journal file: a snapshot taken of a WAL database says "WAL" in its
 * header (bytes 18 and 19), which an in-memory copy cannot be. Its pages already hold every committed change.
 */
function asRollbackImage(image: Buffer) {
  image[18] = 1;
  image[19] = 1;
  return image;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes `data` to `file` through a temporary name in the same directory (a rename is atomic). */
function writeAtomically(file: string, write: (tmp: string) => void) {
  const tmp = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  try {
    write(tmp);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Saves a freshly seeded database as the snapshot; a cache that cannot be written costs only the saving. */
function saveSnapshot(db: DB, snapshot: string) {
  try {
    fs.mkdirSync(path.dirname(snapshot), { recursive: true });
    const image = asRollbackImage(db.serialize());
    writeAtomically(snapshot, (tmp) => fs.writeFileSync(tmp, image));
  } catch {
    // The directory was removed at the end of a run while a server still started, or the disk is full: the
    // database itself is seeded and correct.
  }
}

/**
 * Opens `file` (a path or ":memory:") with the demo data: a database that already has clients is left alone;
 * an empty one is loaded from the snapshot of a seed with the same inputs when there is one, and otherwise
 * seeded, its snapshot then saved for the next. A file database is loaded only when neither it nor its WAL
 * exists yet (the snapshot is copied into place before it is opened).
 */
export function openSeededDb(file: string, opts: SnapshotSeedOptions): { db: DB; from: SeededFrom } {
  const snapshot = path.join(opts.cacheDir, `seed-${snapshotKey(opts)}.sqlite`);
  if (file === ":memory:") {
    const image = readIfPresent(snapshot);
    if (image) {
      const db = openDb(image);
      markHistoryWritten(db, opts);
      return { db, from: "snapshot" };
    }
  } else if (!fs.existsSync(file) && !fs.existsSync(`${file}-wal`) && fs.existsSync(snapshot)) {
    writeAtomically(file, (tmp) => fs.copyFileSync(snapshot, tmp));
    const db = openDb(file);
    markHistoryWritten(db, opts);
    return { db, from: "snapshot" };
  }
  const db = openDb(file);
  if (!seedIfEmpty(db, opts)) return { db, from: "existing" };
  saveSnapshot(db, snapshot);
  return { db, from: "seed" };
}
