import { describe, expect, it } from "vitest";
import { signInRefusal } from "../../shared/sign-in-access";
import { errorFromResponse } from "~/server/upstream/api-error";

describe("who may have a session (rule sign-in-by-client-type)", () => {
  it("a large commercial client's person is sent to /mycor, a residential one's is not enabled", () => {
    expect(signInRefusal({ isStaff: false, clientType: "LARGE_COMMERCIAL" })).toBe("mycor");
    expect(signInRefusal({ isStaff: false, clientType: "RESI" })).toBe("resi");
  });

  it("SMB customers and staff (whatever client they look at) may", () => {
    expect(signInRefusal({ isStaff: false, clientType: "SMB" })).toBeNull();
    expect(signInRefusal({ isStaff: true, clientType: "RESI" })).toBeNull();
    expect(signInRefusal({ isStaff: true, clientType: "LARGE_COMMERCIAL" })).toBeNull();
    expect(signInRefusal({ isStaff: true, clientType: null })).toBeNull();
  });

  it("the api's refusal keeps its code through the catalogue's generic 403", () => {
    const e = errorFromResponse(
      403,
      JSON.stringify({ message: "Login has not yet been enabled", error: "resi" }),
    );
    expect(e.message).toBe("Forbidden");
    expect(e.details).toEqual({ code: "resi" });
    expect(errorFromResponse(403, "").details).toEqual({});
    expect(errorFromResponse(403, JSON.stringify({ error: "<script>" })).details).toEqual({});
  });

  it("a 429 keeps when to ask again", () => {
    const e = errorFromResponse(429, JSON.stringify({ message: "Too many", retry_after_seconds: 720 }));
    expect(e.details).toEqual({ retryAfterSeconds: 720 });
    expect(errorFromResponse(429, JSON.stringify({ message: "x", retry_after_seconds: -1 })).details).toEqual(
      {},
    );
  });
});
