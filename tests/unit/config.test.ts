import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/server/config.server";

describe("parseConfig", () => {
  it("applies defaults in development with a generated secret", () => {
    const cfg = parseConfig({});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.API_PORT).toBe(3001);
    expect(cfg.UPSTREAM_TIMEOUT_MS).toBe(10_000);
    expect(cfg.STAFF_EMAIL_DOMAIN).toBe("energyops.test");
    expect(cfg.sessionSecretGenerated).toBe(true);
    expect(cfg.SESSION_SECRET).toHaveLength(64);
  });

  it("requires SESSION_SECRET in production", () => {
    expect(() => parseConfig({ NODE_ENV: "production" })).toThrowError(
      /SESSION_SECRET: required in production/,
    );
    const cfg = parseConfig({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) });
    expect(cfg.sessionSecretGenerated).toBe(false);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["API_URL", "not a url"],
    ["UPSTREAM_TIMEOUT_MS", "5"],
    ["SESSION_SECRET", "short"],
    ["STAFF_EMAIL_DOMAIN", "not a domain"],
    ["SUPPORT_EMAIL", "nope"],
    ["NODE_ENV", "staging"],
  ])("names the bad variable %s=%s", (name, value) => {
    try {
      parseConfig({ [name]: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(name);
    }
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ API_URL: "", PORT: "" }).PORT).toBe(3000);
  });
});
