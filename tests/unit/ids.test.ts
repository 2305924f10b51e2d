import { describe, expect, it } from "vitest";
import { idParam, ID_MAX_DIGITS, parseId } from "~/lib/ids";
import { parseGridState } from "~/features/grid-services/grid-services";
import { parseTableState } from "~/features/locations/locations";
import { teamQuery } from "~/features/settings/settings.server";
import { requireLocationId } from "~/features/locations/locations.server";

const NOT_IDS = [
  "",
  " 7",
  "7 ",
  "+7",
  "-7",
  "0",
  "000",
  "1.5",
  "1.0",
  "1e3",
  "0x10",
  "NaN",
  "Infinity",
  "7abc",
  "١٢",
  "9".repeat(ID_MAX_DIGITS + 1),
  "99999999999999999999999",
];

describe("parseId", () => {
  it("reads 1 to 12 digits as a positive whole number", () => {
    expect(parseId("7")).toBe(7);
    expect(parseId("007")).toBe(7);
    expect(parseId("1234567890")).toBe(1234567890);
    expect(parseId("9".repeat(ID_MAX_DIGITS))).toBe(999_999_999_999);
  });

  it("answers null for anything else: signs, decimals, exponents, spaces, zero, too many digits", () => {
    for (const v of NOT_IDS) expect(parseId(v), JSON.stringify(v)).toBeNull();
  });

  it("answers null for what is not a string (a missing parameter, a file field)", () => {
    expect(parseId(null)).toBeNull();
    expect(parseId(undefined)).toBeNull();
    expect(parseId(12)).toBeNull();
    expect(parseId(new Blob(["1"]))).toBeNull();
  });
});

describe("idParam", () => {
  it("returns the id of a route parameter", () => {
    expect(idParam("1003")).toBe(1003);
  });

  it("throws a 404 response for a route parameter that is not an id", () => {
    for (const v of [undefined, ...NOT_IDS]) {
      let thrown: unknown;
      try {
        idParam(v);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(v)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    }
  });

  it("throws what the route asks for instead (the location pages go back to the list, saying why)", async () => {
    const request = new Request("http://web.test/locations/1e3/usage");
    const thrown = await requireLocationId(request, "1e3").catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/locations");
    // The toast rides in the session cookie (a flash the next page reads once).
    expect((thrown as Response).headers.get("Set-Cookie")).toBeTruthy();
    expect(await requireLocationId(request, "101")).toBe(101);
  });
});

describe("ids in query strings fall back to the page's default", () => {
  it("the grid-services page number and expanded rows", () => {
    const s = parseGridState(new URLSearchParams("page=1e1&open=0x10&open=4&open=2.0"));
    expect(s.page).toBe(1);
    expect(s.open).toEqual([4]);
  });

  it("the expanded row of the locations table", () => {
    expect(parseTableState(new URLSearchParams("expanded=1e3")).expanded).toBeNull();
    expect(parseTableState(new URLSearchParams("expanded=12")).expanded).toBe(12);
  });

  it("the team member being edited", () => {
    expect(teamQuery(new URLSearchParams("edit=0x10")).edit).toBeNull();
    expect(teamQuery(new URLSearchParams("edit=%2016")).edit).toBeNull();
    expect(teamQuery(new URLSearchParams("edit=16")).edit).toBe(16);
  });
});
