import { describe, expect, it } from "vitest";
import { pathId } from "../../api/lib/ids";
import { HttpError } from "../../api/lib/http";

const status = (f: () => unknown) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return e instanceof HttpError ? e.status : "other";
  }
};

describe("pathId (api/lib/ids.ts)", () => {
  it("reads 1 to 12 digits, or a number already read", () => {
    expect(pathId("101")).toBe(101);
    expect(pathId("999999999999")).toBe(999_999_999_999);
    expect(pathId(7)).toBe(7);
  });

  it("is a 404 for anything else, like an id that is not there", () => {
    for (const v of [
      undefined,
      "",
      " 101",
      "101.0",
      "1e3",
      "0x10",
      "+5",
      "-5",
      "0",
      "abc",
      "1".repeat(13),
      1.5,
      0,
      -1,
    ])
      expect(
        status(() => pathId(v)),
        String(v),
      ).toBe(404);
  });
});
