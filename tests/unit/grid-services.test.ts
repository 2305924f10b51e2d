import { describe, expect, it } from "vitest";
import {
  DEFAULT_SORT,
  defaultDateRange,
  dispatchCsvRows,
  dispatchStatusLabel,
  dispatchStatusTone,
  IN_PROGRESS_LABEL,
  isDispatchRunning,
  gridHref,
  gridSearch,
  pageCount,
  parseGridState,
  toggleOpen,
  toggleSort,
  type DispatchRow,
} from "~/features/grid-services/grid-services";
import { toCsv } from "../../shared/csv";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { localTimeParts, formatLocalTime } from "~/lib/local-time";
import { dispatchRow, type Dispatch } from "~/features/grid-services/grid-services.server";

describe("dispatch status labels", () => {
  it("maps every known status and falls back for the rest", () => {
    expect(dispatchStatusLabel("OPT_OUT")).toBe("Opted out");
    expect(dispatchStatusLabel("NO DEVICES")).toBe("No available thermostats");
    expect(dispatchStatusLabel("SUCCESS")).toBe("Participated");
    expect(dispatchStatusLabel("PENDING")).toBe("Pending");
    expect(dispatchStatusLabel("CANCELLED_BY_UTILITY")).toBe("No status available");
    expect(dispatchStatusLabel(null)).toBe("No status available");
    expect(dispatchStatusLabel("constructor")).toBe("No status available");
  });
});

describe("default sort and range", () => {
  it("sorts by end time descending, then building address descending", () => {
    expect(DEFAULT_SORT).toEqual([
      { field: "end_time", dir: "DESC" },
      { field: "building_address", dir: "DESC" },
    ]);
    expect(parseGridState(new URLSearchParams()).sort).toEqual(DEFAULT_SORT);
  });

  it("runs from June 1 of the current year for 6 months, to November 30", () => {
    expect(defaultDateRange(new Date(Date.UTC(2026, 10, 21)))).toEqual({
      startDate: "2026-06-01",
      endDate: "2026-11-30",
    });
    expect(defaultDateRange(new Date(Date.UTC(2025, 0, 2)))).toEqual({
      startDate: "2025-06-01",
      endDate: "2025-11-30",
    });
  });
});

describe("URL state", () => {
  it("parses the query and ignores malformed values", () => {
    const s = parseGridState(new URLSearchParams("q=%20pike%20&page=3&sort=status:ASC&open=5&open=x"));
    expect(s).toEqual({ q: "pike", page: 3, sort: [{ field: "status", dir: "ASC" }], open: [5] });
    expect(parseGridState(new URLSearchParams("page=-2&sort=nope:ASC")).page).toBe(1);
    expect(parseGridState(new URLSearchParams("sort=status:UP")).sort).toEqual(DEFAULT_SORT);
  });

  it("leaves defaults out of the URL and keeps everything else", () => {
    expect(gridSearch(parseGridState(new URLSearchParams()))).toBe("");
    expect(gridSearch({ q: "pike", page: 2, sort: DEFAULT_SORT, open: [4] })).toBe("?q=pike&page=2&open=4");
  });

  it("writes the path in every plain link, so the default view is not an empty href", () => {
    const endAscending = parseGridState(new URLSearchParams("sort=end_time:ASC&sort=building_address:DESC"));
    expect(gridHref(toggleSort(endAscending, "end_time"))).toBe("/grid-services");
    expect(gridHref({ q: "", page: 1, sort: DEFAULT_SORT, open: [3] })).toBe("/grid-services?open=3");
    expect(gridHref(toggleOpen({ q: "", page: 1, sort: DEFAULT_SORT, open: [3] }, 3))).toBe("/grid-services");
  });

  it("toggles sort direction on the primary column and goes back to page 1", () => {
    const state = { q: "x", page: 3, sort: DEFAULT_SORT, open: [1] };
    const flipped = toggleSort(state, "end_time");
    expect(flipped.sort[0]).toEqual({ field: "end_time", dir: "ASC" });
    expect(flipped.page).toBe(1);
    expect(toggleSort(state, "status").sort).toEqual([
      { field: "status", dir: "ASC" },
      { field: "building_address", dir: "DESC" },
    ]);
    expect(toggleSort(state, "building_address").sort).toEqual([{ field: "building_address", dir: "ASC" }]);
  });

  it("expands and collapses rows", () => {
    const s = { q: "", page: 1, sort: DEFAULT_SORT, open: [] as number[] };
    expect(toggleOpen(s, 7).open).toEqual([7]);
    expect(toggleOpen({ ...s, open: [7, 8] }, 7).open).toEqual([8]);
  });

  it("counts pages of 15", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(15)).toBe(1);
    expect(pageCount(16)).toBe(2);
  });
});

