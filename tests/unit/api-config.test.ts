import { describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../../api/config";

describe("the reference api's configuration", () => {
  it("has defaults for every variable", () => {
    expect(apiConfigFromEnv({})).toEqual({
      latencyMs: 0,
      demoData: true,
      staffEmailDomain: "energyops.test",
      thermostatActionDelayMs: 20_000,
      utilityProviderDelayMs: 6_000,
      quiet: false,
      clockStart: undefined,
      testHooks: false,
      devOutbox: false,
      extraLocations: 0,
      smtp: undefined,
      notificationIntervalMs: 60_000,
      // The demo's provider: the simulator on the api's own port (its URL set at start), with its demo keys.
      arcadia: {
        apiUrl: null,
        clientId: "demo-client-id",
        clientSecret: "demo-client-secret",
        env: "sandbox",
        webhookSecret: "energyops-demo-arcadia-webhook-key",
      },
    });
  });

  it("reads the mail server, and refuses one without a From or with another scheme, never echoing the URL", () => {
    expect(
      apiConfigFromEnv({
        SMTP_URL: "smtp://user:p%40ss@mail.example.com:587",
        MAIL_FROM: "EnergyOps <alerts@example.com>",
        MAIL_REPLY_TO: "support@example.com",
      }).smtp,
    ).toEqual({
      url: "smtp://user:p%40ss@mail.example.com:587",
      from: "EnergyOps <alerts@example.com>",
      replyTo: "support@example.com",
    });
    expect(() => apiConfigFromEnv({ SMTP_URL: "smtps://u:secret@mail.example.com" })).toThrow(
      /MAIL_FROM: required when SMTP_URL is set/,
    );
    expect(() =>
      apiConfigFromEnv({ SMTP_URL: "http://u:secret@mail.example.com", MAIL_FROM: "a@b.co" }),
    ).toThrow(/SMTP_URL/);
    expect(() =>
      apiConfigFromEnv({ SMTP_URL: "http://u:secret@mail.example.com", MAIL_FROM: "a@b.co" }),
    ).not.toThrow(/secret/);
    expect(() => apiConfigFromEnv({ MAIL_FROM: "not an address" })).toThrow(/MAIL_FROM/);
  });

  it("reads each variable", () => {
    const c = apiConfigFromEnv({
      API_LATENCY_MS: "200",
      API_DEMO_DATA: "false",
      THERMOSTAT_ACTION_DELAY_MS: "2500",
      UTILITY_PROVIDER_DELAY_MS: "0",
      CLOCK_START: "2026-11-18T19:30:00.000Z",
      LOG_LEVEL: "silent",
      ENABLE_TEST_HOOKS: "true",
    });
    expect(c).toMatchObject({
      latencyMs: 200,
      demoData: false,
      thermostatActionDelayMs: 2500,
      utilityProviderDelayMs: 0,
      quiet: true,
      testHooks: true,
    });
    expect(apiConfigFromEnv({ ENABLE_TEST_HOOKS: "1" }).testHooks).toBe(true);
    expect(apiConfigFromEnv({ ENABLE_TEST_HOOKS: "false" }).testHooks).toBe(false);
    expect(c.clockStart).toBe("2026-11-18T19:30:00.000Z");
  });

  it("names every bad variable instead of running with a wrong value", () => {
    let message = "";
    try {
      apiConfigFromEnv({ API_LATENCY_MS: "soon", CLOCK_START: "yesterday", API_DEMO_DATA: "no" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ["API_LATENCY_MS", "CLOCK_START", "API_DEMO_DATA"]) expect(message).toContain(name);
    expect(() => apiConfigFromEnv({ CLOCK_START: "yesterday" })).toThrow(/CLOCK_START/);
    expect(() => apiConfigFromEnv({ ENABLE_TEST_HOOKS: "yes" })).toThrow(/ENABLE_TEST_HOOKS/);
    expect(() => apiConfigFromEnv({ THERMOSTAT_ACTION_DELAY_MS: "-1" })).toThrow(
      /THERMOSTAT_ACTION_DELAY_MS/,
    );
  });
});
