import { describe, expect, it } from "vitest";
import {
  LOCATION_ROUTE_ID,
  locationLabelFromMatches,
  locationPageTitle,
} from "~/features/locations/page-title";

describe("location page titles", () => {
  it("names the page, then the location, then the product", () => {
    expect(locationPageTitle(["Thermostats"], "Harbor Coffee Pike Place")).toBe(
      "Thermostats · Harbor Coffee Pike Place · EnergyOps",
    );
    expect(locationPageTitle(["Demand", "Usage Details"], "HC-101")).toBe(
      "Demand · Usage Details · HC-101 · EnergyOps",
    );
    expect(locationPageTitle(["Bill History"], null)).toBe("Bill History · EnergyOps");
  });

  it("reads the location's label from the location route's data", () => {
    const matches = [
      { id: "root", data: {} },
      { id: LOCATION_ROUTE_ID, data: { location: { id: 101, label: "Harbor Coffee Pike Place" } } },
      { id: "routes/_app.locations.$locationId.control", data: {} },
    ];
    expect(locationLabelFromMatches(matches)).toBe("Harbor Coffee Pike Place");
    expect(locationLabelFromMatches([{ id: LOCATION_ROUTE_ID, data: null }])).toBeNull();
    expect(locationLabelFromMatches([])).toBeNull();
  });
});
