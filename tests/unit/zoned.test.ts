import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  HOME_TIMEZONE,
  formatZonedClock,
  formatZonedDay,
  formatZonedDayHour,
  formatZonedIsoDate,
  formatZonedIsoMinute,
  formatZonedLongDate,
  formatZonedMediumDate,
  zoneLabel,
  zonedParts,
  zonedTime,
} from "~/lib/zoned";

const ZONES = [
  "America/New_York",
  "America/Los_Angeles",
  "America/Phoenix",
  "America/Santiago",
  "America/Havana",
  "Europe/London",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "UTC",
];

describe("wall-clock time in a timezone without TZDate", () => {
  it("names the same instant as TZDate for every local midnight and 6-hour mark of two years", () => {
    for (const tz of ZONES)
      for (let day = 0; day < 730; day += 1)
        for (const hour of [0, 6, 12, 18]) {
          const expected = +new TZDate(2026, 0, 1 + day, hour, 0, tz);
          expect(zonedTime(tz, 2026, 1, 1 + day, hour), `${tz} day ${day} ${hour}:00`).toBe(expected);
        }
  });

  it("moves a time skipped by a DST change forward and takes the first of a repeated one, like TZDate", () => {
    const cases: [string, number, number, number, number, number][] = [
      ["America/New_York", 2026, 3, 8, 2, 30], // skipped
      ["America/New_York", 2026, 11, 1, 1, 30], // repeated
      ["America/Santiago", 2026, 9, 6, 0, 0], // midnight skipped
      ["America/Havana", 2026, 3, 8, 0, 0],
      ["Australia/Lord_Howe", 2026, 10, 4, 2, 15], // a 30-minute change
    ];
    for (const [tz, y, m, d, h, min] of cases)
      expect(zonedTime(tz, y, m, d, h, min), `${tz} ${y}-${m}-${d} ${h}:${min}`).toBe(
        +new TZDate(y, m - 1, d, h, min, tz),
      );
  });

  it("reads and writes the fields and words date-fns wrote", () => {
    for (const tz of ZONES)
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7 * 3_600_000 + 13 * 60_000) {
        const local = new TZDate(ms, tz);
        const p = zonedParts(ms, tz);
        const at = `${tz} ${new Date(ms).toISOString()}`;
        expect(formatZonedIsoMinute(p), at).toBe(format(local, "yyyy-MM-dd HH:mm"));
        expect(formatZonedIsoDate(p), at).toBe(format(local, "yyyy-MM-dd"));
        expect(formatZonedLongDate(p), at).toBe(format(local, "EEEE, MMMM d, yyyy"));
        expect(formatZonedDay(p), at).toBe(format(local, "MMM d"));
        expect(formatZonedDayHour(p), at).toBe(format(local, "MMM d, h a"));
        expect(formatZonedMediumDate(p), at).toBe(format(local, "MMM d, yyyy"));
        expect(formatZonedClock(p), at).toBe(format(local, "h:mm a"));
      }
  });

  it("reads a timezone Intl does not know as the product's home timezone", () => {
    const ms = Date.UTC(2026, 9, 1, 4);
    expect(zonedParts(ms, "Mars/Olympus_Mons")).toEqual(zonedParts(ms, "America/New_York"));
    expect(zonedTime("Mars/Olympus_Mons", 2026, 10, 1)).toBe(ms);
  });
});

describe("the home timezone", () => {
  it("is one constant, HOME_TIMEZONE, the only place app/ spells out its zone", () => {
    const files = readdirSync("app", { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f));
    const spelled = files.filter((f) => readFileSync(join("app", f), "utf8").includes(`"${HOME_TIMEZONE}"`));
    expect(spelled).toEqual([join("lib", "zoned.ts")]);
  });
});

describe("zone labels", () => {
  const winter = Date.UTC(2026, 0, 15, 12);
  const summer = Date.UTC(2026, 6, 15, 12);
  it("names US zones as the control room names New York time, the same all year", () => {
    for (const at of [winter, summer]) {
      expect(zoneLabel("America/New_York", at)).toBe("ET");
      expect(zoneLabel("America/Chicago", at)).toBe("CT");
      expect(zoneLabel("America/Denver", at)).toBe("MT");
      expect(zoneLabel("America/Los_Angeles", at)).toBe("PT");
      expect(zoneLabel("America/Phoenix", at)).toBe("MST");
    }
  });
  it("names other zones by their offset at the instant; none or an unknown one is New York's", () => {
    expect(zoneLabel("Europe/Berlin", winter)).toBe("GMT+1");
    expect(zoneLabel("Europe/Berlin", summer)).toBe("GMT+2");
    expect(zoneLabel("UTC", winter)).toBe("UTC");
    expect(zoneLabel(null, winter)).toBe("ET");
    expect(zoneLabel("Mars/Olympus_Mons", winter)).toBe("ET");
  });
});
