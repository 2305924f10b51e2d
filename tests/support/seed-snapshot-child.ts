/**
 * One of two processes asking for the same missing seed snapshot at once (tests/integration/seed-snapshot.test.ts):
 * argv: the cache directory, the database file, the seed's `now`. Waits for the start time in argv[5] (so both
 * look for the snapshot together), then prints how its database was made as JSON; the test compares the files.
 */
import { openSeededDb } from "../../api/db/seed/snapshot";

const [cacheDir, file, now, startAt] = process.argv.slice(2);
const wait = Number(startAt) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
const { db, from } = openSeededDb(file, { cacheDir, now: new Date(now), staffEmailDomain: "energyops.test" });
db.close();
process.stdout.write(JSON.stringify({ from }));
