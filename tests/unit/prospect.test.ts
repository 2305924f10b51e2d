import { describe, expect, it } from "vitest";
import {
  clientIpFromHeaders,
  conedUtilityData,
  prospectSchema,
  prospectStep,
} from "~/features/prospect/prospect";

describe("prospect form", () => {
  const ok = {
    firstName: "Ada",
    emailAddress: "ada@example.test",
    companyName: "Ada's",
    arcadiaProvider: "prov_pge",
  };
  it("requires the four fields; the checkboxes are optional", () => {
    expect(prospectSchema.safeParse(ok).success).toBe(true);
    expect(prospectSchema.safeParse({ ...ok, rateQuote: "on", communicationsConsent: "on" }).success).toBe(
      true,
    );
    for (const k of Object.keys(ok)) expect(prospectSchema.safeParse({ ...ok, [k]: "" }).success).toBe(false);
    const bad = prospectSchema.safeParse({ ...ok, emailAddress: "nope" });
    expect(bad.success ? null : bad.error.issues[0].message).toBe("Please enter a valid email address");
  });
  it("goes form → ConEd numbers or connect → success", () => {
    expect(prospectStep(null, null)).toBe("form");
    expect(prospectStep({ isConed: true, done: false }, null)).toBe("coned");
    expect(prospectStep({ isConed: false, done: false }, "success")).toBe("connect");
    expect(prospectStep({ isConed: false, done: true }, null)).toBe("success");
    expect(prospectStep({ isConed: false, done: true }, "form")).toBe("form");
  });
  it("derives utility_data from the account numbers", () => {
    expect(conedUtilityData(["1", "2"])).toEqual({
      coned_accounts: [{ account_number: "1" }, { account_number: "2" }],
    });
  });
  it("reads the client IP only behind trusted proxies", () => {
    expect(clientIpFromHeaders("1.1.1.1, 10.0.0.1", 0)).toBeNull();
    expect(clientIpFromHeaders("6.6.6.6, 1.1.1.1, 10.0.0.1", 1)).toBe("10.0.0.1");
    expect(clientIpFromHeaders("6.6.6.6, 1.1.1.1, 10.0.0.1", 2)).toBe("1.1.1.1");
    expect(clientIpFromHeaders("1.1.1.1", 5)).toBe("1.1.1.1");
    expect(clientIpFromHeaders(null, 1)).toBeNull();
  });
});