describe("event times", () => {
  it("shows the time in the building's timezone", () => {
    expect(formatLocalTime("2026-07-01T18:00:00.000Z", "America/Los_Angeles")).toBe(
      "Jul 1, 2026, 11:00 AM PDT",
    );
    expect(formatLocalTime("2026-11-20T18:00:00.000Z", "America/New_York")).toBe("Nov 20, 2026, 1:00 PM EST");
    expect(formatLocalTime(null, "America/New_York")).toBe("—");
  });

  it("builds the timezone-name formatter once per timezone, not once per time shown", () => {
    const Real = Intl.DateTimeFormat;
    let built = 0;
    const counting = function (locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      if (options?.timeZoneName === "short" && options.timeZone === "America/Denver") built++;
      return new Real(locales, options);
    } as unknown as typeof Intl.DateTimeFormat;
    Intl.DateTimeFormat = counting;
    try {
      const times = Array.from(
        { length: 20 },
        (_, i) => `2026-07-${String(i + 1).padStart(2, "0")}T18:00:00Z`,
      );
      const shown = times.map((t) => formatLocalTime(t, "America/Denver"));
      expect(shown[0]).toBe("Jul 1, 2026, 12:00 PM MDT");
      expect(new Set(shown).size).toBe(20);
      expect(built).toBeLessThanOrEqual(1);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });

  /** How the page wrote a time before the server wrote them with one Intl formatter (date-fns, @date-fns/tz). */
  function withDateFns(iso: string, tz: string): [string, string] {
    const ms = Date.parse(iso);
    const d = new TZDate(ms, tz);
    const abbr = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "short" })
      .formatToParts(new Date(ms))
      .find((p) => p.type === "timeZoneName")?.value;
    return [format(d, "MMM d, yyyy"), `${format(d, "h:mm a")}${abbr ? ` ${abbr}` : ""}`];
  }

  it("writes the same words as date-fns, across both DST changes, midnight and noon", () => {
    const zones = [
      "America/New_York",
      "America/Los_Angeles",
      "America/Phoenix",
      "Pacific/Honolulu",
      "Asia/Kolkata",
      "Australia/Lord_Howe",
    ];
    let compared = 0;
    // Every 5 h 7 min through 2026: every hour of the day, every month, both DST changes of each zone.
    for (const tz of zones)
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 307 * 60_000) {
        const iso = new Date(t).toISOString();
        expect(localTimeParts(iso, tz), `${iso} in ${tz}`).toEqual(withDateFns(iso, tz));
        compared++;
      }
    expect(compared).toBeGreaterThan(10_000);
    expect(localTimeParts("2026-11-19T05:00:00Z", "America/Chicago")).toEqual([
      "Nov 18, 2026",
      "11:00 PM CST",
    ]);
    expect(localTimeParts("2026-11-19T06:00:00Z", "America/Chicago")).toEqual([
      "Nov 19, 2026",
      "12:00 AM CST",
    ]);
  });

  it("uses New York time for a building without a timezone or with one Intl does not know", () => {
    const ny = localTimeParts("2026-11-20T18:00:00.000Z", "America/New_York");
    expect(ny).toEqual(["Nov 20, 2026", "1:00 PM EST"]);
    expect(localTimeParts("2026-11-20T18:00:00.000Z", null)).toEqual(ny);
    expect(localTimeParts("2026-11-20T18:00:00.000Z", "Mars/Olympus_Mons")).toEqual(ny);
    expect(localTimeParts("not a time", "America/New_York")).toBeNull();
  });

  it("writes an instant once: the same event on the next page view costs no Intl call", () => {
    const real = Intl.DateTimeFormat.prototype.formatToParts;
    let calls = 0;
    Intl.DateTimeFormat.prototype.formatToParts = function (this: Intl.DateTimeFormat, date) {
      calls++;
      return real.call(this, date);
    };
    try {
      const first = localTimeParts("2026-03-08T09:30:00.000Z", "America/Boise");
      const again = localTimeParts("2026-03-08T09:30:00.000Z", "America/Boise");
      expect(first).toEqual(["Mar 8, 2026", "3:30 AM MDT"]);
      expect(again).toEqual(first);
      expect(calls).toBe(1);
    } finally {
      Intl.DateTimeFormat.prototype.formatToParts = real;
    }
  });
});

