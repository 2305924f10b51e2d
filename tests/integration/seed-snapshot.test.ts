import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetDemoData } from "../../api/db/seed";
import { openSeededDb, snapshotKey } from "../../api/db/seed/snapshot";
import { openDb } from "../../api/db";
import { TEST_CLOCK_START } from "../support/clock";
import { ACROSS_PROCESSES, rowCount, rowDifferences } from "../support/seed-snapshot";
import { verifyPassword } from "../../api/lib/crypto";

/**
 * Seeded databases made once and reused (api/db/seed/snapshot.ts): a database loaded from a snapshot, in memory
 * or as a file, holds exactly the rows the seed wrote, for two different instants; it is a private, writable
 * copy whose history a same-day reset keeps; and two processes asking for the same missing snapshot at once
 * both end with a correct database and leave one whole snapshot.
 *
 * Each instant is seeded once, and every copy is compared with that seed by SQLite itself (tables, columns and
 * every row, tests/support/seed-snapshot.ts): the seeded database is written to a reference file (its own pages,
 * `serialize()`), which each copy attaches. Comparing in SQLite costs a fraction of reading every row in
 * JavaScript, which is where this file's time used to go.
 */
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-snapshot-test-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const staffEmailDomain = "energyops.test";
// The test servers' instant (the evening) and another day, early in the morning.
const INSTANTS = [TEST_CLOCK_START, "2026-03-08T03:00:00.000Z"];

describe("a seeded database loaded from its snapshot", () => {
  /** Per instant, the reference file: the freshly seeded database, as SQLite serialized it. */
  const seeds: string[] = [];

  for (const [i, instant] of INSTANTS.entries()) {
    it(`holds exactly what the seed wrote (now ${instant})`, { timeout: 180_000 }, () => {
      const cacheDir = tempDir();
      const opts = { cacheDir, now: new Date(instant), staffEmailDomain };

      const seeded = openSeededDb(":memory:", opts);
      expect(seeded.from).toBe("seed");
      // The history is most of it: a comparison of empty tables would prove nothing.
      expect(rowCount(seeded.db, "thermostat_history")).toBeGreaterThan(100_000);
      const usageRows = rowCount(seeded.db, "usage_intervals");
      expect(usageRows).toBeGreaterThan(100_000);
      const seed = path.join(tempDir(), "seed.sqlite");
      fs.writeFileSync(seed, seeded.db.serialize());
      seeded.db.close();
      seeds.push(seed);
      expect(fs.readdirSync(cacheDir)).toEqual([`seed-${snapshotKey(opts)}.sqlite`]);

      const inMemory = openSeededDb(":memory:", opts);
      expect(inMemory.from).toBe("snapshot");
      expect(rowDifferences(inMemory.db, seed)).toEqual([]);
      // A reset the same day writes the demo again but keeps the history it holds.
      expect(resetDemoData(inMemory.db, { now: new Date(instant), staffEmailDomain })).toEqual({
        history: false,
      });
      inMemory.db.close();
      // Copied into a file once (the rows are the same whatever the instant; the copy is what is checked).
      if (i > 0) return;

      const file = path.join(tempDir(), "api.sqlite");
      const onDisk = openSeededDb(file, opts);
      expect(onDisk.from).toBe("snapshot");
      expect(onDisk.db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(rowDifferences(onDisk.db, seed)).toEqual([]);

      // A private, writable copy: what another copy does is not seen in it.
      const other = openSeededDb(":memory:", opts);
      other.db.prepare("DELETE FROM usage_intervals").run();
      other.db.close();
      expect(rowCount(onDisk.db, "usage_intervals")).toBe(usageRows);
      onDisk.db.close();
      // Opened again, the file is the database it became, not the snapshot again.
      const reopened = openSeededDb(file, opts);
      expect(reopened.from).toBe("existing");
      reopened.db.close();
    });
  }

  it("is one per instant: the two instants' demos differ", () => {
    expect(seeds).toHaveLength(2);
    const first = openDb(fs.readFileSync(seeds[0]));
    try {
      expect(rowDifferences(first, seeds[1])).not.toEqual([]);
    } finally {
      first.close();
    }
    expect(snapshotKey({ now: new Date(INSTANTS[0]), staffEmailDomain })).not.toBe(
      snapshotKey({ now: new Date(INSTANTS[1]), staffEmailDomain }),
    );
  });
});

/** Runs tests/support/seed-snapshot-child.ts; resolves with what it printed. */
function child(cacheDir: string, file: string, now: string, startAt: number) {
  return new Promise<{ from: string }>((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.resolve(__dirname, "../support/seed-snapshot-child.ts"),
        cacheDir,
        file,
        now,
        String(startAt),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
    proc.on("error", reject);
    proc.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out) as never) : reject(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

describe("two processes asking for the same missing snapshot at once", () => {
  it("both get a correct database, and one whole snapshot is left", { timeout: 180_000 }, async () => {
    const cacheDir = tempDir();
    const data = tempDir();
    const now = "2026-07-01T12:00:00.000Z";
    // Both start their look-up at the same moment (after the few seconds tsx takes to load).
    const startAt = Date.now() + 4_000;
    const [a, b] = await Promise.all([
      child(cacheDir, path.join(data, "a.sqlite"), now, startAt),
      child(cacheDir, path.join(data, "b.sqlite"), now, startAt),
    ]);
    // Each seeded (or one found the other's finished snapshot): either way a whole database, the same rows.
    expect([a.from, b.from].sort()).not.toEqual(["snapshot", "snapshot"]);
    const [fileA, fileB] = [path.join(data, "a.sqlite"), path.join(data, "b.sqlite")];
    const dbA = openDb(fileA);
    try {
      expect(rowDifferences(dbA, fileB, ACROSS_PROCESSES)).toEqual([]);
    } finally {
      dbA.close();
    }
    const snapshot = `seed-${snapshotKey({ now: new Date(now), staffEmailDomain })}.sqlite`;
    expect(fs.readdirSync(cacheDir)).toEqual([snapshot]);

    // The snapshot left is whole and holds the same rows.
    const loaded = openDb(fs.readFileSync(path.join(cacheDir, snapshot)));
    expect(loaded.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(rowDifferences(loaded, fileA, ACROSS_PROCESSES)).toEqual([]);
    // The password hash kept is one of the two made, and signs in with the demo password.
    const { password_hash } = loaded.prepare("SELECT password_hash FROM users LIMIT 1").get() as {
      password_hash: string;
    };
    expect(verifyPassword("demo-pass-2024", password_hash)).toBe(true);
    loaded.close();
  });
});
