import fs from "node:fs";
import path from "node:path";
import { openDb } from "../db";
import { setClockStart } from "../lib/clock";
import { seedIfEmpty } from "../db/seed";

const dir = process.env.DATA_DIR || "data";
const file = path.join(dir, "api.sqlite");
fs.mkdirSync(dir, { recursive: true });
for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
setClockStart(process.env.CLOCK_START);
const started = Date.now();
const db = openDb(file);
seedIfEmpty(db, { staffEmailDomain: process.env.STAFF_EMAIL_DOMAIN || "energyops.test" });
db.close();
console.log(`Reset ${file} and seeded the demo data in ${Date.now() - started} ms.`);