describe("the rows the loader sends", () => {
  const dispatch: Dispatch = {
    id: 7,
    buildingId: 101,
    buildingAddress: "1912 Pike Pl, Seattle",
    buildingTimezone: "America/Los_Angeles",
    status: "PENDING",
    eventType: "demand_response",
    isInternalTest: true,
    precoolStartTime: null,
    startTime: "2026-11-18T18:30:00.000Z",
    endTime: "2026-11-20T07:30:00.000Z",
    wereOverriddenThermostats: false,
    thermostatActionsInsights: [{ thermostatId: 1001, deviceName: "Front Counter", wasOverridden: true }],
  };
  const nowMs = Date.parse("2026-11-18T19:30:00.000Z");

  it("carry labels and times in words, and no upstream field the page does not write", () => {
    const row = dispatchRow(dispatch, nowMs, false);
    expect(row).toEqual({
      id: 7,
      address: "1912 Pike Pl, Seattle",
      internalTest: true,
      overridden: false,
      eventType: "Demand response",
      status: "In progress",
      tone: "success",
      precool: null,
      start: { iso: "2026-11-18T18:30:00.000Z", day: "Nov 18, 2026", time: "10:30 AM PST" },
      end: { iso: "2026-11-20T07:30:00.000Z", day: "Nov 19, 2026", time: "11:30 PM PST" },
    });
    expect(dispatchRow({ ...dispatch, eventType: null, status: "SUCCESS" }, nowMs, false)).toMatchObject({
      eventType: "—",
      status: "Participated",
    });
  });

  it("carry a row's thermostats only when the row is expanded", () => {
    expect(dispatchRow(dispatch, nowMs, false)).not.toHaveProperty("thermostats");
    expect(dispatchRow(dispatch, nowMs, true).thermostats).toEqual([
      {
        thermostatId: 1001,
        deviceName: "Front Counter",
        wasOverridden: true,
        part: "Scheduled",
        highest: "—",
      },
    ]);
    // An expanded row carries its location's figures; a closed one does not.
    expect(dispatchRow(dispatch, nowMs, false)).not.toHaveProperty("figures");
    expect(dispatchRow(dispatch, nowMs, true).figures?.note).toBe("Figures come after the event.");
    expect(dispatchRow({ ...dispatch, thermostatActionsInsights: null }, nowMs, true).thermostats).toEqual(
      [],
    );
  });
});

