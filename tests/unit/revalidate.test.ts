import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { keepWithinLocation } from "~/lib/revalidate";

const args = (over: Partial<ShouldRevalidateFunctionArgs>): ShouldRevalidateFunctionArgs => ({
  currentUrl: new URL("http://x/locations/101/control"),
  currentParams: { locationId: "101" },
  nextUrl: new URL("http://x/locations/101/spending"),
  nextParams: { locationId: "101" },
  defaultShouldRevalidate: true,
  ...over,
});

describe("keepWithinLocation: a layout's data kept on links within one location", () => {
  it("keeps it on a link to another page of the same location, and between pages of no location", () => {
    expect(keepWithinLocation(args({}))).toBe(false);
    expect(keepWithinLocation(args({ currentParams: {}, nextParams: {} }))).toBe(false);
    expect(keepWithinLocation(args({ formMethod: "GET" }))).toBe(false);
  });
  it("leaves it to Remix when the location changes", () => {
    for (const d of [true, false]) {
      expect(
        keepWithinLocation(args({ nextParams: { locationId: "107" }, defaultShouldRevalidate: d })),
      ).toBe(d);
      expect(keepWithinLocation(args({ nextParams: {}, defaultShouldRevalidate: d }))).toBe(d);
    }
  });
  it("leaves it to Remix after anything posted", () => {
    for (const formMethod of ["POST", "post", "PUT", "DELETE"] as const)
      expect(keepWithinLocation(args({ formMethod: formMethod as "POST" }))).toBe(true);
  });
});
