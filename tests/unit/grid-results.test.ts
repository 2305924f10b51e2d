import { describe, expect, it } from "vitest";
import { resultsDue, resultsKey, noticeKey } from "../../api/domain/grid-notices";
import { gridEventPath, gridResultsEmail, type ResultsEvent } from "../../api/mail/notifications";
import { NO_DATA_NOTE, type DispatchPerformance } from "../../shared/grid-figures";

/** Rule grid-results-day (docs/rules.md): when the results go out, and what the email says. */
describe("resultsDue (rule grid-results-day): the day after, in the building's time zone", () => {
  // 1:00 to 2:30 PM in Denver on Monday 16 November 2026 (MST, UTC−7): 20:00 to 21:30 UTC.
  const event = {
    status: "SUCCESS",
    internalTest: false,
    endTime: "2026-11-16T21:30:00.000Z",
    timeZone: "America/Denver",
  };
  const at = (iso: string) => Date.parse(iso);
  it("is due all of the local day after, and not before or after it", () => {
    expect(resultsDue(event, at("2026-11-17T07:00:00.000Z"))).toBe(true); // 00:00 Tue, Denver
    expect(resultsDue(event, at("2026-11-18T06:59:59.000Z"))).toBe(true); // 23:59:59 Tue, Denver
    expect(resultsDue(event, at("2026-11-17T06:59:59.000Z"))).toBe(false); // 23:59:59 Mon, Denver
    expect(resultsDue(event, at("2026-11-18T07:00:00.000Z"))).toBe(false); // 00:00 Wed: not sent late
  });
  it("follows the building's zone, not UTC's day", () => {
    // 02:00 UTC on the 17th is already the day after in UTC, still Monday evening in Denver.
    expect(resultsDue(event, at("2026-11-17T02:00:00.000Z"))).toBe(false);
    // In New York the same event ended at 4:30 PM Monday; 05:30 UTC on the 17th is 12:30 AM Tuesday there.
    expect(resultsDue({ ...event, timeZone: "America/New_York" }, at("2026-11-17T05:30:00.000Z"))).toBe(true);
  });
  it("is only for an event that took part and is not an internal test", () => {
    const tue = at("2026-11-17T18:00:00.000Z");
    expect(resultsDue(event, tue)).toBe(true);
    for (const status of ["PENDING", "OPT_OUT", "NO DEVICES"])
      expect(resultsDue({ ...event, status }, tue)).toBe(false);
    expect(resultsDue({ ...event, internalTest: true }, tue)).toBe(false);
  });
  it("has its own ledger key, apart from the notice before", () => {
    expect(resultsKey(60)).toBe("results:60");
    expect(resultsKey(60)).not.toBe(noticeKey(60));
  });
});

const program = {
  name: "Commercial System Relief Program",
  utility: "Con Edison",
  reservationCentsPerKwMonth: 1800,
  performanceCentsPerKwh: 100,
  estimated: true,
};
/** Worked example 1 of docs/rules.md (tests/unit/grid-performance.test.ts) as the page receives it. */
const measured: DispatchPerformance = {
  measurement: "measured",
  baselineKw: 22.2,
  actualKw: 18,
  kwReduced: 4.2,
  kwhReduced: 4.2,
  hours: 1,
  cblMethod: "weekday",
  cblDays: [{ date: "2026-07-14", averageKw: 20, used: true }],
  eventsInMonth: 3,
  earnings: { reservationCents: 2520, performanceCents: 420, totalCents: 2940 },
  program,
};
const lodo: ResultsEvent = {
  id: 60,
  location: { id: 108, name: "Harbor Coffee LoDo", timeZone: "America/Denver" },
  status: "SUCCESS",
  internalTest: false,
  startsAt: "2026-11-16T20:00:00.000Z",
  endsAt: "2026-11-16T21:30:00.000Z",
  performance: measured,
  thermostats: [
    { name: "Cafe Floor", participatingMinutes: 90, targetSetpoint: 76, maxIndoorF: 75.8 },
    {
      name: "Back Office",
      participatingMinutes: 32,
      wasOverridden: true,
      overriddenAt: "2026-11-16T20:32:00.000Z",
      overrideSetpoint: 71,
      targetSetpoint: 76,
      maxIndoorF: 77.1,
    },
    { name: "Pastry Kitchen", participatingMinutes: 0, targetSetpoint: 76, maxIndoorF: null },
  ],
};
const email = (events: ResultsEvent[]) =>
  gridResultsEmail({ baseUrl: "https://app.test", unsubscribeHref: "https://app.test/u", events });
