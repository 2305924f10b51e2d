import { describe, expect, it } from "vitest";
import {
  compareNatural,
  DEFAULT_THERMOSTAT_SORT,
  nextThermostatSort,
  parseThermostatSort,
  sortThermostats,
  thermostatTablePage,
  type ThermostatSort,
} from "~/features/compliance/compliance";

const thermostats = Array.from({ length: 460 }, (_, i) => ({
  thermostatId: i + 1,
  buildingId: Math.floor(i / 2) + 1,
  addressLine1: `${Math.floor(i / 2) + 1} ${i % 4 < 2 ? "Harbor Way" : "Oak Ave"}`,
}));

describe("thermostatTablePage (rule compliance-thermostats-paged)", () => {
  it("shows 75 rows a page in the report's order, every thermostat once", () => {
    const first = thermostatTablePage(thermostats, { location: null, query: "" }, 1);
    expect([first.page, first.pages, first.matched]).toEqual([1, 7, 460]);
    expect(first.rows.map((t) => t.thermostatId)).toEqual(
      thermostats.slice(0, 75).map((t) => t.thermostatId),
    );
    const ids = [1, 2, 3, 4, 5, 6, 7].flatMap((p) =>
      thermostatTablePage(thermostats, { location: null, query: "" }, p).rows.map((t) => t.thermostatId),
    );
    expect(ids).toEqual(thermostats.map((t) => t.thermostatId));
    expect(thermostatTablePage(thermostats, { location: null, query: "" }, 99).page).toBe(7);
  });

  it("filters over every thermostat before paging: by location, or by every word of a search", () => {
    const one = thermostatTablePage(thermostats, { location: 200, query: "" }, 1);
    expect(one.rows.map((t) => t.thermostatId)).toEqual([399, 400]);
    expect(one.pages).toBe(1);
    const oak = thermostatTablePage(thermostats, { location: null, query: "  oak AVE " }, 2);
    expect(oak.matched).toBe(230);
    expect(oak.rows.every((t) => t.addressLine1.endsWith("Oak Ave"))).toBe(true);
    expect(oak.rows[0].thermostatId).toBe(
      thermostats.filter((t) => t.addressLine1.endsWith("Oak Ave"))[75].thermostatId,
    );
    expect(thermostatTablePage(thermostats, { location: null, query: "elm" }, 1)).toMatchObject({
      rows: [],
      page: 1,
      pages: 1,
      matched: 0,
    });
  });
});

describe("Compliance by Thermostat sort", () => {
  const rows = [
    {
      thermostatId: 1,
      addressLine1: "1100 Elm St",
      deviceName: "Lobby",
      scheduleCompliancePercentage: 90,
      permanentHoldCount: 0,
      autoResetCount: 4,
    },
    {
      thermostatId: 2,
      addressLine1: "301 Elm St",
      deviceName: "Office",
      scheduleCompliancePercentage: 40,
      permanentHoldCount: 3,
      autoResetCount: 1,
    },
    {
      thermostatId: 3,
      addressLine1: "7 Elm St",
      deviceName: "Back Room",
      scheduleCompliancePercentage: null,
      permanentHoldCount: null,
      autoResetCount: 0,
    },
    {
      thermostatId: 4,
      addressLine1: "88 Elm St",
      deviceName: "Front",
      scheduleCompliancePercentage: 65,
      permanentHoldCount: 1,
      autoResetCount: 9,
    },
    {
      thermostatId: 5,
      addressLine1: "7 Elm St",
      deviceName: "Attic",
      scheduleCompliancePercentage: 40,
      permanentHoldCount: 3,
      autoResetCount: 2,
    },
  ];
  const ids = (sort: ThermostatSort) => sortThermostats(rows, sort).map((r) => r.thermostatId);

  it("orders addresses by their numbers as numbers (7, 88, 301, 1100), then device name", () => {
    expect(ids(DEFAULT_THERMOSTAT_SORT)).toEqual([5, 3, 4, 2, 1]);
    expect(ids({ key: "location", dir: "desc" })).toEqual([1, 2, 4, 3, 5]);
    expect(compareNatural("Suite 9", "suite 10")).toBeLessThan(0);
  });

  it("sorts by compliance, holds and resets, worst first on the first click; N/A last either way", () => {
    const worst = nextThermostatSort(DEFAULT_THERMOSTAT_SORT, "compliance");
    expect(worst).toEqual({ key: "compliance", dir: "asc" });
    expect(ids(worst)).toEqual([5, 2, 4, 1, 3]);
    expect(ids(nextThermostatSort(worst, "compliance"))).toEqual([1, 4, 5, 2, 3]);
    expect(nextThermostatSort(worst, "holds")).toEqual({ key: "holds", dir: "desc" });
    expect(ids({ key: "holds", dir: "desc" })).toEqual([5, 2, 4, 3, 1]);
    expect(ids({ key: "resets", dir: "desc" })).toEqual([4, 1, 5, 2, 3]);
  });

  it("reads the sort from the URL, anything else is the address order", () => {
    expect(parseThermostatSort("holds:desc")).toEqual({ key: "holds", dir: "desc" });
    expect(parseThermostatSort("resets:up")).toEqual(DEFAULT_THERMOSTAT_SORT);
    expect(parseThermostatSort("__proto__:asc")).toEqual(DEFAULT_THERMOSTAT_SORT);
    expect(parseThermostatSort(null)).toEqual(DEFAULT_THERMOSTAT_SORT);
  });

  it("sorts over every thermostat before paging", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      thermostatId: i + 1,
      buildingId: 1,
      addressLine1: `${100 - i} Oak Ave`,
      scheduleCompliancePercentage: i,
    }));
    const page = thermostatTablePage(many, { location: null, query: "" }, 1, {
      key: "compliance",
      dir: "asc",
    });
    expect(page.rows[0].thermostatId).toBe(1);
    const byPlace = thermostatTablePage(many, { location: null, query: "" }, 1);
    expect(byPlace.rows[0].addressLine1).toBe("1 Oak Ave");
  });
});
