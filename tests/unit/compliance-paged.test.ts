import { describe, expect, it } from "vitest";
import { thermostatTablePage } from "~/features/compliance/compliance";

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
