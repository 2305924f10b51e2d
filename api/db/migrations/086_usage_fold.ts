/**
 * Usage intervals across a change of clocks. `ts` stays the interval start as the building's local
 * wall-clock time (epoch seconds as if UTC, migration 030), so that SQL still buckets by local day, week,
 * month and year without timezone arithmetic. A wall-clock time names two instants once a year: on the day the
 * clocks go back, 1:00–1:59 AM happens twice. `fold` tells them apart, as Python's datetime does: 0 for the
 * first occurrence (and every other interval), 1 for the second. A wall-clock time the clocks skip (2:00–2:59 AM
 * on the day they go forward) has no interval at all.
 *
 * The rows kept from before this migration are the first occurrences (fold 0); a reseed writes the repeated
 * hour and drops the skipped one (api/db/seed/usage.ts).
 */
export const m086_usage_fold = {
  id: "086_usage_fold",
  sql: /* sql */ `
CREATE TABLE usage_intervals_086 (
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  ts INTEGER NOT NULL,
  fold INTEGER NOT NULL DEFAULT 0 CHECK (fold IN (0, 1)),
  kwh REAL NOT NULL,
  kw REAL NOT NULL,
  indoor_f REAL,
  outdoor_f REAL,
  PRIMARY KEY (building_id, ts, fold)
) WITHOUT ROWID;
INSERT INTO usage_intervals_086 (building_id, ts, fold, kwh, kw, indoor_f, outdoor_f)
  SELECT building_id, ts, 0, kwh, kw, indoor_f, outdoor_f FROM usage_intervals;
DROP TABLE usage_intervals;
ALTER TABLE usage_intervals_086 RENAME TO usage_intervals;
`,
};
