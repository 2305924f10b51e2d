import { describe, expect, it } from "vitest";
import { locationName } from "../../shared/location-name";
import { locationLabel } from "../../app/features/locations/locations";
import type { Building } from "../../app/features/locations/locations.server";

describe("one name per location (rule location-name)", () => {
  it("names a location by its name in pages, exports and emails, never by its nickname in its place", () => {
    const b = { id: 101, name: "Harbor Coffee Pike Place", nickname: "Flagship", code: "HCC-007" };
    expect(locationName(b)).toBe("Harbor Coffee Pike Place");
    // The pages' label (a customer's) is the same name; staff read the code.
    expect(locationLabel(b as unknown as Building, false)).toBe(locationName(b));
    expect(locationLabel(b as unknown as Building, true)).toBe("HCC-007");
  });
});
