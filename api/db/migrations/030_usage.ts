/**
 * Usage intervals (bills and usage area): one row per building and 15-minute interval.
 * `ts` is the interval start as the building's local wall-clock time in epoch seconds (as if it were UTC),
 * so that SQL can bucket by local hour, day, week, month and year without timezone arithmetic.
 * A missing row is a real gap in the data.
 */
export const m030_usage = {
  id: "030_usage",
  sql: /* sql */ `
CREATE TABLE usage_intervals (
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  ts INTEGER NOT NULL,
  kwh REAL NOT NULL,
  kw REAL NOT NULL,
  indoor_f REAL,
  outdoor_f REAL,
  PRIMARY KEY (building_id, ts)
) WITHOUT ROWID;
CREATE INDEX bill_flags_status ON bill_flags(status);
`,
};