const text = (doc: ReturnType<typeof email>) => JSON.stringify(doc.blocks);

describe("gridResultsEmail (rule grid-results-day): the page's words, per location", () => {
  it("writes the measured figures, how the earnings add up and the rates as estimates", () => {
    const doc = email([lodo]);
    expect(doc.subject).toBe("Grid event results at Harbor Coffee LoDo");
    const facts = doc.blocks.find((b) => b.type === "facts");
    expect(facts).toEqual({
      type: "facts",
      rows: [
        ["Event", "Nov 16, 2026, 1:00 PM – 2:30 PM MST"],
        ["Baseline", "22.20 kW"],
        ["Actual average", "18.00 kW"],
        ["Reduced", "4.20 kW · 4.20 kWh"],
        ["Estimated earnings", "$29.40"],
      ],
    });
    expect(text(doc)).toContain(
      "Reservation $25.20 ($18.00 per kW-month × 4.20 kW ÷ 3 events this month) + performance $4.20 ($1.00 per kWh × 4.20 kWh).",
    );
    expect(text(doc)).toContain("Earned an estimated $29.40 yesterday from 1 event; 4.20 kWh reduced.");
    expect(text(doc)).toContain("These are our estimates, not a statement from the utility.");
  });

  it("says each thermostat took part, opted out or overrode (when, to what)", () => {
    const items = email([lodo]).blocks.find((b) => b.type === "list");
    expect(items).toEqual({
      type: "list",
      items: [
        { text: "Cafe Floor: Took part; highest indoor 75.8°F (at or below the 76°F setpoint)." },
        {
          text: "Back Office: Overrode at 1:32 PM MST to 71°F; highest indoor 77.1°F (1.1° above the 76°F setpoint).",
        },
        { text: "Pastry Kitchen: Opted out; highest indoor —." },
      ],
    });
  });

  it("says so for a location without data, with no figure and no total", () => {
    const doc = email([{ ...lodo, performance: { ...measured, measurement: "no_data", earnings: null } }]);
    expect(text(doc)).toContain(NO_DATA_NOTE);
    expect(text(doc)).not.toContain("Baseline");
    expect(text(doc)).not.toContain("Earned an estimated");
  });

  it("names several locations, each with its own figures and link", () => {
    const other: ResultsEvent = {
      ...lodo,
      id: 61,
      location: { id: 114, name: "Harbor Coffee Brooklyn", timeZone: "America/New_York" },
      performance: { ...measured, measurement: "no_data", earnings: null, kwhReduced: null },
    };
    const doc = email([lodo, other]);
    expect(doc.subject).toBe("Grid event results at 2 locations");
    expect(doc.blocks.filter((b) => b.type === "h2").map((b) => (b as { text: string }).text)).toEqual([
      "Harbor Coffee LoDo",
      "Harbor Coffee Brooklyn",
    ]);
    expect(text(doc)).toContain("Earned an estimated $29.40 yesterday from 2 events; 4.20 kWh reduced.");
    const links = doc.blocks.flatMap((b) => (b.type === "button" ? [b.link.href] : []));
    expect(links).toHaveLength(2);
  });

  it("links to the event on Grid Services, expanded, at its row", () => {
    const url = new URL(gridEventPath(lodo), "https://app.test");
    expect(url.pathname).toBe("/grid-services");
    expect(url.searchParams.get("q")).toBe("Harbor Coffee LoDo");
    expect(url.searchParams.get("open")).toBe("60");
    expect(url.searchParams.get("from")).toBe("2026-11-16");
    expect(url.searchParams.get("to")).toBe("2026-11-16");
    expect(url.hash).toBe("#event-60");
    const button = email([lodo]).blocks.find((b) => b.type === "button");
    expect(button).toMatchObject({
      link: { href: `https://app.test${gridEventPath(lodo)}`, label: "See this event at Harbor Coffee LoDo" },
    });
  });
});