describe("displayed dispatch status (rule dispatch-display-status)", () => {
  const at = (iso: string) => Date.parse(iso);
  const event = {
    precoolStartTime: "2026-11-18T17:30:00.000Z",
    startTime: "2026-11-18T18:30:00.000Z",
    endTime: "2026-11-20T07:30:00.000Z",
  };

  it("a dispatch runs from its precool start (or start) up to, not including, its end", () => {
    expect(isDispatchRunning(event, at("2026-11-18T17:29:59.999Z"))).toBe(false);
    expect(isDispatchRunning(event, at("2026-11-18T17:30:00.000Z"))).toBe(true);
    expect(isDispatchRunning(event, at("2026-11-18T19:30:00.000Z"))).toBe(true);
    expect(isDispatchRunning(event, at("2026-11-20T07:30:00.000Z"))).toBe(false);
    const noPrecool = { ...event, precoolStartTime: null };
    expect(isDispatchRunning(noPrecool, at("2026-11-18T18:00:00.000Z"))).toBe(false);
    expect(isDispatchRunning(noPrecool, at("2026-11-18T18:30:00.000Z"))).toBe(true);
    expect(isDispatchRunning({ startTime: null, endTime: null }, at("2026-11-18T18:30:00.000Z"))).toBe(false);
  });

  it("a PENDING dispatch under way is In progress; every other case keeps the spec's label", () => {
    expect(dispatchStatusLabel("PENDING", true)).toBe(IN_PROGRESS_LABEL);
    expect(dispatchStatusTone("PENDING", true)).toBe("success");
    expect(dispatchStatusLabel("PENDING", false)).toBe("Pending");
    expect(dispatchStatusTone("PENDING", false)).toBe("info");
    // A final status stays final, even while its window is open (the outcome is known).
    expect(dispatchStatusLabel("OPT_OUT", true)).toBe("Opted out");
    expect(dispatchStatusLabel("SUCCESS", true)).toBe("Participated");
    expect(dispatchStatusLabel("NO DEVICES", true)).toBe("No available thermostats");
    expect(dispatchStatusLabel("CANCELLED_BY_UTILITY", true)).toBe("No status available");
  });
});

describe("Grid Services CSV", () => {
  const row = (over: Partial<DispatchRow>): DispatchRow => ({
    id: 1,
    address: "1912 Pike Pl",
    internalTest: false,
    overridden: false,
    eventType: "Demand response",
    status: "Success",
    tone: "success",
    precool: { iso: "2026-11-03T21:30:00.000Z", day: "Nov 3, 2026", time: "1:30 PM PST" },
    start: { iso: "2026-11-03T22:00:00.000Z", day: "Nov 3, 2026", time: "2:00 PM PST" },
    end: null,
    ...over,
  });
  it("has the table's columns and each time with its zone", () => {
    const rows = dispatchCsvRows([row({}), row({ id: 2, address: "=HYPERLINK(1)", overridden: true })]);
    expect(rows[0]).toEqual([
      "Location",
      "Event type",
      "Status",
      "Precool start",
      "Start",
      "End",
      "Overridden thermostats",
      "Internal test",
      "Baseline kW",
      "Actual kW",
      "kW reduced",
      "kWh reduced",
      "Estimated earnings",
      "Note",
    ]);
    expect(rows[1]).toEqual([
      "1912 Pike Pl",
      "Demand response",
      "Success",
      "Nov 3, 2026, 1:30 PM PST",
      "Nov 3, 2026, 2:00 PM PST",
      "",
      "No",
      "No",
      "",
      "",
      "",
      "",
      "",
      "",
    ]);
    // The one CSV writer neutralises a formula-like address.
    expect(toCsv(rows).split("\r\n")[2]).toMatch(/^'=HYPERLINK\(1\),/);
  });
});

describe("a range the URL names (rule grid-linked-range: the Weekly Rundown's event links)", () => {
  it("takes from and to when both are real dates in order, at most a year apart, and keeps them in links", () => {
    const s = parseGridState(new URLSearchParams("q=LoDo&from=2026-11-23&to=2026-11-24&open=62"));
    expect(s.range).toEqual({ startDate: "2026-11-23", endDate: "2026-11-24" });
    expect(gridSearch(s)).toBe("?q=LoDo&from=2026-11-23&to=2026-11-24&open=62");
    for (const bad of [
      "from=2026-11-24&to=2026-11-23",
      "from=2026-02-30&to=2026-03-01",
      "from=2024-01-01&to=2026-01-01",
      "from=2026-11-23",
      "from=x&to=y",
    ])
      expect(parseGridState(new URLSearchParams(bad)).range).toBeUndefined();
  });
});
