import { describe, expect, it } from "vitest";
import { parseConfig, supportEmail } from "~/server/config.server";

describe("the support address comes from configuration only", () => {
  it("is SUPPORT_EMAIL when set", () => {
    const cfg = parseConfig({ SUPPORT_EMAIL: "help@example.com", PUBLIC_URL: "https://app.energyops.com" });
    expect(supportEmail(cfg)).toBe("help@example.com");
  });

  it("else support@ the host of PUBLIC_URL, without www.", () => {
    expect(supportEmail(parseConfig({ PUBLIC_URL: "https://www.energyops.com/" }))).toBe(
      "support@energyops.com",
    );
    expect(supportEmail(parseConfig({ PUBLIC_URL: "https://app.energyops.com:8443/x" }))).toBe(
      "support@app.energyops.com",
    );
  });

  it("else the fixed default, also when PUBLIC_URL's host is not a domain name", () => {
    expect(supportEmail(parseConfig({}))).toBe("support@energyops.test");
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])
      expect(supportEmail(parseConfig({ PUBLIC_URL: url }))).toBe("support@energyops.test");
  });
});
