import { describe, expect, it } from "vitest";
import { isoDate } from "../../api/lib/schemas";

const messages = (value: unknown) => {
  const r = isoDate.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("isoDate (api/lib/schemas.ts)", () => {
  it("accepts a real calendar day", () => {
    for (const d of ["2026-01-31", "2024-02-29", "2026-12-01"]) expect(messages(d), d).toEqual([]);
  });

  it("refuses another shape", () => {
    for (const d of ["2026-1-31", "20260131", "2026-01-31T00:00:00Z", " 2026-01-31", ""])
      expect(messages(d), d).toContain("must be a date YYYY-MM-DD");
    expect(isoDate.safeParse(20260131).success).toBe(false);
  });

  it("refuses a day that does not exist, even one Date.parse would roll over", () => {
    for (const d of ["2026-02-30", "2025-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-32"])
      expect(messages(d), d).toEqual(["must be a valid date"]);
  });
});
