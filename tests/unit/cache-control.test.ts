import { describe, expect, it } from "vitest";
import { cacheControlFor } from "~/server/http/cache-control.server";

describe("cacheControlFor", () => {
  it("makes every answer private, no-store unless it declares public caching", () => {
    expect(cacheControlFor(undefined)).toBe("private, no-store");
    expect(cacheControlFor("no-store")).toBe("private, no-store");
    expect(cacheControlFor("max-age=3600")).toBe("private, no-store");
    expect(cacheControlFor("private, max-age=60")).toBe("private, no-store");
    expect(cacheControlFor("public, max-age=300")).toBe("public, max-age=300");
    expect(cacheControlFor("max-age=60, public")).toBe("max-age=60, public");
    expect(cacheControlFor("x-public-ish")).toBe("private, no-store");
  });
});
