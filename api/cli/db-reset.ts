import fs from "node:fs";
import path from "node:path";
import { apiConfigFromEnv } from "../config";
import { openDb } from "../db";
import { setClockStart } from "../lib/clock";
import { seedIfEmpty } from "../db/seed";

const dir = process.env.DATA_DIR || "data";
const file = path.join(dir, "api.sqlite");
fs.mkdirSync(dir, { recursive: true });
for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
const config = apiConfigFromEnv();
setClockStart(config.clockStart);
const started = Date.now();
const db = openDb(file);
seedIfEmpty(db, { staffEmailDomain: config.staffEmailDomain, extraLocations: config.extraLocations });
db.close();
console.log(`Reset ${file} and seeded the demo data in ${Date.now() - started} ms.`);
